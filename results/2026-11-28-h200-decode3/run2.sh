#!/usr/bin/env bash
# Second call: pages decoded into a PageBuffer through the mapping (the
# kernel's stores cross PCIe) against into device memory and from there by
# DMA (LZ4WARP_DECODE_DMA=1), both with the streaming staging, the first
# batch untimed; two rounds; the kernel benchmark; the DMA mode's
# conformance (200,000 pages) and the decode API tests.
#   build (here): B=build/dec4; test binaries and liblz4-blocks.bin.
set -o pipefail
part=${1:?usage: run2.sh build|run}
B=build/dec4
if [[ $part == build ]]; then
	set -e
	rm -rf $B && mkdir -p $B
	go test -c -ldflags='-s -w' -o $B/lz4warp.test .
	go test -c -ldflags='-s -w' -o $B/gpuimpl.test ./gpuimpl
	cp scripts/gpu-goroot.sh $B/goroot.sh
	cp build/decode2/liblz4-blocks.bin $B/
	du -sh $B
	exit 0
fi
R=$OUT/r; mkdir -p $R
source $B/goroot.sh; setup_goroot
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $R/devices.txt
T="taskset -c 0-15"
gpubuf() { # label [env]
	local label=$1; shift
	env "$@" $T $B/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 10x -test.timeout 5m \
		-test.bench '^BenchmarkDecode$/gpubuf/^(mixed|coredump)$/' -batches 1000,10000,100000 2>&1 | grep -E '^Bench' | sed "s/^/$label /" | tee -a $R/gpubuf.txt
}
for round in 1 2; do
	gpubuf mapped LZ4WARP_DECODE_DMA=
	gpubuf dma LZ4WARP_DECODE_DMA=1
done
$T $B/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 10x -test.bench '^BenchmarkDecodeKernel$/gpu/^(mixed|coredump)$/' -batches 10000,100000 2>&1 | grep -E '^Bench' | tee $R/kernel.txt
LZ4WARP_DECODE_DMA=1 timeout 120 $T $B/lz4warp.test -test.count=1 -test.run 'TestDecompress|TestDecodeErrors|TestSelectDecode' 2>&1 | tail -3 | tee $R/api-dma.txt
(cd gpuimpl && LZ4WARP_DECODE_DMA=1 LZ4WARP_DECODE_PAGES=200000 LZ4WARP_LIBLZ4_BLOCKS=../$B/liblz4-blocks.bin LZ4WARP_LIBLZ4_REQUIRED=1 \
	timeout 200 $T ../$B/gpuimpl.test -test.v -test.count=1 -test.run '^TestDecodeConformance$') 2>&1 | grep -E '^decode:|^--- |^ok|^FAIL|^PASS' | tee $R/conformance-dma.txt
