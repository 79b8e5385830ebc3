#!/usr/bin/env bash
# The seventh device call: the root package's Writer, background-opening,
# Compressor and buffer tests and the examples at HEAD (after the Writer's
# early check of its error and the shared running()), and the command's
# GPU rows once more on a 1 GiB file (1 round). Carries build/cli.
set -o pipefail
cd "$(dirname "$0")/../.."
export LZ4WARP_REQUIRE_GPU=1
B=build/cli
source $B/goroot.sh; setup_goroot >/dev/null
R=$OUT/r7; mkdir -p $R
T="taskset -c 0-15"
{ date -u; nproc; nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; } > $R/devices.txt
timeout 100 $T $B/lz4warp.test -test.v -test.count=1 -test.run 'TestWriter|OpenInBackground|TestCompressor|TestCompressBuffer|Example' > $R/tests.log 2>&1; echo "root rc $?"
ONLY='^lz4warp -c --backend gpu' SIZE=$((1 << 30)) timeout 60 $T bash $B/cli-h100.sh 1 > $R/cli.log 2>&1; echo "cli rc $?"
cat $R/devices.txt; grep -hE '^(--- FAIL|ok|FAIL|PASS)' $R/tests.log; grep -c '^--- PASS' $R/tests.log; grep GB/s $R/cli.log
cd $OUT && tar czf r7.tgz r7 && rm -rf r7
