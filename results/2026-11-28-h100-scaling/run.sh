#!/usr/bin/env bash
# The CPU backends over 1 and 16 cores on the one-GPU H100 host (issue 25's
# scaling target: 16 cores at least 13.6 times one at 100,000 pages), three
# counts of 3 batches each so that the one-core points' spread shows:
# BenchmarkScalingCompress (simd: CompressBatchOn; simd-into: a reused
# result) and BenchmarkScalingDecompress, text and mixed pages. Built here:
# go test -c -o build/quick/lz4warp.test . and scripts/gpu-goroot.sh.
set -o pipefail
B=build/quick
source $B/goroot.sh; setup_goroot
mkdir -p $OUT/r
{ date -u; nproc; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $OUT/r/host.txt
timeout 230 $B/lz4warp.test -test.run '^$' -test.bench 'Scaling' -test.cpu 1,16 -test.benchtime 3x -test.count 3 \
	-test.benchmem > $OUT/r/scaling.txt 2>&1
grep -hE '^Benchmark' $OUT/r/scaling.txt | awk '{print $1, $5, $6}'
cd $OUT && tar czf r.tgz r && rm -rf r
