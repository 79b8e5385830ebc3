#!/bin/bash
# The fifth device run of 2026-11-25: the suite and the benchmarks of
# final2/final.sh with direct PageBuffer batches (RT-14), then the
# PageBuffer path with 20 batches a figure (1,000 to 100,000 pages, two
# rounds). Binaries: make gpu-binaries (build/gpu). Usage:
# COMMIT=<commit> run.sh; leaves $OUT/final5.tgz.
R=final5
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R
RUN=$R results/2026-11-25-h100-final2/final.sh suite
RUN=$R results/2026-11-25-h100-final2/final.sh bench
source scripts/gpu-goroot.sh
setup_goroot
for round in 1 2; do
	echo "=== round $round $(date -u +%T)" >> $O/e2e20.txt
	timeout 200 build/gpu/lz4warp.test -test.run '^$' -test.bench 'PinnedH2D/64MiB$|EndToEnd/gpubuf/' -test.benchtime 20x -batches=1000,3000,10000,30000,100000 >> $O/e2e20.txt 2>&1
done
date -u >> $O/start.txt
tar czf $OUT/$R.tgz -C $OUT $R
rm -rf $O
