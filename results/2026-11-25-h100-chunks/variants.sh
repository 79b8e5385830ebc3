#!/bin/bash
# Variants of the chunked page load, in turns with the kernel that loads the
# whole page first (build/ab/old, 84b104f), two rounds: v1 = the first chunk
# alone before the table is cleared, 3 chunks on their way; v3 = the first
# three chunks at once; v4 = the first alone, 4 on their way. Binaries: go
# test -c -tags cuda -ldflags="-s -w" into build/ab/<v>, gpuimpl.test of v1
# too. Usage: variants.sh; leaves $OUT/variants.tgz.
R=variants
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R; mkdir -p $O
date -u > $O/start.txt
source scripts/gpu-goroot.sh
setup_goroot
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/device.txt
(cd gpuimpl && timeout 150 ../build/ab/v1/gpuimpl.test -test.run 'TestEngineHostPages|TestConformance' -test.v > $O/engine.log 2>&1; echo "engine exit $?" >> $O/start.txt)
grep -h '^conformance:' $O/engine.log
for round in 1 2; do
	for v in old v1 v3 v4; do
		bin=build/ab/$v/lz4warp.test
		echo "=== round $round $v $(date -u +%T)" >> $O/e2e.txt
		timeout 150 $bin -test.run '^$' -test.bench 'EndToEnd/gpubuf/' -test.benchtime 20x -batches=1000,3000,10000 >> $O/e2e.txt 2>&1
		echo "=== round $round $v $(date -u +%T)" >> $O/kernel.txt
		timeout 100 $bin -test.run '^$' -test.bench 'GPUKernel/gpu/(mixed|text)/' -test.benchtime 10x -batches=1000,3000,10000 >> $O/kernel.txt 2>&1
	done
done
date -u >> $O/start.txt
tar czf $OUT/$R.tgz -C $OUT $R
