#!/usr/bin/env bash
# Fifth call: the engine as committed (the batch laid out by goroutines
# started once a batch, streaming stores, pages to a HostPages by DMA):
# the pinned copies, BenchmarkDecode simd/gpu/gpubuf and BenchmarkDecodeKernel
# on mixed and coredump pages at 1,000 / 10,000 / 100,000 (10 batches after
# an untimed first), BenchmarkDecodeHost, TestDecodeClaims on that log, then
# the decode API tests, TestDecodeConformance on 1,000,000 pages and
# compute-sanitizer memcheck on 20,000 valid and hostile pages (run.sh).
#   build (here): B=build/dec7.
set -o pipefail
part=${1:?usage: run5.sh build|run}
B=build/dec7
if [[ $part == build ]]; then
	set -e
	rm -rf $B && mkdir -p $B
	go test -c -ldflags='-s -w' -o $B/lz4warp.test .
	go test -c -ldflags='-s -w' -o $B/gpuimpl.test ./gpuimpl
	go test -c -ldflags='-s -w' -o $B/falsification.test ./falsification
	cp scripts/gpu-run.sh $B/run.sh
	cp scripts/gpu-goroot.sh $B/goroot.sh
	cp build/decode2/liblz4-blocks.bin $B/
	du -sh $B
	exit 0
fi
R=$OUT/r; mkdir -p $R
source $B/goroot.sh; setup_goroot
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader | tee $R/devices.txt
T="taskset -c 0-15"
$T $B/lz4warp.test -test.run '^$' -test.bench '^BenchmarkPinnedH2D$/^64MiB(-to-host)?$' -test.benchtime 3x 2>&1 | grep -E '^Bench' | tee $R/pinned.txt
$T $B/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 10x -test.timeout 8m \
	-test.bench '^BenchmarkDecode(Kernel)?$/./^(mixed|coredump)$/' -batches 1000,10000,100000 > $R/decode-bench.log 2>&1
grep -E '^Bench' $R/decode-bench.log | awk '{printf "%s", $1; for (i = 5; i <= NF; i++) printf " %s", $i; print ""}'
(cd gpuimpl && $T ../$B/gpuimpl.test -test.cpu 16 -test.run '^$' -test.benchtime 10x -test.bench '^BenchmarkDecodeHost$') 2>&1 | grep -E '^Bench' | tee $R/host.txt
(cd falsification && LZ4WARP_DECODE_BENCH=$R/decode-bench.log timeout 30 ../$B/falsification.test -test.v \
	-test.count=1 -test.run '^TestDecodeClaims$') > $R/decode-claims.log 2>&1
grep -h 'decode claim\|^---\|^ok\|^FAIL\|^PASS' $R/decode-claims.log
OUT=$R/suite timeout 420 bash $B/run.sh decode-api decode-conformance decode-sanitizer > $R/suite.log 2>&1
grep -h '^decode:' $R/suite.log; grep -h 'ERROR SUMMARY' $R/suite.log | tail -1; sed -n '/=== summary/,$p' $R/suite.log
