#!/bin/bash
# The eighth device run of 2026-11-25: the suite (final2/final.sh) with a
# page in device memory loaded at once and a direct batch's pages chunk by
# chunk (build/gpu, make gpu-binaries); then in turns, two rounds, the
# kernel alone and PageBuffer batches: old = 84b104f (every page loaded at
# once), c1 = 742b192 (every page chunk by chunk), new = build/gpu.
# Binaries of old and c1: go test -c -tags cuda -ldflags="-s -w" into
# build/ab/<v>. Usage: COMMIT=<c> run.sh; leaves $OUT/final8.tgz.
R=final8
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R
RUN=$R results/2026-11-25-h100-final2/final.sh suite
source scripts/gpu-goroot.sh
setup_goroot
for round in 1 2; do
	for v in old c1 new; do
		bin=build/ab/$v/lz4warp.test; [[ $v == new ]] && bin=build/gpu/lz4warp.test
		echo "=== round $round $v $(date -u +%T)" >> $O/ab-kernel.txt
		timeout 100 $bin -test.run '^$' -test.bench 'GPUKernel/gpu/(mixed|text)/' -test.benchtime 10x -batches=1000,3000,10000,100000 >> $O/ab-kernel.txt 2>&1
		echo "=== round $round $v $(date -u +%T)" >> $O/ab-e2e.txt
		timeout 150 $bin -test.run '^$' -test.bench 'PinnedH2D/64MiB$|EndToEnd/gpubuf/' -test.benchtime 20x -batches=1000,3000,10000,30000,100000 >> $O/ab-e2e.txt 2>&1
	done
done
date -u >> $O/start.txt
tar czf $OUT/$R.tgz -C $OUT $R
rm -rf $O
