#!/bin/bash
# The seventh device run of 2026-11-25: the suite and the benchmarks
# (final2/final.sh) and the PageBuffer path, 20 batches a figure, two
# rounds, with the chunked page load (build/gpu, make gpu-binaries); then
# in turns, two rounds, PageBuffer batches of 1,000 to 10,000 pages and the
# kernel alone: old = 84b104f (whole page first), v1 = the first chunked
# version (chunks/variants.sh), new = build/gpu (limits per group and step
# instead of a reach, cursor-base from m+length). Binaries of old and v1:
# go test -c -tags cuda -ldflags="-s -w" into build/ab/<v>. Usage:
# COMMIT=<c> run.sh; leaves $OUT/final7.tgz.
R=final7
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
for round in 1 2; do
	for v in old v1 new; do
		bin=build/ab/$v/lz4warp.test; [[ $v == new ]] && bin=build/gpu/lz4warp.test
		echo "=== round $round $v $(date -u +%T)" >> $O/ab-e2e.txt
		timeout 150 $bin -test.run '^$' -test.bench 'EndToEnd/gpubuf/' -test.benchtime 20x -batches=1000,3000,10000 >> $O/ab-e2e.txt 2>&1
		echo "=== round $round $v $(date -u +%T)" >> $O/ab-kernel.txt
		timeout 100 $bin -test.run '^$' -test.bench 'GPUKernel/gpu/(mixed|text)/' -test.benchtime 10x -batches=1000,3000,10000 >> $O/ab-kernel.txt 2>&1
	done
done
date -u >> $O/start.txt
tar czf $OUT/$R.tgz -C $OUT $R
rm -rf $O
