#!/usr/bin/env bash
# Direct batches (RT-14) above 16,384 pages: one batch at a time
# (BenchmarkPipeline) and streams of batches (BenchmarkStartHost), with
# directPages 16,384 (the default: larger batches take the copies of RT-6)
# against 131,072 (every batch direct), two rounds in turns. On the device
# machine, from the repository root, after `make gpu-binaries`:
#   OUT=<dir> results/2026-11-27-h100-directpages/run.sh
set -u
OUT=${OUT:-/tmp/directpages}
mkdir -p "$OUT"
bin=$PWD/build/gpu
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } >"$OUT/device.txt"
source "$bin/goroot.sh"
setup_goroot >/dev/null
pinned() { "$bin/lz4warp.test" -test.run '^$' -test.bench 'PinnedH2D/64MiB$' -test.benchtime 20x 2>&1 | grep '^Benchmark' >>"$OUT/bench.txt"; }
bench() { # label, pattern, sizes, flags...
	local label=$1 pattern=$2 sizes=$3
	shift 3
	(cd gpuimpl && "$bin/gpuimpl.test" -test.run '^$' -test.bench "$pattern" -pipeline.sizes "$sizes" \
		-test.benchtime 20x "$@" 2>&1 | grep '^Benchmark' | sed "s/^/$label round=$round /" >>"$OUT/bench.txt")
}
pinned
for round in 1 2; do
	for dp in 16384 131072; do
		bench "directpages=$dp" 'Pipeline/gpu/' 20000,30000,60000,100000 -directpages "$dp"
		bench "directpages=$dp" 'StartHost/gpu/(mixed|text|binaries|random)/.*/inflight=(1|4)$' 20000,30000,60000 -directpages "$dp"
	done
done
pinned
date -u >>"$OUT/device.txt"
cat "$OUT/bench.txt"
