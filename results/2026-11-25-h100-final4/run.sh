#!/bin/bash
# The fourth device run of 2026-11-25: the suite and the benchmarks of the
# kernel as merged last (the shorter length chain, GPU-7), the PageBuffer
# path with 20 batches a figure, and an ncu profile of one kernel launch on
# 1,000 pages of text and of mixed pages. Binaries: make gpu-binaries
# (build/gpu). Usage: COMMIT=<commit> run.sh; leaves $OUT/final4.tgz.
R=final4
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R
RUN=$R results/2026-11-25-h100-final2/final.sh suite
RUN=$R results/2026-11-25-h100-final2/final.sh bench
OUT=$O bash results/2026-11-25-h100-final3/e2e20.sh
source scripts/gpu-goroot.sh
setup_goroot
P=$O/prof; mkdir -p $P
for set in text mixed; do
	timeout 150 /usr/local/cuda/bin/ncu --set full --import-source no --kernel-name lz4warp_pages --launch-skip 2 --launch-count 1 --clock-control none -f -o $P/$set build/gpu/lz4warp.test -test.run '^$' -test.bench "GPUKernel/gpu/$set/1000\$" -test.benchtime 3x -batches=1000 > $P/$set-run.log 2>&1
	/usr/local/cuda/bin/ncu --import $P/$set.ncu-rep --page details > $P/$set-details.txt 2>&1
	/usr/local/cuda/bin/ncu --import $P/$set.ncu-rep --page source --print-source sass --csv > $P/$set-sass.csv 2>&1
	rm -f $P/$set.ncu-rep
done
date -u >> $O/start.txt
tar czf $OUT/$R.tgz -C $OUT $R
rm -rf $O
