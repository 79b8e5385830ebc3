#!/bin/bash
# The smallest chunk of a batch's last pages (tailChunk, RT-6): the engine's
# BenchmarkPipeline with -tailchunk 2048 (the chunking before), 1024, 512
# and 256, in turns, two rounds. Binary: build/tail/gpuimpl.test
# (go test -c -tags cuda ./gpuimpl), run from the gpuimpl folder.
O=$OUT/tail; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/device.txt
source scripts/gpu-goroot.sh
setup_goroot
bin=$PWD/build/tail
cd gpuimpl
date -u > $O/start.txt
for round in 1 2; do
  for tail in ${TAILS:-2048 1024 512 256}; do
    echo "=== tailchunk $tail round $round $(date -u +%T)" >> $O/bench.txt
    timeout 150 $bin/gpuimpl.test -test.run '^$' -test.bench "Pipeline/gpu/${SETS:-.*}/${SIZES:-(1000|3000|10000|30000)}\$" -test.benchtime 20x -tailchunk $tail -test.v >> $O/bench.txt 2>&1
  done
done
date -u >> $O/start.txt
grep -c '^Benchmark.*ns/op' $O/bench.txt
