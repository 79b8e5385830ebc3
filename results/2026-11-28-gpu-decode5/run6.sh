#!/usr/bin/env bash
# Sixth call: the decode kernel that loads the next sequence's head (token
# and offset) while the current one is checked and copied, against the
# kernel before (call 4's build, eae71b2), in turns: BenchmarkDecodeKernel
# on mixed, text and coredump pages at 10,000 and 100,000, two rounds;
# BenchmarkDecode gpubuf and gpushare at 10,000 mixed and text pages, both
# builds; then the new kernel's checks: the decode API tests, conformance
# on 1,000,000 pages with liblz4's blocks, memcheck on 20,000 valid and
# hostile pages.
#   build (here): bash run6.sh build; carry build/dec18. run (device): bash run6.sh run
set -o pipefail
part=${1:?usage: run6.sh build|run}
B=build/dec18
if [[ $part == build ]]; then
	set -e
	make gpu-binaries >/dev/null
	rm -rf $B && mkdir -p $B
	cp build/gpu/{lz4warp.test,gpuimpl.test,run.sh,goroot.sh,liblz4-blocks.bin} $B/
	cp build/dec15/lz4warp.test $B/lz4warp-old.test
	du -sh $B
	exit 0
fi
R=$OUT/r; mkdir -p $R
source $B/goroot.sh; setup_goroot
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $R/devices.txt
for round in 1 2; do for k in old new; do
	exe=$B/lz4warp.test; [[ $k == old ]] && exe=$B/lz4warp-old.test
	taskset -c 0-15 $exe -test.cpu 16 -test.run '^$' -test.benchtime 20x \
		-test.bench '^BenchmarkDecodeKernel$/gpu/^(mixed|text|coredump)$/' -batches 10000,100000 2>&1 | grep -E '^Bench' |
		awk -v k=$k '{printf "%s %s", k, $1; for (i = 6; i <= NF; i++) printf " %s", $i; print ""}' | tee -a $R/kernel.txt
done; done
for round in 1 2; do for k in old new; do
	exe=$B/lz4warp.test; [[ $k == old ]] && exe=$B/lz4warp-old.test
	taskset -c 0-15 $exe -test.cpu 16 -test.run '^$' -test.benchtime 20x \
		-test.bench '^BenchmarkDecode$/(gpubuf|gpushare)/^(mixed|text)$/' -batches 10000 2>&1 | grep -E '^Bench' |
		awk -v k=$k '{printf "%s %s %s %s\n", k, $1, $5, $7}' | tee -a $R/e2e.txt
done; done
OUT=$R/suite timeout 300 bash $B/run.sh decode-api decode-conformance decode-sanitizer > $R/suite.log 2>&1
sed -n '/=== summary/,$p' $R/suite.log
