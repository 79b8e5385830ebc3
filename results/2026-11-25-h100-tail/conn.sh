#!/bin/bash
# BenchmarkPipeline at the default chunking, with the driver's default
# number of hardware work queues and with CUDA_DEVICE_MAX_CONNECTIONS=32,
# in turns, two rounds; wall-time percentiles show outlier batches.
O=$OUT/conn; mkdir -p $O
source scripts/gpu-goroot.sh
setup_goroot
bin=$PWD/build/tail
cd gpuimpl
date -u > $O/start.txt
for round in 1 2; do
  for conn in default 32; do
    echo "=== connections $conn round $round $(date -u +%T)" >> $O/bench.txt
    ( [ $conn != default ] && export CUDA_DEVICE_MAX_CONNECTIONS=$conn
      timeout 150 $bin/gpuimpl.test -test.run '^$' -test.bench "Pipeline/gpu/(mixed|text)/(1000|10000|30000)\$" -test.benchtime 20x -test.v >> $O/bench.txt 2>&1 )
  done
done
date -u >> $O/start.txt
