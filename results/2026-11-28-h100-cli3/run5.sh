#!/usr/bin/env bash
# The fifth device call (nvidia-h100-x1), after the Writer came to use CPU
# batches while its GPU batches are made: the root package's GPU tests
# (Writer, background opening, run.sh faults), BenchmarkWriterFile (3
# iterations), and the command's compress rows on the cached 4 GiB file,
# 3 rounds, HEAD's command and c691a6e's in turn. Carries build/cli
# (build.sh, then cp scripts/gpu-run.sh build/cli/run.sh).
set -o pipefail
cd "$(dirname "$0")/../.."
export LZ4WARP_REQUIRE_GPU=1
B=build/cli
source $B/goroot.sh; setup_goroot >/dev/null
R=$OUT/r5; mkdir -p $R
step() { local t=$1; shift; echo "=== $* (limit $t s)"; timeout $t "$@"; echo "=== rc $?"; }
T="taskset -c 0-15"
{ date -u; nproc; nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; } > $R/devices.txt
step 120 $T $B/lz4warp.test -test.v -test.count=1 -test.run 'TestWriter|OpenInBackground' > $R/tests.log 2>&1
OUT=$R step 60 $T bash $B/run.sh faults > $R/run-sh.log 2>&1
timeout 100 $T $B/lz4warp.test -test.run '^$' -test.bench 'WriterFile' -test.benchtime 3x > $R/bench.txt 2>&1
export ONLY='^(lz4warp -c|cat)'
for i in 1 2 3; do
	SIZE=$((4 << 30)) step 100 $T bash $B/cli-h100.sh 1 > $R/cli-$i.log 2>&1
	BIN=$PWD/$B/lz4warp-c691a6e SIZE=$((4 << 30)) step 100 $T bash $B/cli-h100.sh 1 > $R/cli-c691a6e-$i.log 2>&1
done
cat $R/devices.txt; grep -hE '^(--- FAIL|ok|FAIL|PASS)' $R/tests.log; grep -c '^--- PASS' $R/tests.log; tail -2 $R/run-sh.log
grep -E '^Benchmark' $R/bench.txt | sed -E 's/ +/ /g' | cut -c1-160
for i in 1 2 3; do echo "--- round $i"; grep -E 'GB/s' $R/cli-$i.log; echo "- baseline c691a6e"; grep -E 'GB/s' $R/cli-c691a6e-$i.log; done
cd $OUT && tar czf r5.tgz r5 && rm -rf r5
