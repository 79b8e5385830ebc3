#!/bin/bash
# Device run of 2026-11-25 (afternoon): streams of CompressBufferAsync
# batches (API-19) of 1,000 pages with 8 and 16 on their way, the GPU
# Compressor opened with 16 ring slots, two rounds, with the pinned copy
# (build/gpu, make gpu-binaries). Usage: COMMIT=<c> run.sh; leaves
# $OUT/async16.tgz.
R=async16
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R; mkdir -p $O
echo "commit $COMMIT" > $O/start.txt
date -u >> $O/start.txt
source scripts/gpu-goroot.sh
setup_goroot
for round in 1 2; do
	echo "=== round $round $(date -u +%T)" >> $O/e2e.txt
	LZ4WARP_BENCH_SLOTS=16 LZ4WARP_BENCH_INFLIGHT=8,16 timeout 200 build/gpu/lz4warp.test -test.run '^$' -test.bench 'PinnedH2D/64MiB$|EndToEndAsync/' -test.benchtime 80x -batches=1000 >> $O/e2e.txt 2>&1
done
date -u >> $O/start.txt
grep -c '^Benchmark' $O/e2e.txt
tar czf $OUT/$R.tgz -C $OUT $R
