#!/bin/bash
# BenchmarkPipeline with the outputs of HostPages chunks assembled on up to
# one goroutine per 256 pages (a: as before) and per 4,096 pages (b), in
# turns, three rounds. Binaries: build/tail/{a,b}/gpuimpl.test; b had
# assemble's goroutines take 16 pieces of views each (not kept: no change).
O=$OUT/ab-assemble; mkdir -p $O
g=/tmp/lz4warp-goroot
mkdir -p "$g/src" "$g/doc" "$g/bin" "$g/pkg/tool"
find /usr/local/cuda/include /usr/include -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cuh' \) 2>/dev/null | sort | while read -r f; do cp "$f" "$g/src/$(echo "${f#/}" | tr / _).txt"; done
find -L /usr/local/cuda/bin -maxdepth 1 -type f -perm -u+x 2>/dev/null | sort | while read -r f; do cp "$f" "$g/bin/"; done
export GOROOT=$g
bin=$PWD/build/tail
cd gpuimpl
for round in 1 2 3; do
  for v in a b; do
    echo "=== $v round $round $(date -u +%T)" >> $O/bench.txt
    timeout 150 $bin/$v/gpuimpl.test -test.run '^$' -test.bench "Pipeline/gpu/(mixed|text|binaries)/(1000|3000|10000|30000)\$" -test.benchtime 50x -test.v >> $O/bench.txt 2>&1
  done
done
