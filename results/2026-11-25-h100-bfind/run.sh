#!/bin/bash
# The select loop with reversed matching lanes and bfind.shiftamt (commit
# a6a96d1, build/gpu) against the kernel before it (4c6dddf, build/ab/k1:
# go test -c -tags cuda at that commit): the engine tests and
# TestConformance of the new one, then the kernel alone on mixed and text
# pages, three rounds in turns. Usage: run.sh; output in $OUT.
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
source scripts/gpu-goroot.sh
setup_goroot
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
(cd gpuimpl && timeout 120 ../build/gpu/gpuimpl.test -test.run 'TestEngineMatchesReference|TestEngineHostPages|TestConformance' -test.v > $OUT/engine.log 2>&1; echo "engine exit $?" >> $OUT/device.txt)
grep -h '^conformance:' $OUT/engine.log
for round in 1 2 3; do
	for v in k1 new; do
		bin=build/gpu/lz4warp.test; [[ $v == k1 ]] && bin=build/ab/k1/lz4warp.test
		timeout 100 $bin -test.run '^$' -test.bench 'GPUKernel/gpu/(mixed|text|binaries)/' -test.benchtime 10x -batches=1000,3000,10000 > $OUT/kernel-$round-$v.txt 2>&1
	done
done
