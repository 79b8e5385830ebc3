#!/bin/bash
# RT-14, HostPages chunks read and written through the mapping: the suite,
# BenchmarkPipeline with -readshost=true and false in turns (20 batches,
# two rounds), and the PageBuffer path end to end (final3/e2e20.sh).
# Binaries: make gpu-binaries (build/gpu). Usage: COMMIT=<c> run.sh;
# leaves $OUT/direct.tgz.
R=direct
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R; mkdir -p $O
echo "commit $COMMIT" > $O/start.txt; date -u >> $O/start.txt
OUT=$O RAPID_CHECKS=30 timeout 300 bash build/gpu/run.sh devices cudart engine faults conformance sanitizer features falsification cli > $O/suite.log 2>&1
sed -n '/=== summary/,$p' $O/suite.log
date -u >> $O/start.txt
source scripts/gpu-goroot.sh
setup_goroot
for round in 1 2; do
	for rh in true false; do
		(cd gpuimpl && timeout 100 ../build/gpu/gpuimpl.test -test.run '^$' -test.bench Pipeline -test.benchtime 20x -readshost=$rh -test.v > $O/pipeline-$round-$rh.txt 2>&1)
	done
done
date -u >> $O/start.txt
OUT=$O bash results/2026-11-25-h100-final3/e2e20.sh
date -u >> $O/start.txt
tar czf $OUT/$R.tgz -C $OUT $R
rm -rf $O
