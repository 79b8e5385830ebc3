#!/bin/bash
# The PageBuffer path end to end with 20 batches per figure (5 in the final
# runs, where single stalled batches moved some means), and the pinned H2D
# copy it is measured against. Binaries: make gpu-binaries (build/gpu).
O=$OUT/e2e20; mkdir -p $O
source scripts/gpu-goroot.sh
setup_goroot
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/device.txt
for round in 1 2; do
  echo "=== round $round $(date -u +%T)" >> $O/bench.txt
  timeout 200 build/gpu/lz4warp.test -test.run '^$' -test.bench 'PinnedH2D/64MiB$|EndToEnd/gpubuf/' -test.benchtime 20x -batches=1000,10000,30000,100000 >> $O/bench.txt 2>&1
done
