#!/usr/bin/env bash
# The device run of issue 25's entry points: built here with
# `make gpu-binaries` plus a race-enabled root test binary, run there from
# the repository root with build/gpu carried:
#
#   make gpu-binaries && go test -race -c -o build/gpu/lz4warp-race.test .
#
# Output goes to $OUT (the device tool's folder).
set -o pipefail
B=build/gpu
export OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
source "$B/goroot.sh" && setup_goroot   # the text and binaries data sets read a Go tree
$B/lz4warp devices | tee "$OUT/devices.log"
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv | tee -a "$OUT/devices.log"
nproc | tee -a "$OUT/devices.log"
# 1. The suite's GPU parts: the Compressor's fault tests now include the staged
#    batches from several goroutines and a fault in a staged batch; conformance
#    sends its GPU batches through CompressBatch's staging buffers.
bash $B/run.sh devices engine faults conformance features 2>&1 | tee "$OUT/suite.log"
# 2. The concurrency tests under the race detector, with the GPU.
LZ4WARP_REQUIRE_GPU=1 $B/lz4warp-race.test -test.count=1 -test.v \
	-test.run 'TestCompressorGPUFromGoroutines|TestCompressorStagedFault|TestConcurrent|TestDecompressDoesNotWait|TestCompressBatchIntoReuse' \
	2>&1 | tee "$OUT/race.log" | grep -E '^(--- |ok|FAIL|PASS)'
# 3. CompressBatch from Go memory against CompressBuffer, every way in one run
#    (API-23), and the cost of registering Go memory per call.
LZ4WARP_REQUIRE_GPU=1 $B/lz4warp.test -test.run '^$' -test.bench 'FromGo$|Register' -test.benchtime 10x \
	-test.count 3 -test.timeout 60m -batches 10000,30000,100000 -fromgo.stage 2048,4096,8192 \
	2>&1 | tee "$OUT/fromgo.txt" | grep -E '^Benchmark'
LZ4WARP_REQUIRE_GPU=1 $B/lz4warp.test -test.run '^$' -test.bench 'FromGoParallel' -test.benchtime 10x \
	-test.timeout 30m -batches 10000,100000 2>&1 | tee "$OUT/fromgo-parallel.txt" | grep -E '^Benchmark'
# 4. The CPU over 1 to 16 cores at 100,000 pages (text, mixed), and the single-page
#    and contention benchmarks.
$B/lz4warp.test -test.run '^$' -test.bench 'Scaling' -test.cpu 1,2,4,8,16 -test.benchtime 5x -test.count 3 \
	-test.benchmem -test.timeout 60m 2>&1 | tee "$OUT/scaling.txt" | grep -E '^Benchmark'
$B/lz4warp.test -test.run '^$' -test.bench 'CompressPage|DecompressPage|Contention' -test.cpu 16 -test.count 3 \
	-test.benchmem -test.timeout 30m 2>&1 | tee "$OUT/page-contention.txt" | grep -E '^Benchmark'
