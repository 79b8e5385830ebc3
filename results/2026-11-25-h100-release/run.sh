#!/bin/bash
# The meta word of a direct batch's page as a release store at system scope
# (st.release.sys) instead of membar.sys and a store (build/gpu, make
# gpu-binaries): the suite (final2/final.sh), then in turns with the
# kernels before it (build/ab/membar: go test -c -tags cuda -ldflags="-s -w"
# at 375066c), two rounds, PageBuffer batches of 1,000 to 10,000 pages (all
# direct), 20 a figure. Usage: COMMIT=<c> run.sh; leaves $OUT/release.tgz.
R=release
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R
RUN=$R results/2026-11-25-h100-final2/final.sh suite
source scripts/gpu-goroot.sh
setup_goroot
for round in 1 2; do
	for v in membar new; do
		bin=build/ab/$v/lz4warp.test; [[ $v == new ]] && bin=build/gpu/lz4warp.test
		echo "=== round $round $v $(date -u +%T)" >> $O/ab-e2e.txt
		timeout 150 $bin -test.run '^$' -test.bench 'PinnedH2D/64MiB$|EndToEnd/gpubuf/' -test.benchtime 20x -batches=1000,3000,10000 >> $O/ab-e2e.txt 2>&1
	done
done
date -u >> $O/start.txt
tar czf $OUT/$R.tgz -C $OUT $R
rm -rf $O
