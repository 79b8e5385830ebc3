#!/bin/bash
# Last device run of 2026-11-26: the suite (h100-2026-11-25-final2/final.sh)
# at the session's last commit, then three rounds of the kernel alone on
# mixed, text and binary pages at 1,000 to 10,000 pages. Binaries: make
# gpu-binaries (build/gpu). Usage: COMMIT=<c> [R=name] run.sh; leaves $OUT/$R.tgz (R defaults to last).
R=${R:-last}
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R
RUN=$R results/2026-11-25-h100-final2/final.sh suite
source scripts/gpu-goroot.sh
setup_goroot
for round in 1 2 3; do
	echo "=== round $round $(date -u +%T)" >> $O/kernel.txt
	timeout 100 build/gpu/lz4warp.test -test.run '^$' -test.bench 'GPUKernel/gpu/(mixed|text|binaries)/' -test.benchtime 10x -batches=1000,3000,10000 >> $O/kernel.txt 2>&1
done
awk '/^BenchmarkGPUKernel/{for(i=1;i<=NF;i++) if($(i+1)=="kernel-GB/s") k[$1]=k[$1]" "$i} END{for(x in k) print x, k[x]}' $O/kernel.txt | sort
tar czf $OUT/$R.tgz -C $OUT $R
