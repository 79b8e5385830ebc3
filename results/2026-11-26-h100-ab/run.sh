#!/bin/bash
# Device A/B of page-kernel variants, 2026-11-26: the kernel alone, in turns,
# three rounds of 10 launches of each binary. Binaries: go test -c -tags cuda
# -ldflags='-s -w' of . and ./gpuimpl into build/ab/<variant>. Usage:
# R=<name> VARIANTS="base v3" ab.sh; each variant but base also runs its
# TestConformance and engine tests first. Leaves $OUT/$R.tgz.
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
O=$OUT/$R; mkdir -p $O
date -u > $O/start.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $O/start.txt 2>&1
source scripts/gpu-goroot.sh
setup_goroot >> $O/start.txt
for v in $VARIANTS; do
	[[ $v == base ]] && continue
	(cd gpuimpl && timeout 200 ../build/ab/$v/gpuimpl.test -test.count=1 -test.run '^(TestConformance|TestEngine.*)$' -test.v > $O/gpuimpl-$v.log 2>&1; echo "rc $?" >> $O/gpuimpl-$v.log)
	grep 'conformance:' $O/gpuimpl-$v.log; tail -1 $O/gpuimpl-$v.log
done
date -u >> $O/start.txt
for round in 1 2 3; do
	for v in $VARIANTS; do
		echo "=== round $round $v $(date -u +%T)" >> $O/ab-kernel.txt
		timeout 100 build/ab/$v/lz4warp.test -test.run '^$' -test.bench 'GPUKernel/gpu/(mixed|text|binaries)/' -test.benchtime 10x -batches=1000,3000,10000 >> $O/ab-kernel.txt 2>&1
	done
done
date -u >> $O/start.txt
awk '/^=== round/{v=$4} /^BenchmarkGPUKernel/{for(i=1;i<=NF;i++) if($(i+1)=="kernel-GB/s") k[$1" "v]=k[$1" "v]" "$i} END{for(x in k) print x, k[x]}' $O/ab-kernel.txt | sort
tar czf $OUT/$R.tgz -C $OUT $R
