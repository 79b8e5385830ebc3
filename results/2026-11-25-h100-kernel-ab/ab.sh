#!/bin/bash
# A/B of kernel variants on the device (its earlier form ran one $GPUIMPL and
# logged gpuimpl.log), with the data sets'
# GOROOT stand-in from scripts/gpu-goroot.sh: the engine tests and
# TestConformance of each of $GPUIMPL, then GPUKernel's kernel time for each of
# $VARIANTS (build/ab/<v>/lz4warp.test) in turns, $ROUNDS rounds.
O=$OUT/ab; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/device.txt
source scripts/gpu-goroot.sh
setup_goroot
cd build/ab
date -u > $O/start.txt
for v in $GPUIMPL; do
  timeout 150 ./$v/gpuimpl.test -test.v -test.count=1 -test.run "TestEngine|TestConformance" > $O/gpuimpl-$v.log 2>&1; echo "rc $?" >> $O/gpuimpl-$v.log
  echo "$v: $(grep -h '^conformance:' $O/gpuimpl-$v.log | tail -1) $(tail -1 $O/gpuimpl-$v.log)"
done
for round in $(seq ${ROUNDS:-2}); do
  for v in $VARIANTS; do
    echo "=== $v round $round $(date -u +%T)" >> $O/bench.txt
    timeout 120 ./$v/lz4warp.test -test.run '^$' -test.bench "GPUKernel/gpu/${SETS:-.*}/" -test.benchtime 5x -batches=${BATCHES:-1000,10000,100000} >> $O/bench.txt 2>&1
  done
done
date -u >> $O/start.txt
grep -c Benchmark $O/bench.txt
