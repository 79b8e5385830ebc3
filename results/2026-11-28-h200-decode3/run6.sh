#!/usr/bin/env bash
# Sixth call: the crossover of the 16-core CPU and the GPU through a
# PageBuffer on every data set (BenchmarkDecode simd and gpubuf, 1,000 /
# 3,000 / 10,000 / 30,000 / 100,000 pages, 10 batches after an untimed
# first), the kernel alone at 100,000 pages, and the decode API tests with
# the first chunk's injected faults restored.
#   build (here): B=build/dec8.
set -o pipefail
part=${1:?usage: run6.sh build|run}
B=build/dec8
if [[ $part == build ]]; then
	set -e
	rm -rf $B && mkdir -p $B
	go test -c -ldflags='-s -w' -o $B/lz4warp.test .
	cp scripts/gpu-run.sh $B/run.sh
	cp scripts/gpu-goroot.sh $B/goroot.sh
	du -sh $B
	exit 0
fi
R=$OUT/r; mkdir -p $R
source $B/goroot.sh; setup_goroot
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $R/devices.txt
T="taskset -c 0-15"
OUT=$R/suite timeout 120 bash $B/run.sh decode-api > $R/suite.log 2>&1
sed -n '/=== summary/,$p' $R/suite.log
$T $B/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 10x -test.timeout 8m \
	-test.bench '^BenchmarkDecode$/^(simd|gpubuf)$/' -batches 1000,3000,10000,30000,100000 > $R/decode-bench.log 2>&1
grep -E '^Bench' $R/decode-bench.log | awk '{printf "%s %s\n", $1, $5}'
$T $B/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 10x -test.bench '^BenchmarkDecodeKernel$' -batches 100000 2>&1 |
	grep -E '^Bench' | awk '{printf "%s", $1; for (i = 5; i <= NF; i++) printf " %s", $i; print ""}' | tee $R/kernel.txt
