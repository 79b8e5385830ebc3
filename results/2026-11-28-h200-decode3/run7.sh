#!/usr/bin/env bash
# Seventh and eighth calls, asked for two GPUs of one host (nvidia-h200-x2,
# not lent then) and run on one H200, where the multi-device tests skip:
# the tests of the decode rule's change (4d0fd66): the decode API tests, the multi-device
# tests (MD-10's split and stream of DecompressBufferAsync on the GPU
# path) and the GPU features (the decode feature's 96,000 mixed pages, 32,000 of them LZ4, decoded on
# the GPU into a page buffer).
#   build (here): B=build/dec9.
set -o pipefail
part=${1:?usage: run7.sh build|run}
B=build/dec9
if [[ $part == build ]]; then
	set -e
	rm -rf $B && mkdir -p $B
	go test -c -ldflags='-s -w' -o $B/lz4warp.test .
	go test -c -ldflags='-s -w' -o $B/features.test ./features
	go test -c -ldflags='-s -w' -o $B/gpuimpl.test ./gpuimpl
	go build -ldflags='-s -w' -o $B/lz4warp ./cmd/lz4warp
	cp scripts/gpu-run.sh $B/run.sh
	cp scripts/gpu-goroot.sh $B/goroot.sh
	du -sh $B
	exit 0
fi
R=$OUT/r; mkdir -p $R
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $R/devices.txt
OUT=$R/suite timeout 500 bash $B/run.sh decode-api multidevice features > $R/suite.log 2>&1
sed -n '/=== summary/,$p' $R/suite.log
grep -h -- '--- FAIL' -A8 $R/suite/*.log | head -60
