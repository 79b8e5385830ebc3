#!/usr/bin/env bash
# Third call: decoding into a PageBuffer by DMA from device memory with 2
# or 4 streams and chunks of at most 4,096 / 8,192 / 16,384 pages, and
# through the mapping with 4 streams, two rounds (environment switches of
# the experiment's build: LZ4WARP_DECODE_DMA, _STREAMS, _CHUNK).
#   build (here): B=build/dec5, the root package's test binary.
set -o pipefail
part=${1:?usage: run3.sh build|run}
B=build/dec5
if [[ $part == build ]]; then
	set -e
	rm -rf $B && mkdir -p $B
	go test -c -ldflags='-s -w' -o $B/lz4warp.test .
	cp scripts/gpu-goroot.sh $B/goroot.sh
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
	gpubuf dma-s2-c8192 LZ4WARP_DECODE_DMA=1 LZ4WARP_DECODE_STREAMS=2 LZ4WARP_DECODE_CHUNK=8192
	gpubuf dma-s4-c8192 LZ4WARP_DECODE_DMA=1 LZ4WARP_DECODE_STREAMS=4 LZ4WARP_DECODE_CHUNK=8192
	gpubuf dma-s4-c4096 LZ4WARP_DECODE_DMA=1 LZ4WARP_DECODE_STREAMS=4 LZ4WARP_DECODE_CHUNK=4096
	gpubuf dma-s4-c16384 LZ4WARP_DECODE_DMA=1 LZ4WARP_DECODE_STREAMS=4 LZ4WARP_DECODE_CHUNK=16384
	gpubuf mapped-s4-c8192 LZ4WARP_DECODE_DMA= LZ4WARP_DECODE_STREAMS=4 LZ4WARP_DECODE_CHUNK=8192
done
