#!/usr/bin/env bash
# Direct batches with their pages copied by the copy engine (stagedChunk pages a
# chunk, kernels on stagedStreams streams) against the stream variant's reads over PCIe. On the device machine, from
# the repository root, after `make gpu-binaries`:
#   OUT=<dir> results/2026-11-27-h100-staged/run.sh
set -u
OUT=${OUT:-/tmp/staged}
mkdir -p "$OUT"
bin=$PWD/build/gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/device.txt"
(cd gpuimpl && "$bin/gpuimpl.test" -test.count=1 -test.v -test.run 'TestEngineHostPages|TestEngineStartHost' \
	-test.timeout 10m 2>&1 | grep -E '^(--- |=== RUN|ok|FAIL|PASS|conformance:)' >"$OUT/tests.txt")
source "$bin/goroot.sh"
setup_goroot
(cd . && "$bin/lz4warp.test" -test.run '^$' -test.bench 'PinnedH2D/64MiB' -test.benchtime 20x 2>&1 | grep '^Benchmark' >"$OUT/bench.txt")
for round in 1 2; do
	for v in ${STAGED:-0:16 256:16 512:16 1024:16 256:32}; do
		staged=${v%:*} streams=${v#*:}
		(cd gpuimpl && "$bin/gpuimpl.test" -test.run '^$' -test.bench 'Pipeline/gpu/.*/(1000|3000|10000)$' \
			-test.benchtime "${BATCHES:-20}x" -directpages 16384 -stagedchunk "$staged" -stagedstreams "$streams" 2>&1 |
			grep '^Benchmark' | sed "s/^/staged=$v round=$round /" >>"$OUT/bench.txt")
	done
done
(cd . && "$bin/lz4warp.test" -test.run '^$' -test.bench 'PinnedH2D/64MiB' -test.benchtime 20x 2>&1 | grep '^Benchmark' >>"$OUT/bench.txt")
cat "$OUT/tests.txt" | grep -E '^(--- FAIL|conformance:|ok|FAIL)' ; grep -c -- '--- PASS' "$OUT/tests.txt"
cat "$OUT/bench.txt"
