#!/bin/bash
# Device run of 2026-11-26 at the session's kernel (sets by five ballots):
# the suite (h100-2026-11-25-final2/final.sh), then two rounds of the pinned
# copy, PageBuffer batches one at a time (EndToEnd/gpubuf) and streams of
# them with 2, 4 and 8 on their way (EndToEndAsync) at 1,000 to 10,000
# pages, and one round of 1,000-page streams with 16 ring slots (8 and 16 on
# their way). Binaries: make gpu-binaries (build/gpu).
# Usage: COMMIT=<c> run.sh; leaves $OUT/final.tgz.
R=final
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
echo "=== slots16 $(date -u +%T)" >> $O/e2e.txt
LZ4WARP_BENCH_SLOTS=16 LZ4WARP_BENCH_INFLIGHT=8,16 timeout 200 build/gpu/lz4warp.test -test.run '^$' -test.bench 'PinnedH2D/64MiB$|EndToEndAsync/' -test.benchtime 40x -batches=1000 >> $O/e2e.txt 2>&1
date -u >> $O/start.txt
grep -c '^Benchmark' $O/e2e.txt
tar czf $OUT/$R.tgz -C $OUT $R
