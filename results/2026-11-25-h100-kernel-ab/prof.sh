#!/bin/bash
# ncu profile of one page-kernel launch on 1,000 pages of a data set.
O=$OUT/prof; mkdir -p $O
source scripts/gpu-goroot.sh
setup_goroot
cd build/ab
export PATH=$PATH:/usr/local/cuda/bin
which ncu > $O/which.txt 2>&1; ncu --version >> $O/which.txt 2>&1
for set in $SETS; do
  timeout 200 ncu --set full --import-source no --kernel-name lz4warp_pages --launch-skip 2 --launch-count 1 --clock-control none -f -o $O/$set ./v7/lz4warp.test -test.run '^$' -test.bench "GPUKernel/gpu/$set/1000\$" -test.benchtime 3x -batches=1000 > $O/$set-run.log 2>&1
  ncu --import $O/$set.ncu-rep --page details > $O/$set-details.txt 2>&1
  ncu --import $O/$set.ncu-rep --page source --print-source sass --csv > $O/$set-sass.csv 2>&1
  ls -la $O
done
