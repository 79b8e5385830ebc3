#!/usr/bin/env bash
# Second call: the device-to-host copy into driver-allocated pinned memory,
# into registered Go memory (as a PageBuffer's) and into registered huge
# pages; the three-stream engine under compute-sanitizer memcheck (20,000
# valid and hostile pages) and TestDecodeConformance on 1,000,000 pages.
#   build (here): bash run2.sh build; carry build/dec11.
set -o pipefail
part=${1:?usage: run2.sh build|run}
B=build/dec11
if [[ $part == build ]]; then
	set -e
	rm -rf $B && mkdir -p $B
	go test -c -ldflags='-s -w' -o $B/lz4warp.test .
	go test -c -ldflags='-s -w' -o $B/gpuimpl.test ./gpuimpl
	cp scripts/gpu-run.sh $B/run.sh
	cp scripts/gpu-goroot.sh $B/goroot.sh
	cp build/decode2/liblz4-blocks.bin $B/
	du -sh $B
	exit 0
fi
R=$OUT/r; mkdir -p $R
source $B/goroot.sh; setup_goroot
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $R/devices.txt
taskset -c 0-15 $B/lz4warp.test -test.run '^$' -test.bench '^BenchmarkPinnedH2D$' -test.benchtime 3x 2>&1 | grep -E '^Bench' | tee $R/pinned.txt
OUT=$R/suite timeout 400 bash $B/run.sh decode-conformance decode-sanitizer > $R/suite.log 2>&1
sed -n '/=== summary/,$p' $R/suite.log
