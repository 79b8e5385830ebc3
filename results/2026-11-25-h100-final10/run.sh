#!/bin/bash
# The tenth device run of 2026-11-25: the suite (final2/final.sh) on the
# page kernel without the stream variant's unreachable code (the stream
# variant's text unchanged but for labels), then the PageBuffer path, 20
# batches a figure, one round. Binaries: make gpu-binaries (build/gpu).
# Usage: COMMIT=<c> run.sh; leaves $OUT/final10.tgz.
R=final10
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R
RUN=$R results/2026-11-25-h100-final2/final.sh suite
source scripts/gpu-goroot.sh
setup_goroot
timeout 150 build/gpu/lz4warp.test -test.run '^$' -test.bench 'PinnedH2D/64MiB$|EndToEnd/gpubuf/' -test.benchtime 20x -batches=1000,3000,10000,30000,100000 >> $O/e2e20.txt 2>&1
date -u >> $O/start.txt
tar czf $OUT/$R.tgz -C $OUT $R
rm -rf $O
