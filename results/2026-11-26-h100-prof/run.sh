#!/bin/bash
# ncu profile of one launch of the page kernel on 1,000 pages of each set in
# $SETS (default mixed), binaries of make gpu-binaries. Leaves $OUT/prof.
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/prof; mkdir -p $O
source scripts/gpu-goroot.sh
setup_goroot > /dev/null
export PATH=$PATH:/usr/local/cuda/bin
for set in ${SETS:-mixed}; do
	timeout 150 ncu --set full --import-source no --kernel-name lz4warp_pages --launch-skip 2 --launch-count 1 --clock-control none -f -o $O/$set build/gpu/lz4warp.test -test.run '^$' -test.bench "GPUKernel/gpu/$set/1000\$" -test.benchtime 3x -batches=1000 > $O/$set-run.log 2>&1
	ncu --import $O/$set.ncu-rep --page details > $O/$set-details.txt 2>&1
	ncu --import $O/$set.ncu-rep --page source --print-source sass --csv > $O/$set-sass.csv 2>&1
	rm -f $O/$set.ncu-rep
done
grep -h "Duration" $O/*-details.txt
