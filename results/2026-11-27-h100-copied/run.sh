#!/usr/bin/env bash
# Direct batches whose pages the copy engine copies to the device in chunks,
# each chunk's page kernel starting once its copy is done (directChunk), against
# the stream variant reading them over PCIe (directChunk 0) and, at 20,000 and
# 30,000 pages, the copies of RT-6. On the device machine, from the repository
# root, after `make gpu-binaries`:
#   OUT=<dir> results/2026-11-27-h100-copied/run.sh
set -u
OUT=${OUT:-/tmp/copied}
mkdir -p "$OUT"
bin=$PWD/build/gpu
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } >"$OUT/device.txt"
"$bin/run.sh" engine >"$OUT/suite.txt" 2>&1
source "$bin/goroot.sh"
setup_goroot >/dev/null
pinned() { "$bin/lz4warp.test" -test.run '^$' -test.bench 'PinnedH2D/64MiB' -test.benchtime 20x 2>&1 | grep '^Benchmark' >>"$OUT/bench.txt"; }
pipeline() { # label, flags...
	local label=$1
	shift
	(cd gpuimpl && "$bin/gpuimpl.test" -test.run '^$' -test.bench "Pipeline/gpu/.*/(${SIZES:-1000|3000|10000|20000|30000})\$" \
		-test.benchtime 20x "$@" 2>&1 | grep '^Benchmark' | sed "s/^/$label round=$round /" >>"$OUT/bench.txt")
}
pinned
for round in 1 2; do
	SIZES="20000|30000" pipeline rt6 -directpages 16384 -directchunk 0
	for c in 0 128 256 512 1024 2048; do
		pipeline "chunk=$c" -directpages 32768 -directchunk "$c"
	done
done
pinned
date -u >>"$OUT/device.txt"
grep -E '^engine' "$OUT/suite.txt" | tail -2
cat "$OUT/bench.txt"
