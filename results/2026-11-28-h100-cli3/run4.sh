#!/usr/bin/env bash
# The fourth device call (nvidia-h100-x1), after xxh32's AVX2 stripes: the
# xxh32 benchmark, BenchmarkWriterFile (3 iterations), then the command
# against lz4 on the cached 4 GiB file (scripts/cli-h100.sh, every row, 2
# rounds) and c691a6e's command, the baseline, on the compress rows (1
# round). Carries build/cli (build.sh, then go test -c -o
# build/cli/xxh32.test ./internal/xxh32).
set -o pipefail
cd "$(dirname "$0")/../.."
B=build/cli
source $B/goroot.sh; setup_goroot >/dev/null
R=$OUT/r4; mkdir -p $R
step() { local t=$1; shift; echo "=== $* (limit $t s)"; timeout $t "$@"; echo "=== rc $?"; }
T="taskset -c 0-15"
{ date -u; nproc; nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; } > $R/devices.txt
(cd internal/xxh32 && timeout 60 $T ../../$B/xxh32.test -test.run '^$' -test.bench . -test.benchtime 300x) > $R/xxh32.txt 2>&1
timeout 120 $T $B/lz4warp.test -test.run '^$' -test.bench 'WriterFile' -test.benchtime 3x > $R/bench.txt 2>&1
SIZE=$((4 << 30)) step 200 $T bash $B/cli-h100.sh 2 > $R/cli.log 2>&1
ONLY='^(lz4warp -c|cat)' BIN=$PWD/$B/lz4warp-c691a6e SIZE=$((4 << 30)) step 100 $T bash $B/cli-h100.sh 1 > $R/cli-c691a6e.log 2>&1
cat $R/devices.txt; grep -E '^Benchmark' $R/xxh32.txt $R/bench.txt | sed -E 's/ +/ /g'
grep GB/s $R/cli.log; echo "- baseline c691a6e"; grep GB/s $R/cli-c691a6e.log
cd $OUT && tar czf r4.tgz r4 && rm -rf r4
