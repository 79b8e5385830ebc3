#!/usr/bin/env bash
# The run as made, in one device call on nvidia-h100-x1 (run.sh's parts in
# turn, the kernels' comparison in one round), and beside it CompressBatch
# from Go memory with the payloads copied out by spans (API-23): staged
# (two goroutines) against serial (one) and CompressBuffer, 5 batches.
set -o pipefail
cd "$(dirname "$0")/../.."
D=results/2026-11-28-h100-decode2
ROUNDS=1 bash $D/run.sh kernel
bash $D/run.sh e2e
bash $D/run.sh check
B=build/decode2
source $B/goroot.sh; setup_goroot
mkdir -p $OUT/r
LZ4WARP_REQUIRE_GPU=1 timeout 90 taskset -c 0-15 $B/lz4warp.test -test.run '^$' -test.benchtime 5x -batches 10000,100000 \
	-test.bench 'FromGo$/^(gpubuf|staged-8192|serial-8192)/^(mixed|coredump|text)$/' > $OUT/r/fromgo.txt 2>&1
grep -hE '^Benchmark' $OUT/r/fromgo.txt | cut -c1-200
cd $OUT && tar czf r-fromgo.tgz r && rm -rf r
