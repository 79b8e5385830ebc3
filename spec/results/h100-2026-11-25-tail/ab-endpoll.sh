#!/bin/bash
# BenchmarkPipeline with the end of a batch awaited by cuEventSynchronize (a)
# and by polling its event (b), in
# turns, three rounds. Binaries: build/tail/{a,b}/gpuimpl.test.
O=$OUT/ab-endpoll; mkdir -p $O
source scripts/gpu-goroot.sh
setup_goroot
bin=$PWD/build/tail
cd gpuimpl
for round in 1 2 3; do
  for v in a b; do
    echo "=== $v round $round $(date -u +%T)" >> $O/bench.txt
    timeout 150 $bin/$v/gpuimpl.test -test.run '^$' -test.bench "Pipeline/gpu/(mixed|text|binaries)/(1000|3000|10000|30000)\$" -test.benchtime 50x -test.v >> $O/bench.txt 2>&1
  done
done
