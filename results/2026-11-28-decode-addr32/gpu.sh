#!/usr/bin/env bash
# The device half of this comparison, in two parts.
#   build (here, in the repository root):
#     bash results/2026-11-28-decode-addr32/gpu.sh build; carry build/addr32
#   run (device, repository root):
#     bash results/2026-11-28-decode-addr32/gpu.sh run
# build: the root package's test binary with the decode kernel of 64-bit
# shared addresses (BEFORE, default e66ee98) and of 32-bit ones (this
# checkout), gpuimpl's test binary of this checkout, and liblz4's blocks
# (the device has no lz4 command).
# run: TestDecodeConformance (1,000,000 pages against fastlz4, RT-17) with
# this checkout's kernel, then BenchmarkDecodeKernel's kernel-GB/s of the
# two kernels in turns (before, after, before, after) on every data set at
# 100,000 pages, 20 launches each. Output under $OUT/r.
set -o pipefail
part=${1:?usage: gpu.sh build|run}
B=build/addr32
if [[ $part == build ]]; then
	set -e
	before=${BEFORE:-e66ee98}
	rm -rf $B && mkdir -p $B
	tmp=$(mktemp -d)
	git worktree add --detach -q "$tmp/before" "$before"
	(cd "$tmp/before" && go test -c -ldflags='-s -w' -o "$OLDPWD/$B/lz4warp-before.test" .)
	git worktree remove --force "$tmp/before"
	rm -rf "$tmp"
	go test -c -ldflags='-s -w' -o $B/lz4warp.test .
	go test -c -ldflags='-s -w' -o $B/gpuimpl.test ./gpuimpl
	make --no-print-directory decode-corpus DECODE_CORPUS=$PWD/$B/liblz4-blocks.bin
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
(cd gpuimpl && LZ4WARP_LIBLZ4_BLOCKS=../$B/liblz4-blocks.bin LZ4WARP_LIBLZ4_REQUIRED=1 \
	../$B/gpuimpl.test -test.run '^TestDecodeConformance$' -test.v -test.timeout 9m) 2>&1 |
	tail -20 | tee $R/conformance.txt
for round in 1 2; do
	for v in before after; do
		exe=$B/lz4warp.test
		[[ $v == before ]] && exe=$B/lz4warp-before.test
		$exe -test.run '^$' -test.bench '^BenchmarkDecodeKernel$' -test.benchtime 20x -batches 100000 2>&1 |
			grep -E '^Bench' | sed "s/^/$v round$round /" | tee -a $R/bench.txt
	done
done
