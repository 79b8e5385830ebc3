#!/usr/bin/env bash
# The sixth device call: the root package's Writer and background-opening
# tests after their fix (run5's TestWriterGPUOpensInBackground failed on
# its own expectation: CPU batches took the whole stream while the GPU's
# were made), the root package's GPU tests of the fast encoder's callers
# (faults), and internal/fastlz4's tests on the device host's CPU after the
# encoder's assembly changed (merge of enc3). Carries build/cli.
set -o pipefail
cd "$(dirname "$0")/../.."
export LZ4WARP_REQUIRE_GPU=1
B=build/cli
source $B/goroot.sh; setup_goroot >/dev/null
R=$OUT/r6; mkdir -p $R
T="taskset -c 0-15"
{ date -u; nproc; nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; } > $R/devices.txt
timeout 150 $T $B/lz4warp.test -test.v -test.count=1 -test.run 'TestWriter|OpenInBackground|TestCompressor|TestCompressBuffer|Example' > $R/tests.log 2>&1; echo "root rc $?"
(cd internal/fastlz4 && timeout 120 $T ../../$B/fastlz4.test -test.count=1) > $R/fastlz4.log 2>&1; echo "fastlz4 rc $?"
cat $R/devices.txt; grep -hE '^(--- FAIL|ok|FAIL|PASS)' $R/tests.log $R/fastlz4.log; grep -c '^--- PASS' $R/tests.log
cd $OUT && tar czf r6.tgz r6 && rm -rf r6
