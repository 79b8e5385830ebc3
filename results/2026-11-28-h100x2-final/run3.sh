#!/usr/bin/env bash
# Part 3: TestMultiDeviceDecode with its corrected bound (part 1 failed only
# on it), and the Writer and the command again on whatever two-GPU machine
# comes, for the figures on a second host. Carries build/small: the root test
# binary, the command, lz4, the stream scripts, goroot.sh.
set -o pipefail
export LZ4WARP_REQUIRE_GPU=1 NCCL_NVLS_ENABLE=0
B=build/small
source $B/goroot.sh; setup_goroot
R=$OUT/r; mkdir -p $R
step() { local t=$1; shift; echo "=== $* (limit $t s)"; timeout $t "$@"; echo "=== rc $?"; }
T="taskset -c 0-15"
{ date -u; nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; } > $R/devices.txt
step 60 $T $B/lz4warp.test -test.v -test.count=1 -test.run '^TestMultiDeviceDecode$' > $R/md-decode.log 2>&1
step 90 $T bash $B/streams-gpu.sh > $R/streams-gpu.log 2>&1
SIZE=$((4 << 30)) step 150 $T bash $B/cli-h100.sh 1 > $R/cli.log 2>&1
cat $R/devices.txt; grep -hE '^(---|ok|FAIL|PASS)' $R/md-decode.log
grep -hE '^(--- PASS: TestWriterGPU|--- FAIL)' $R/streams-gpu.log; grep -hE '^BenchmarkWriter/gpu' $R/streams-gpu.log | cut -c1-100
cat $R/cli.log
cd $OUT && tar czf r3.tgz r && rm -rf r
