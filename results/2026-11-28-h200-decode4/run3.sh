#!/usr/bin/env bash
# Third call: the decode kernel capped at 32 registers a thread (.maxnreg,
# LZ4WARP_DECODE_MAXNREG=32, a switch of the experiment's build), so that
# 13 blocks (52 warps) fit on an SM where 40 registers give 12 (48),
# against the kernel as it is, in turns: BenchmarkDecodeKernel on mixed,
# text and coredump pages at 10,000 and 100,000, two rounds; the capped
# kernel's TestDecodeConformance on 300,000 pages.
#   build (here): bash run3.sh build; carry build/dec12.
set -o pipefail
part=${1:?usage: run3.sh build|run}
B=build/dec12
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
for round in 1 2; do for cap in 0 32; do
	LZ4WARP_DECODE_MAXNREG=$cap taskset -c 0-15 $B/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 20x \
		-test.bench '^BenchmarkDecodeKernel$/gpu/^(mixed|text|coredump)$/' -batches 10000,100000 2>&1 | grep -E '^Bench' |
		awk -v c=$cap '{printf "maxnreg=%s %s", c, $1; for (i = 6; i <= NF; i++) printf " %s", $i; print ""}' | tee -a $R/kernel.txt
done; done
OUT=$R/suite LZ4WARP_DECODE_MAXNREG=32 LZ4WARP_DECODE_PAGES=300000 timeout 150 bash $B/run.sh decode-conformance > $R/suite.log 2>&1
sed -n '/=== summary/,$p' $R/suite.log
