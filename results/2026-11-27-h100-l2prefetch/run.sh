#!/usr/bin/env bash
# The stream variant (GPU-9) on mapped pages, the kernel alone, as generated and
# with the L2 prefetch size hint L2::128B or L2::256B on its global vector loads
# (BenchmarkZeroCopyKernel's host-stream variants), two rounds. On the device
# machine, from the repository root, after `make gpu-binaries`:
#   OUT=<dir> results/2026-11-27-h100-l2prefetch/run.sh
set -u
OUT=${OUT:-/tmp/l2prefetch}
mkdir -p "$OUT"
bin=$PWD/build/gpu
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } >"$OUT/device.txt"
source "$bin/goroot.sh"
setup_goroot >/dev/null
for round in 1 2; do
	(cd gpuimpl && "$bin/gpuimpl.test" -test.run '^$' -test.bench 'ZeroCopyKernel/host-stream' -test.benchtime 10x 2>&1 |
		grep -E '^(Benchmark|---|FAIL)|Error|error' | sed "s/^/round=$round /" >>"$OUT/bench.txt")
done
date -u >>"$OUT/device.txt"
cat "$OUT/bench.txt"
