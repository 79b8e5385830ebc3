#!/bin/bash
# Device run of 2026-11-25 (afternoon): the suite (final2/final.sh) with
# CompressBufferAsync (API-19) and Engine.StartHost (RT-15); then, two
# rounds, the pinned copy, PageBuffer batches one at a time (EndToEnd/
# gpubuf) and streams of them with 2 and 4 on their way (EndToEndAsync),
# all from the same binary (build/gpu, make gpu-binaries).
# Usage: COMMIT=<c> run.sh; leaves $OUT/async.tgz.
R=async
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R
RUN=$R results/2026-11-25-h100-final2/final.sh suite
source scripts/gpu-goroot.sh
setup_goroot
for round in 1 2; do
	echo "=== round $round $(date -u +%T)" >> $O/e2e.txt
	timeout 200 build/gpu/lz4warp.test -test.run '^$' -test.bench 'PinnedH2D/64MiB$|EndToEnd/gpubuf/|EndToEndAsync/' -test.benchtime 20x -batches=1000,3000,10000 >> $O/e2e.txt 2>&1
done
date -u >> $O/start.txt
grep -c '^Benchmark' $O/e2e.txt
tar czf $OUT/$R.tgz -C $OUT $R
rm -rf $O
