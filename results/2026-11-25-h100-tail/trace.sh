#!/bin/bash
# BenchmarkPipeline with the host's steps of the last batch logged (onHost),
# to see where the host time of a batch goes. Binary: build/trace/gpuimpl.test.
O=$OUT/trace; mkdir -p $O
source scripts/gpu-goroot.sh
setup_goroot
bin=$PWD/build/trace
cd gpuimpl
for round in 1 2; do
  echo "=== round $round $(date -u +%T)" >> $O/bench.txt
  timeout 120 $bin/gpuimpl.test -test.run '^$' -test.bench "Pipeline/gpu/(mixed|text)/(1000|10000)\$" -test.benchtime 20x -test.v >> $O/bench.txt 2>&1
done
