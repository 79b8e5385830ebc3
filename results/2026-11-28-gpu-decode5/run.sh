#!/usr/bin/env bash
# First call: where the decode kernel's time goes. Nsight Compute's full
# set on one launch of 8,192 pages (the 33rd launch: the third batch's
# fifth chunk) of BenchmarkDecodeKernel on mixed and on text pages
# (100,000-page batches), with the SASS and its stall samples; the
# kernel's figures beside, for this host.
#   build (here): bash run.sh build; carry build/dec13. run (device): bash run.sh run
set -o pipefail
part=${1:?usage: run.sh build|run}
B=build/dec13
if [[ $part == build ]]; then
	set -e
	rm -rf $B && mkdir -p $B
	go test -c -ldflags='-s -w' -o $B/lz4warp.test .
	cp scripts/gpu-goroot.sh $B/goroot.sh
	du -sh $B
	exit 0
fi
R=$OUT/r; mkdir -p $R
source $B/goroot.sh; setup_goroot
export LZ4WARP_REQUIRE_GPU=1 PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $R/devices.txt
taskset -c 0-15 $B/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 20x \
	-test.bench '^BenchmarkDecodeKernel$/gpu/^(mixed|text)$/' -batches 100000 2>&1 | grep -E '^Bench' | tee $R/kernel.txt
for set in mixed text; do
	timeout 200 ncu --clock-control none -k regex:lz4warp_decode --launch-skip 32 --launch-count 1 --set full \
		--import-source no -o $R/$set $B/lz4warp.test -test.run '^$' -test.benchtime 3x \
		-test.bench "^BenchmarkDecodeKernel\$/gpu/^$set\$/" -batches 100000 > $R/ncu-$set.log 2>&1
	tail -3 $R/ncu-$set.log
	ncu -i $R/$set.ncu-rep --print-details all > $R/details-$set.txt 2>&1
	ncu -i $R/$set.ncu-rep --page source --print-source sass --csv > $R/sass-$set.csv 2>&1
	grep -E 'Issue Slots Busy|Executed Ipc Active|No Eligible|Active Warps Per Scheduler|Eligible Warps|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Registers Per|Duration|Block Limit' $R/details-$set.txt
done
ls -la $R
