#!/bin/bash
# The page loaded chunk by chunk while the parse runs (build/gpu, make
# gpu-binaries) against the kernel that loads the whole page first
# (build/ab/old: go test -c -tags cuda at 84b104f): the new kernel's engine
# tests and TestConformance, then in turns, two rounds: PageBuffer batches
# end to end (20 batches; 1,000 to 10,000 pages are direct, RT-14; 30,000
# take the copies) and the kernel alone (10 launches). Usage: run.sh;
# leaves $OUT/chunks.tgz.
R=chunks
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R; mkdir -p $O
date -u > $O/start.txt
source scripts/gpu-goroot.sh
setup_goroot
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/device.txt
(cd gpuimpl && timeout 150 ../build/gpu/gpuimpl.test -test.run 'TestEngineMatchesReference|TestEngineHostPages|TestConformance' -test.v > $O/engine.log 2>&1; echo "engine exit $?" >> $O/start.txt)
grep -h '^conformance:' $O/engine.log
for round in 1 2; do
	for v in old new; do
		bin=build/gpu/lz4warp.test; [[ $v == old ]] && bin=build/ab/old/lz4warp.test
		echo "=== round $round $v $(date -u +%T)" >> $O/e2e.txt
		timeout 150 $bin -test.run '^$' -test.bench 'EndToEnd/gpubuf/' -test.benchtime 20x -batches=1000,3000,10000,30000 >> $O/e2e.txt 2>&1
		echo "=== round $round $v $(date -u +%T)" >> $O/kernel.txt
		timeout 100 $bin -test.run '^$' -test.bench 'GPUKernel/gpu/(mixed|text|binaries)/' -test.benchtime 10x -batches=1000,3000,10000 >> $O/kernel.txt 2>&1
	done
done
timeout 60 build/gpu/lz4warp.test -test.run '^$' -test.bench 'PinnedH2D/64MiB$' -test.benchtime 20x >> $O/e2e.txt 2>&1
date -u >> $O/start.txt
tar czf $OUT/$R.tgz -C $OUT $R
