#!/bin/bash
# The stream variant (GPU-9) alone on mapped pages against the page kernel
# (BenchmarkZeroCopyKernel, 10 launches), then BenchmarkPipeline with every
# batch direct (-directpages=1000000) and none (-directpages=0) in turns,
# 20 batches, two rounds: does the stream variant move the threshold of
# RT-14? Binaries: make gpu-binaries (build/gpu). Usage: run.sh; leaves
# $OUT/stream.tgz.
R=stream
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R; mkdir -p $O
date -u > $O/start.txt
source scripts/gpu-goroot.sh
setup_goroot
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/device.txt
(cd gpuimpl && timeout 200 ../build/gpu/gpuimpl.test -test.run '^$' -test.bench ZeroCopyKernel -test.benchtime 10x > $O/zerocopy.txt 2>&1)
for round in 1 2; do
	for d in 1000000 0; do
		(cd gpuimpl && timeout 100 ../build/gpu/gpuimpl.test -test.run '^$' -test.bench Pipeline -test.benchtime 20x -directpages=$d > $O/pipeline-$round-$d.txt 2>&1)
	done
done
date -u >> $O/start.txt
tar czf $OUT/$R.tgz -C $OUT $R
