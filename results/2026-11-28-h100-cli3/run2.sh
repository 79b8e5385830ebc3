#!/usr/bin/env bash
# The second device call (nvidia-h100-x1), after the GPU's batches came to
# be made on a goroutine of their own: the root package's GPU tests (the
# Writer's, the background opening's, and run.sh's faults and decode-api
# parts), then the command's GPU and CPU compress rows on the cached 4 GiB
# file, 3 rounds, with HEAD's command and c691a6e's (the baseline) in turn.
# Carries build/cli (build.sh, then cp scripts/gpu-run.sh build/cli/run.sh).
set -o pipefail
cd "$(dirname "$0")/../.."
export LZ4WARP_REQUIRE_GPU=1
B=build/cli
source $B/goroot.sh; setup_goroot >/dev/null
R=$OUT/r2; mkdir -p $R
step() { local t=$1; shift; echo "=== $* (limit $t s)"; timeout $t "$@"; echo "=== rc $?"; }
T="taskset -c 0-15"
{ date -u; nproc; nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; } > $R/devices.txt
step 120 $T $B/lz4warp.test -test.v -test.count=1 -test.run 'TestWriter|OpenInBackground' > $R/tests.log 2>&1
OUT=$R step 120 $T bash $B/run.sh faults decode-api > $R/run-sh.log 2>&1
export ONLY='^(lz4warp -c|cat)'
for i in 1 2 3; do
	SIZE=$((4 << 30)) step 100 $T bash $B/cli-h100.sh 1 > $R/cli-$i.log 2>&1
	BIN=$PWD/$B/lz4warp-c691a6e SIZE=$((4 << 30)) step 100 $T bash $B/cli-h100.sh 1 > $R/cli-c691a6e-$i.log 2>&1
done
cat $R/devices.txt; grep -hE '^(--- FAIL|ok|FAIL|PASS)' $R/tests.log; grep -c '^--- PASS' $R/tests.log; tail -3 $R/run-sh.log
for i in 1 2 3; do echo "--- round $i"; grep -E 'GB/s' $R/cli-$i.log; echo "- baseline c691a6e"; grep -E 'GB/s' $R/cli-c691a6e-$i.log; done
cd $OUT && tar czf r2.tgz r2 && rm -rf r2
