#!/bin/bash
# BenchmarkEndToEnd/gpubuf (the public PageBuffer path) for main (a) and for
# the engine recording a batch's end event as soon as the last D2H copy is
# queued, with a chunk's output views assembled on one goroutine per 4,096
# pages (b), in turns, three rounds of 20 batches.
# Binaries: build/hostab/{a,b}/lz4warp.test.
O=$OUT/ab-host; mkdir -p $O
source scripts/gpu-goroot.sh
setup_goroot
bin=$PWD/build/hostab
for round in 1 2 3; do
  for v in a b; do
    echo "=== $v round $round $(date -u +%T)" >> $O/bench.txt
    timeout 120 $bin/$v/lz4warp.test -test.run '^$' -test.bench "EndToEnd/gpubuf/(mixed|text|binaries)/" -test.benchtime 20x -batches=1000,10000,30000 >> $O/bench.txt 2>&1
  done
done
