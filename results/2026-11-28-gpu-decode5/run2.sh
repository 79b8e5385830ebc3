#!/usr/bin/env bash
# Second call: a PageBuffer's batch shared by the GPU and the CPU
# (API-29) against the GPU alone and the 16-core CPU, in turns, on mixed,
# text and coredump pages at 10,000 / 30,000 / 100,000 pages, two rounds;
# the decode API tests with TestDecompressShared.
#   build (here): bash run2.sh build; carry build/dec14. run (device): bash run2.sh run
set -o pipefail
part=${1:?usage: run2.sh build|run}
B=build/dec14
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
$B/lz4warp.test -test.run 'Decompress|Decode' -test.v 2>&1 | grep -E '^(=== RUN|--- |PASS|FAIL|ok)|share' | grep -v '=== RUN' | tee $R/tests.txt | tail -40
for round in 1 2; do
	taskset -c 0-15 $B/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 10x \
		-test.bench '^BenchmarkDecode$/(simd|gpubuf|gpushare)/^(mixed|text|coredump)$/' -batches 10000,30000,100000 2>&1 |
		grep -E '^Bench' | tee -a $R/bench.txt
done
