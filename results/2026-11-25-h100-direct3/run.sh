#!/bin/bash
# RT-14 as one launch per batch, against the direct batches of commit
# ba4a540 (chunks of BatchPages, all queued at once): the engine tests, the
# kernel alone before GPU-1's hostDst (commit 34d8c80, build/ab/k0) and
# with it, BenchmarkPipeline with every batch direct for both (build/ab/d0
# is ba4a540's gpuimpl test binary), in turns, two rounds, and the
# PageBuffer path end to end. Binaries: make gpu-binaries (build/gpu) and
# the two old test binaries (go test -c -tags cuda at those commits).
# Usage: COMMIT=<c> run.sh; leaves $OUT/direct3.tgz.
R=direct3
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R; mkdir -p $O
echo "commit $COMMIT" > $O/start.txt; date -u >> $O/start.txt
source scripts/gpu-goroot.sh
setup_goroot
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/device.txt
(cd gpuimpl && timeout 120 ../build/gpu/gpuimpl.test -test.run 'TestEngine' -test.v > $O/engine.log 2>&1; echo "engine exit $?" >> $O/start.txt)
for round in 1 2; do
	for v in k0 new; do
		bin=build/gpu/lz4warp.test; [[ $v == k0 ]] && bin=build/ab/k0/lz4warp.test
		timeout 100 $bin -test.run '^$' -test.bench 'GPUKernel/gpu/(mixed|text)/' -test.benchtime 10x -batches=1000,3000,10000 > $O/kernel-$round-$v.txt 2>&1
	done
	for v in d0 new; do
		bin=../build/gpu/gpuimpl.test; [[ $v == d0 ]] && bin=../build/ab/d0/gpuimpl.test
		(cd gpuimpl && timeout 100 $bin -test.run '^$' -test.bench Pipeline -test.benchtime 20x -directpages=1000000 -test.v > $O/pipeline-$round-$v.txt 2>&1)
	done
done
date -u >> $O/start.txt
for round in 1 2; do
	echo "=== round $round $(date -u +%T)" >> $O/e2e.txt
	timeout 200 build/gpu/lz4warp.test -test.run '^$' -test.bench 'PinnedH2D/64MiB$|EndToEnd/gpubuf/' -test.benchtime 20x -batches=1000,3000,10000,30000 >> $O/e2e.txt 2>&1
done
date -u >> $O/start.txt
tar czf $OUT/$R.tgz -C $OUT $R
rm -rf $O
