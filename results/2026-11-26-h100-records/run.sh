#!/bin/bash
# Device run of 2026-11-26 at the kernel with records (writeBlock): the suite
# and three rounds of the kernel alone (h100-2026-11-26-last/run.sh), then
# one round of the pinned copy, PageBuffer batches one at a time and streams
# of them (EndToEnd/gpubuf, EndToEndAsync) at 1,000 to 10,000 pages.
# Binaries: make gpu-binaries (build/gpu). Usage: COMMIT=<c> run.sh; leaves
# $OUT/$R.tgz (R defaults to records).
R=${R:-records}
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R
R=$R results/2026-11-26-h100-last/run.sh
source scripts/gpu-goroot.sh
setup_goroot > /dev/null
echo "=== e2e $(date -u +%T)" >> $O/e2e.txt
timeout 200 build/gpu/lz4warp.test -test.run '^$' -test.bench 'PinnedH2D/64MiB$|EndToEnd/gpubuf/|EndToEndAsync/' -test.benchtime 20x -batches=1000,3000,10000 >> $O/e2e.txt 2>&1
date -u >> $O/start.txt
grep -c '^Benchmark' $O/e2e.txt
tar czf $OUT/$R.tgz -C $OUT $R
