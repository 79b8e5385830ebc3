#!/bin/bash
# BenchmarkZeroCopyKernel: the page kernel reading a batch's pages from a
# HostPages' mapped memory against reading them from device memory.
# Binaries: make gpu-binaries (build/gpu). Usage: run.sh; output in $OUT.
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
source scripts/gpu-goroot.sh
setup_goroot
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
cd gpuimpl
timeout 300 ../build/gpu/gpuimpl.test -test.run '^$' -test.bench ZeroCopyKernel -test.benchtime 10x -test.count 2 > $OUT/bench.txt 2>&1
tail -3 $OUT/bench.txt
