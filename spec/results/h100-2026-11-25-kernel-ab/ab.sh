#!/bin/bash
# A/B of kernel variants on the device: correctness of the newest, then
# GPUKernel kernel time for each variant in turns.
O=$OUT/ab; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/device.txt
cd build/ab
g=/tmp/lz4warp-goroot
mkdir -p "$g/src" "$g/doc" "$g/bin" "$g/pkg/tool"
find /usr/local/cuda/include /usr/include -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cuh' \) 2>/dev/null | sort | while read -r f; do cp "$f" "$g/src/$(echo "${f#/}" | tr / _).txt"; done
find -L /usr/local/cuda/bin -maxdepth 1 -type f -perm -u+x 2>/dev/null | sort | while read -r f; do cp "$f" "$g/bin/"; done
export GOROOT=$g
date -u > $O/start.txt
[ -n "$GPUIMPL" ] && timeout 150 ./$GPUIMPL/gpuimpl.test -test.v -test.count=1 -test.run "TestEngine|TestConformance" > $O/gpuimpl.log 2>&1; echo "rc $?" >> $O/gpuimpl.log
tail -3 $O/gpuimpl.log
for round in 1 2; do
  for v in $VARIANTS; do
    echo "=== $v round $round $(date -u +%T)" >> $O/bench.txt
    timeout 120 ./$v/lz4warp.test -test.run '^$' -test.bench "GPUKernel/gpu/$SETS/" -test.benchtime 5x -batches=1000,10000,100000 >> $O/bench.txt 2>&1
  done
done
date -u >> $O/start.txt
grep -c Benchmark $O/bench.txt
