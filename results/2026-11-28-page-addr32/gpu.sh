#!/usr/bin/env bash
# The device half of this comparison, in two parts.
#   build (here, in the repository root):
#     bash results/2026-11-28-page-addr32/gpu.sh build; carry build/page32
#   run (device, repository root):
#     bash results/2026-11-28-page-addr32/gpu.sh run
# build: gpuimpl's test binary with the page kernel of 64-bit shared
# addresses (BEFORE, default 2d89e7a) and of 32-bit ones (this checkout).
# run: TestConformance (1,048,576 generated pages and the data sets against
# the reference, both page kernels: half the batches are direct and take
# the stream variant; LZ4WARP_CONFORMANCE_PAGES lowers the count) with this
# checkout's binary, then BenchmarkKernelQueued's kernel-GB/s of the two
# kernels in turns (before, after, before, after) on mixed, text and
# binaries at 1,000 and 10,000 pages, 50 launches each, and
# BenchmarkZeroCopyKernel's host-stream rows (the stream variant reading
# mapped pages) on mixed at 1,000 and 10,000. Output under $OUT/r.
set -o pipefail
part=${1:?usage: gpu.sh build|run}
B=build/page32
if [[ $part == build ]]; then
	set -e
	before=${BEFORE:-2d89e7a}
	rm -rf $B && mkdir -p $B
	tmp=$(mktemp -d)
	git worktree add --detach -q "$tmp/before" "$before"
	(cd "$tmp/before" && go test -c -ldflags='-s -w' -o "$OLDPWD/$B/gpuimpl-before.test" ./gpuimpl)
	git worktree remove --force "$tmp/before"
	rm -rf "$tmp"
	go test -c -ldflags='-s -w' -o $B/gpuimpl.test ./gpuimpl
	cp scripts/gpu-goroot.sh $B/goroot.sh
	du -sh $B
	exit 0
fi
R=${OUT:-.}/r
mkdir -p $R
source $B/goroot.sh
setup_goroot
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $R/devices.txt
(cd gpuimpl && ../$B/gpuimpl.test -test.run '^TestConformance$' -test.v -test.count=1 -test.timeout 9m) 2>&1 |
	grep -v '^=== RUN' | tail -20 | tee $R/conformance.txt
for round in 1 2; do
	for v in before after; do
		exe=../$B/gpuimpl.test
		[[ $v == before ]] && exe=../$B/gpuimpl-before.test
		(cd gpuimpl && $exe -test.run '^$' -test.benchtime 50x \
			-test.bench '^BenchmarkKernelQueued$/^gpu$/^(mixed|text|binaries)$/^(1000|10000)$') 2>&1 |
			grep -E '^Bench' | sed "s/^/$v round$round /" | tee -a $R/bench.txt
		(cd gpuimpl && $exe -test.run '^$' -test.benchtime 20x \
			-test.bench '^BenchmarkZeroCopyKernel$/^host-stream$/^mixed$/^(1000|10000)$') 2>&1 |
			grep -E '^Bench' | sed "s/^/$v round$round /" | tee -a $R/bench.txt
	done
done
