#!/usr/bin/env bash
# First device run of the second session of 2026-11-28, on 2 H100s
# (nvidia-h100-x2): the tests revised after the last run (fault tests through
# gputest.InChild, TestMultiDeviceConformance per chunk, the cause behind
# NewGPUBatchCompressor), the concurrency tests under the race detector,
# CompressBatch from Go memory (the staging copies overlapped with the payload
# copies against the one-goroutine loop, the copies alone, CompressBuffer),
# page-locking Go memory per call, 1 against 2 devices with the host's limits,
# and CPU profiles of the staged path and of the Writer's GPU path. CPU work on
# 16 cores (taskset). Built here with make gpu-binaries plus
#   go test -race -c -ldflags='-s -w' -o build/gpu/lz4warp-race.test .
set -o pipefail
export NCCL_NVLS_ENABLE=0
R=$OUT/r; mkdir -p $R
B=build/gpu
source $B/goroot.sh; setup_goroot
step() { local t=$1; shift; echo "=== $* (limit $t s)"; timeout $t "$@"; echo "=== rc $?"; }
T="taskset -c 0-15"
export LZ4WARP_REQUIRE_GPU=1
{ nvidia-smi --query-gpu=index,name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader; nproc; lscpu | grep -E 'Model name|Socket|NUMA node\(s\)'; free -g | head -2; } > $R/devices.txt 2>&1
# 1. The revised tests.
OUT=$R/suite step 200 bash $B/run.sh faults multidevice > $R/suite.log 2>&1
step 90 $T $B/lz4warp-race.test -test.count=1 -test.v \
	-test.run 'TestCompressorGPUFromGoroutines|TestCompressorStagedFault|TestConcurrent|TestDecompressDoesNotWait|TestCompressBatchIntoReuse' \
	> $R/race.log 2>&1
# 2. CompressBatch from Go memory, every way in one run, and its profile.
step 150 $T $B/lz4warp.test -test.run '^$' -test.bench 'FromGo$/^(gpubuf|staged|serial|copyin)/^(mixed|text|coredump)$/' \
	-test.benchtime 5x -test.count 1 -batches 10000,100000 > $R/fromgo.txt 2>&1
step 40 $T $B/lz4warp.test -test.run '^$' -test.bench 'FromGo$/^staged-4096/^mixed$/100000' -test.benchtime 40x \
	-test.cpuprofile $R/staged.pprof > $R/staged-profile.txt 2>&1
step 40 $T $B/lz4warp.test -test.run '^$' -test.bench 'Register' -test.benchtime 10x > $R/register.txt 2>&1
# 3. One against two devices, and the host's limits, in one run.
LZ4WARP_BENCH_DEVICES=1,2 LZ4WARP_BENCH_SETS=mixed,text,coredump step 150 $T $B/lz4warp.test -test.run '^$' \
	-test.bench '^Benchmark(HostLimits|MultiDevice)$' -test.benchtime 100x -test.count 1 > $R/multi.txt 2>&1
# 4. The Writer's GPU path, profiled.
step 40 $T $B/lz4warp.test -test.run '^$' -test.bench 'Writer/gpu' -test.benchtime 5x \
	-test.cpuprofile $R/writer.pprof > $R/writer.txt 2>&1
sed -n '/=== summary/,$p' $R/suite.log
grep -hE '^(--- FAIL|FAIL|panic)' $R/*.log $R/*.txt $R/suite/*.log 2>/dev/null | head -20
grep -hE '^(--- |ok|FAIL|PASS)' $R/race.log | head -20
cat $R/devices.txt
grep -hE '^Benchmark' $R/fromgo.txt $R/staged-profile.txt $R/register.txt $R/multi.txt $R/writer.txt | cut -c1-200
cd $OUT && tar czf r.tgz r && rm -rf r
