#!/usr/bin/env bash
# Eighth call: the shared batch's CPU share on one worker fewer than
# GOMAXPROCS (the GPU's waiting thread spins on a core of its own) against
# the share on every worker (call 7's build), in turns, two rounds:
# BenchmarkDecode gpushare on mixed, text and coredump pages at 10,000 /
# 30,000 / 100,000, 20 batches, with simd and gpubuf beside; then
# TestDecompressShared.
#   build (here): bash run8.sh build; carry build/dec20. run (device): bash run8.sh run
set -o pipefail
part=${1:?usage: run8.sh build|run}
B=build/dec20
if [[ $part == build ]]; then
	set -e
	rm -rf $B && mkdir -p $B
	go test -c -ldflags='-s -w' -o $B/lz4warp.test .
	cp build/dec19/lz4warp.test $B/lz4warp-all.test
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
		-test.bench '^BenchmarkDecode$/(simd|gpubuf)/^(mixed|text|coredump)$/' -batches 10000,30000,100000 2>&1 |
		grep -E '^Bench' | awk '{printf "base %s %.1f\n", $1, $5/1000}' | tee -a $R/bench.txt
	for v in all fewer; do
		exe=$B/lz4warp.test; [[ $v == all ]] && exe=$B/lz4warp-all.test
		taskset -c 0-15 $exe -test.cpu 16 -test.run '^$' -test.benchtime 20x \
			-test.bench '^BenchmarkDecode$/gpushare/^(mixed|text|coredump)$/' -batches 10000,30000,100000 2>&1 |
			grep -E '^Bench' | awk -v v=$v '{printf "%s %s %.1f %s\n", v, $1, $5/1000, $7}' | tee -a $R/bench.txt
	done
done
$B/lz4warp.test -test.run 'TestDecompressShared|TestDecompressOnGPU' -test.v 2>&1 | grep -E '^(--- |PASS|FAIL|ok)|share' | tee $R/tests.txt
