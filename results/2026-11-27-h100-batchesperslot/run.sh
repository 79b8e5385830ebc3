#!/usr/bin/env bash
# Two direct batches per ring slot on their way (batchesPerSlot 2) against one
# (the engine before): streams of batches through StartHost with 4 slots and 4
# or 8 HostPages in turn, two rounds in turns, then the root package's
# CompressBufferAsync streams (default 4 slots, 4 or 8 buffers). On the device
# machine, from the repository root, after `make gpu-binaries`:
#   OUT=<dir> results/2026-11-27-h100-batchesperslot/run.sh
set -u
OUT=${OUT:-/tmp/batchesperslot}
mkdir -p "$OUT"
bin=$PWD/build/gpu
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } >"$OUT/device.txt"
(cd gpuimpl && "$bin/gpuimpl.test" -test.v -test.count=1 -test.run 'TestEngineStartHost|TestEngineHostPages' >"$OUT/engine.log" 2>&1)
grep -E '^(--- |ok|PASS|FAIL)' "$OUT/engine.log"
source "$bin/goroot.sh"
setup_goroot >/dev/null
"$bin/lz4warp.test" -test.run '^$' -test.bench 'PinnedH2D/64MiB$' -test.benchtime 20x 2>&1 | grep '^Benchmark' >>"$OUT/bench.txt"
for round in 1 2; do
	for k in 1 2; do
		(cd gpuimpl && "$bin/gpuimpl.test" -test.run '^$' -test.bench 'StartHost/gpu/(mixed|text|binaries)/.*/inflight=(4|8)$' \
			-test.benchtime 20x -batchesperslot "$k" 2>&1 | grep '^Benchmark' | sed "s/^/batchesperslot=$k round=$round /" >>"$OUT/bench.txt")
	done
done
LZ4WARP_BENCH_INFLIGHT=4,8 "$bin/lz4warp.test" -test.run '^$' -test.bench 'EndToEndAsync' -test.benchtime 20x \
	-batches 1000,3000,10000 2>&1 | grep '^Benchmark' >>"$OUT/bench.txt"
date -u >>"$OUT/device.txt"
cat "$OUT/bench.txt"
