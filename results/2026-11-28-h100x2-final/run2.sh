#!/usr/bin/env bash
# Part 2, right after part 1 on the same machine: CompressBatch from Go
# memory against CompressBuffer (API-23), the CPU over 1 to 16 cores
# (compress and decompress, text and mixed, 100,000 pages), the Writer on
# the GPU and the command on a cached 4 GiB file against lz4, one round.
# CPU work on 16 cores (taskset).
set -o pipefail
export LZ4WARP_REQUIRE_GPU=1
[ -x build/gpu/lz4warp.test ] || tar xzf build/pack/gpu.tgz -C build
R=$OUT/r; mkdir -p $R
B=build/gpu
source $B/goroot.sh; setup_goroot
step() { local t=$1; shift; echo "=== $* (limit $t s)"; timeout $t "$@"; echo "=== rc $?"; }
T="taskset -c 0-15"
date -u > $R/date.txt
step 90 $T $B/lz4warp.test -test.run '^$' -test.benchtime 5x -batches 10000,100000 \
	-test.bench 'FromGo$/^(gpubuf|staged-8192|copyin-8192)/^(mixed|text|coredump)$/' > $R/fromgo.txt 2>&1
step 200 $T $B/lz4warp.test -test.run '^$' -test.bench 'Scaling' -test.cpu 1,2,4,8,16 -test.benchtime 2x \
	-test.count 1 -test.benchmem > $R/scaling.txt 2>&1
step 90 $T bash $B/streams-gpu.sh > $R/streams-gpu.log 2>&1
SIZE=$((4 << 30)) step 150 $T bash $B/cli-h100.sh 1 > $R/cli.log 2>&1
grep -hE '^Benchmark' $R/fromgo.txt | cut -c1-170
grep -hE '^(--- FAIL|FAIL|panic)' $R/*.log $R/*.txt | head
grep -hE '^Benchmark' $R/scaling.txt | awk '{print $1, $5, $6}'
grep -hE '^(--- PASS: TestWriterGPU|--- FAIL)' $R/streams-gpu.log; grep -hE '^BenchmarkWriter/gpu|^BenchmarkStreamReader' $R/streams-gpu.log | cut -c1-120
cat $R/cli.log
cd $OUT && tar czf r2.tgz r && rm -rf r
