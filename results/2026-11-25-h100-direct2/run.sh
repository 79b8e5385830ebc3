#!/bin/bash
# RT-14 with directPages (16,384): the engine tests, BenchmarkPipeline with
# every batch direct (-directpages=1000000) and none (-directpages=0) in
# turns, 20 batches, two rounds, and the PageBuffer path end to end with
# the default, 20 batches a figure, two rounds. Binaries: make
# gpu-binaries (build/gpu). Usage: COMMIT=<c> run.sh; leaves
# $OUT/direct2.tgz.
R=direct2
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R; mkdir -p $O
echo "commit $COMMIT" > $O/start.txt; date -u >> $O/start.txt
source scripts/gpu-goroot.sh
setup_goroot
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/device.txt
(cd gpuimpl && timeout 120 ../build/gpu/gpuimpl.test -test.run 'TestEngine' -test.v > $O/engine.log 2>&1; echo "engine exit $?" >> $O/start.txt)
for round in 1 2; do
	for d in 1000000 0; do
		(cd gpuimpl && timeout 100 ../build/gpu/gpuimpl.test -test.run '^$' -test.bench Pipeline -test.benchtime 20x -directpages=$d -test.v > $O/pipeline-$round-$d.txt 2>&1)
	done
done
date -u >> $O/start.txt
for round in 1 2; do
	echo "=== round $round $(date -u +%T)" >> $O/e2e.txt
	timeout 200 build/gpu/lz4warp.test -test.run '^$' -test.bench 'PinnedH2D/64MiB$|EndToEnd/gpubuf/' -test.benchtime 20x -batches=1000,3000,10000,30000,100000 >> $O/e2e.txt 2>&1
done
date -u >> $O/start.txt
tar czf $OUT/$R.tgz -C $OUT $R
rm -rf $O
