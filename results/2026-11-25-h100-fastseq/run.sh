#!/bin/bash
# Device run of 2026-11-25 (afternoon): the suite (final2/final.sh) with the
# group's short sequences written at once (build/gpu, make gpu-binaries);
# then in turns, three rounds, the kernel alone and two rounds of PageBuffer
# batches: base = e969c7a (build/ab/base/lz4warp.test, go test -c -tags cuda
# -ldflags="-s -w"), new = build/gpu. Usage: COMMIT=<c> run.sh; leaves
# $OUT/fastseq.tgz.
R=fastseq
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R
RUN=$R results/2026-11-25-h100-final2/final.sh suite
source scripts/gpu-goroot.sh
setup_goroot
for round in 1 2 3; do
	for v in base new; do
		bin=build/ab/$v/lz4warp.test; [[ $v == new ]] && bin=build/gpu/lz4warp.test
		echo "=== round $round $v $(date -u +%T)" >> $O/ab-kernel.txt
		timeout 100 $bin -test.run '^$' -test.bench 'GPUKernel/gpu/(mixed|text|binaries)/' -test.benchtime 10x -batches=1000,3000,10000 >> $O/ab-kernel.txt 2>&1
		[[ $round == 3 ]] && continue
		echo "=== round $round $v $(date -u +%T)" >> $O/ab-e2e.txt
		timeout 150 $bin -test.run '^$' -test.bench 'PinnedH2D/64MiB$|EndToEnd/gpubuf/(mixed|text|binaries)/' -test.benchtime 20x -batches=1000,3000,10000 >> $O/ab-e2e.txt 2>&1
	done
done
date -u >> $O/start.txt
tar czf $OUT/$R.tgz -C $OUT $R
rm -rf $O
