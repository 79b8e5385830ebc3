#!/usr/bin/env bash
# The last device run of 2026-11-28, on 4 H100s (nvidia-h100-x4), of main with
# every branch of the day merged: the GPU suite (run.sh's parts), the entry
# points' GPU and CPU benchmarks (CompressBatch from Go memory against
# CompressBuffer, scaling over 1 to 16 cores, single pages, contention), the
# Writer on the GPU and the command against lz4. CPU work runs on 16 of the 64
# cores (taskset), as on the one-GPU host. Built here with make gpu-binaries,
# plus lz4, liblz4.so.1, cli-h100.sh and streams-gpu.sh copied into build/gpu;
# run from the repository root with build/gpu carried.
set -o pipefail
export NCCL_NVLS_ENABLE=0
R=$OUT/r; mkdir -p $R
B=build/gpu
source $B/goroot.sh; setup_goroot
step() { local t=$1; shift; echo "=== $* (limit $t s)"; timeout $t "$@"; echo "=== rc $?"; }
nvidia-smi --query-gpu=index,name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader > $R/devices.txt
# 1. The GPU suite.
OUT=$R/suite step 200 bash $B/run.sh cudart engine faults multidevice conformance features falsification cli decode-api decode-conformance > $R/suite.log 2>&1
# 2. CompressBatch from Go memory against a PageBuffer, in one run.
LZ4WARP_REQUIRE_GPU=1 step 80 taskset -c 0-15 $B/lz4warp.test -test.run '^$' -test.bench 'FromGo$/./^(mixed|text|coredump)$/' -test.benchtime 5x \
	-test.count 1 -batches 10000,100000 > $R/fromgo.txt 2>&1
# 3. The Writer on the GPU (same bytes as the CPU's) and the command against lz4.
step 50 taskset -c 0-15 bash $B/streams-gpu.sh > $R/streams-gpu.log 2>&1
SIZE=$((4 << 30)) step 100 taskset -c 0-15 bash $B/cli-h100.sh 1 > $R/cli.log 2>&1
# 4. The CPU over 1 to 16 cores at 100,000 pages; single pages; contention.
step 60 taskset -c 0-15 $B/lz4warp.test -test.run '^$' -test.bench 'Scaling' -test.cpu 1,2,4,8,16 -test.benchtime 3x \
	-test.count 1 -test.benchmem > $R/scaling.txt 2>&1
step 20 taskset -c 0-15 $B/lz4warp.test -test.run '^$' -test.bench 'CompressPage|DecompressPage|Contention' -test.cpu 16 \
	-test.benchmem > $R/page-contention.txt 2>&1
sed -n '/=== summary/,$p' $R/suite.log
grep -hE '^(--- FAIL|FAIL|panic)' $R/*.log $R/suite/*.log 2>/dev/null | head -20
grep -hE '^Benchmark' $R/fromgo.txt | cut -c1-160
grep -hE '^(--- FAIL|--- PASS: TestWriterGPU|FAIL)' $R/streams-gpu.log; grep -hE '^BenchmarkWriter/gpu' $R/streams-gpu.log | cut -c1-120
cat $R/cli.log
grep -hE '^Benchmark' $R/scaling.txt $R/page-contention.txt | cut -c1-150
cd $OUT && tar czf r.tgz r && rm -rf r
