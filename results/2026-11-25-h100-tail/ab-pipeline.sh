#!/bin/bash
# BenchmarkPipeline of two test binaries, build/tail/a and build/tail/b
# (go test -c -tags cuda ./gpuimpl), in turns, three rounds of 50 batches,
# into $OUT/$NAME. NAME=ab-assemble: b assembled a HostPages chunk's views on
# one goroutine per 4,096 pages instead of per 256. NAME=ab-endpoll: b polled
# the batch's end event instead of waiting on it with cuEventSynchronize.
O=$OUT/${NAME:?}; mkdir -p $O
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
