#!/usr/bin/env bash
# Fourth call: where a batch decoded into a HostPages spends its time
# (BenchmarkDecodeHost: wall, the host's layout, the device's span, the
# kernels) by DMA and through the mapping, the descriptors written with
# streaming or plain stores (LZ4WARP_DESC_PLAIN), and the layout alone.
#   build (here): B=build/dec6, the gpuimpl test binary.
set -o pipefail
part=${1:?usage: run4.sh build|run}
B=build/dec6
if [[ $part == build ]]; then
	set -e
	rm -rf $B && mkdir -p $B
	go test -c -ldflags='-s -w' -o $B/gpuimpl.test ./gpuimpl
	cp scripts/gpu-goroot.sh $B/goroot.sh
	du -sh $B
	exit 0
fi
R=$OUT/r; mkdir -p $R
source $B/goroot.sh; setup_goroot
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $R/devices.txt
cd gpuimpl
T="taskset -c 0-15"
host() { # label [env]
	local label=$1; shift
	env "$@" $T ../$B/gpuimpl.test -test.cpu 16 -test.run '^$' -test.benchtime 10x -test.bench '^BenchmarkDecodeHost$' 2>&1 | grep -E '^Bench' | sed "s/^/$label /" | tee -a $R/host.txt
}
for round in 1 2; do
	host dma LZ4WARP_DECODE_DMA=1
	host dma-descplain LZ4WARP_DECODE_DMA=1 LZ4WARP_DESC_PLAIN=1
	host mapped LZ4WARP_DECODE_DMA=
done
for v in "" 1; do
	LZ4WARP_DESC_PLAIN=$v $T ../$B/gpuimpl.test -test.cpu 16 -test.run '^$' -test.benchtime 10x -test.bench '^BenchmarkDecodeStage$/fill/pinned' 2>&1 | grep -E '^Bench' | sed "s/^/descplain=$v /" | tee -a $R/stage.txt
done
