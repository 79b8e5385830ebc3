#!/usr/bin/env bash
# Third call: where the shared batch (API-29) overtakes the 16-core CPU:
# BenchmarkDecode simd and gpushare on every data set at 1,000 / 3,000 /
# 10,000 / 30,000 pages, two rounds in turns (the binaries of run2.sh).
#   build (here): bash run2.sh build; carry build/dec14. run (device): bash run3.sh run
set -o pipefail
B=build/dec14
R=$OUT/r; mkdir -p $R
source $B/goroot.sh; setup_goroot
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $R/devices.txt
for round in 1 2; do
	taskset -c 0-15 $B/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 10x \
		-test.bench '^BenchmarkDecode$/(simd|gpushare)/' -batches 1000,3000,10000,30000 2>&1 |
		grep -E '^Bench' | tee -a $R/bench.txt
done
