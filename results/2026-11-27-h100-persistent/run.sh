#!/usr/bin/env bash
# Warps that take page after page from a counter, on a grid no larger than the
# device holds (GPU-10), against the kernel before (a warp per page, a block per
# four pages). On the device machine, from the repository root, after
# `make gpu-binaries` and the base binaries built from the commit before into
# build/gpu/base (in a worktree of 5cf7318: go test -c -tags cuda -ldflags='-s -w'
# -o <repo>/build/gpu/base/lz4warp.test . and the same of ./gpuimpl; the
# features, falsification and cudart binaries left out to stay within what a
# device run carries):
#   OUT=<dir> results/2026-11-27-h100-persistent/run.sh
set -u
OUT=${OUT:-/tmp/persistent}
mkdir -p "$OUT"
bin=$PWD/build/gpu
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } >"$OUT/device.txt"
"$bin/run.sh" engine conformance faults >"$OUT/suite.txt" 2>&1
source "$bin/goroot.sh"
setup_goroot >/dev/null
pinned() { "$bin/lz4warp.test" -test.run '^$' -test.bench 'PinnedH2D/64MiB' -test.benchtime 20x 2>&1 | grep '^Benchmark' >>"$OUT/bench.txt"; }
pinned
for round in 1 2; do
	for v in base new; do
		b=$bin; [[ $v == base ]] && b=$bin/base
		(cd gpuimpl && "$b/gpuimpl.test" -test.run '^$' -test.bench 'KernelQueued/gpu/(mixed|text|binaries)/' \
			-test.benchtime 20x 2>&1 | grep '^Benchmark' | sed "s/^/$v round=$round /" >>"$OUT/bench.txt")
		(cd gpuimpl && "$b/gpuimpl.test" -test.run '^$' -test.bench 'Pipeline/gpu/.*/(1000|3000|10000)$' \
			-test.benchtime 20x 2>&1 | grep '^Benchmark' | sed "s/^/$v round=$round /" >>"$OUT/bench.txt")
	done
done
pinned
date -u >>"$OUT/device.txt"
grep -E '^(conformance|engine|faults)' "$OUT/suite.txt" | tail -5
cat "$OUT/bench.txt"
