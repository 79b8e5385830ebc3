#!/bin/bash
# Device run of 2026-11-25 (afternoon): streams of CompressBufferAsync
# batches (API-19) of 1,000 and 3,000 pages with 4 and 8 on their way, the
# GPU Compressor opened with 8 ring slots (LZ4WARP_BENCH_SLOTS=8), two
# rounds, with the pinned copy (build/gpu, make gpu-binaries).
# Usage: COMMIT=<c> run.sh; leaves $OUT/async8.tgz.
R=async8
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R; mkdir -p $O
echo "commit $COMMIT" > $O/start.txt
date -u >> $O/start.txt
source scripts/gpu-goroot.sh
setup_goroot
for round in 1 2; do
	echo "=== round $round $(date -u +%T)" >> $O/e2e.txt
	LZ4WARP_BENCH_SLOTS=8 timeout 200 build/gpu/lz4warp.test -test.run '^$' -test.bench 'PinnedH2D/64MiB$|EndToEndAsync/gpuasync[48]/' -test.benchtime 40x -batches=1000,3000 >> $O/e2e.txt 2>&1
done
date -u >> $O/start.txt
grep -c '^Benchmark' $O/e2e.txt
tar czf $OUT/$R.tgz -C $OUT $R
