#!/usr/bin/env bash
# One device call (nvidia-h100-x1): the GPU tests of the Writer and of the
# background opening (API-28, STREAM-6), then the command against lz4 on a
# cached 4 GiB file (scripts/cli-h100.sh, 2 rounds) with the command of
# HEAD and with the command of c691a6e, the baseline, in the same call.
# Carries build/cli (build.sh).
set -o pipefail
cd "$(dirname "$0")/../.."
export LZ4WARP_REQUIRE_GPU=1
B=build/cli
source $B/goroot.sh; setup_goroot >/dev/null
R=$OUT/r; mkdir -p $R
step() { local t=$1; shift; echo "=== $* (limit $t s)"; timeout $t "$@"; echo "=== rc $?"; }
T="taskset -c 0-15"
{ date -u; nproc; nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; } > $R/devices.txt
step 120 $T $B/lz4warp.test -test.v -test.count=1 -test.run 'TestWriterGPU|OpenInBackground|WhileGPUOpens|GPUFailsToOpen|ReadFromFile' > $R/tests.log 2>&1
SIZE=$((4 << 30)) step 200 $T bash $B/cli-h100.sh 2 > $R/cli.log 2>&1
BIN=$PWD/$B/lz4warp-c691a6e SIZE=$((4 << 30)) step 150 $T bash $B/cli-h100.sh 1 > $R/cli-c691a6e.log 2>&1
cat $R/devices.txt; grep -hE '^(--- |ok|FAIL|PASS)' $R/tests.log
cat $R/cli.log; echo "--- baseline c691a6e"; cat $R/cli-c691a6e.log
cd $OUT && tar czf r.tgz r && rm -rf r
