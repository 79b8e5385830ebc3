#!/usr/bin/env bash
# Fourth call: the shared batch (API-29) against the 16-core CPU around
# GPUMinDecodeBatch: BenchmarkDecode simd and gpushare on every data set at
# 3,000 / 5,000 / 7,000 / 10,000 pages, 20 batches, two rounds in turns,
# at the commit that counts pages stored compressed.
#   build (here): bash run4.sh build; carry build/dec15. run (device): bash run4.sh run
set -o pipefail
part=${1:?usage: run4.sh build|run}
B=build/dec15
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
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $R/devices.txt
for round in 1 2; do
	taskset -c 0-15 $B/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 20x \
		-test.bench '^BenchmarkDecode$/(simd|gpushare)/' -batches 3000,5000,7000,10000 2>&1 |
		grep -E '^Bench' | tee -a $R/bench.txt
done
