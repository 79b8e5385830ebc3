#!/bin/bash
# A/B of host-side pipeline variants: EndToEnd gpubuf and the Pipeline timelines.
O=$OUT/ab2; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/device.txt
source scripts/gpu-goroot.sh
setup_goroot
cd build/ab
date -u > $O/start.txt
(cd $GPUIMPL && timeout 100 ./gpuimpl.test -test.v -test.count=1 -test.run "TestEngine" > $O/gpuimpl.log 2>&1; echo "rc $?" >> $O/gpuimpl.log)
grep -E "^(--- FAIL|ok|PASS|FAIL)" $O/gpuimpl.log | head
for round in 1 2; do
  for v in $VARIANTS; do
    echo "=== $v round $round $(date -u +%T)" >> $O/e2e.txt
    timeout 100 ./$v/lz4warp.test -test.run '^$' -test.bench "EndToEnd/gpubuf/$SETS/" -test.benchtime 20x -batches=$BATCHES >> $O/e2e.txt 2>&1
    echo "=== $v round $round $(date -u +%T)" >> $O/pipeline.txt
    timeout 100 ./$v/gpuimpl.test -test.run '^$' -test.bench "Pipeline" -test.benchtime 20x -test.v >> $O/pipeline.txt 2>&1
  done
done
date -u >> $O/start.txt
grep -c Benchmark $O/e2e.txt
