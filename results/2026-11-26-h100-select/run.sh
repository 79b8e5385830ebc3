#!/bin/bash
# Device run of 2026-11-26: the select loop with one shuffle a sequence (v1)
# against main (base). Binaries: go test -c -tags cuda -ldflags='-s -w' of
# . and ./gpuimpl into build/ab/{base,v1}. Parts: the executor's per-page
# warp instructions on the device's data sets (BenchmarkKernelInstructions),
# v1's TestConformance and engine tests, the kernel alone in turns (three
# rounds), and an ncu profile of base on 1,000 mixed pages. Leaves
# $OUT/select.tgz.
R=select
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R; mkdir -p $O
date -u > $O/start.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $O/start.txt 2>&1
source scripts/gpu-goroot.sh
setup_goroot >> $O/start.txt
for v in base v1; do
	(cd gpuimpl && timeout 120 ../build/ab/$v/gpuimpl.test -test.run '^$' -test.bench KernelInstructions -test.benchtime 1x > $O/instr-$v.txt 2>&1)
done
(cd gpuimpl && timeout 200 ../build/ab/v1/gpuimpl.test -test.count=1 -test.run '^(TestConformance|TestEngine.*)$' -test.v > $O/gpuimpl-v1.log 2>&1; echo "rc $?" >> $O/gpuimpl-v1.log)
date -u >> $O/start.txt
for round in 1 2 3; do
	for v in base v1; do
		echo "=== round $round $v $(date -u +%T)" >> $O/ab-kernel.txt
		timeout 100 build/ab/$v/lz4warp.test -test.run '^$' -test.bench 'GPUKernel/gpu/(mixed|text|binaries)/' -test.benchtime 10x -batches=1000,3000,10000 >> $O/ab-kernel.txt 2>&1
	done
done
date -u >> $O/start.txt
export PATH=$PATH:/usr/local/cuda/bin
timeout 150 ncu --set full --import-source no --kernel-name lz4warp_pages --launch-skip 2 --launch-count 1 --clock-control none -f -o $O/mixed build/ab/base/lz4warp.test -test.run '^$' -test.bench 'GPUKernel/gpu/mixed/1000$' -test.benchtime 3x -batches=1000 > $O/ncu-run.log 2>&1
ncu --import $O/mixed.ncu-rep --page details > $O/mixed-details.txt 2>&1
ncu --import $O/mixed.ncu-rep --page source --print-source sass --csv > $O/mixed-sass.csv 2>&1
rm -f $O/mixed.ncu-rep
date -u >> $O/start.txt
tail -2 $O/gpuimpl-v1.log; grep -c '^Benchmark' $O/ab-kernel.txt; grep max-warp $O/instr-*.txt
tar czf $OUT/$R.tgz -C $OUT $R
