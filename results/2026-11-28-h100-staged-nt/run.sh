#!/usr/bin/env bash
# CompressBatch from Go memory after its copies moved to pieces of 1 MiB
# (non-temporal stores in the runtime's memmove) and its payload copies to
# one span per worker range (API-23), against CompressBuffer, the host's
# copies alone and a reused result, one H100, CPU work on 16 cores. Built
# here: go test -c -o build/quick/lz4warp.test . and scripts/gpu-goroot.sh.
set -o pipefail
B=build/quick
source $B/goroot.sh; setup_goroot
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/r/devices.txt
LZ4WARP_REQUIRE_GPU=1 timeout 150 taskset -c 0-15 $B/lz4warp.test -test.run '^$' -test.benchtime 5x -batches 10000,100000 \
	-test.bench 'FromGo$/^(gpubuf|staged-8192|copyin-8192|into-8192)/^(mixed|coredump|text)$/' > $OUT/r/fromgo.txt 2>&1
grep -hE '^Benchmark' $OUT/r/fromgo.txt | cut -c1-200
cd $OUT && tar czf r.tgz r && rm -rf r
