#!/usr/bin/env bash
# Ninth call: the decode kernel with its shared addresses in 32-bit
# registers (branch decode-addr32 at f928edb: 9% fewer warp instructions a
# page on the executor, the common-sequence loop 45 to 40 SASS instructions
# on sm_90) against the kernel before (call 8's build), in turns:
# BenchmarkDecodeKernel on mixed, text and coredump pages at 10,000 and
# 100,000, 20 batches, two rounds; then the new kernel's checks: decode API
# tests, conformance on 1,000,000 pages with liblz4's blocks, memcheck on
# 20,000 valid and hostile pages.
#   build (here): test binaries of the branch's tree into build/dec21
#   (lz4warp.test, gpuimpl.test), build/dec20/lz4warp.test as
#   lz4warp-before.test, and build/gpu's liblz4-blocks.bin, run.sh and
#   goroot.sh; carry build/dec21. run (device): bash run9.sh
set -o pipefail
B=build/dec21
R=$OUT/r; mkdir -p $R
source $B/goroot.sh; setup_goroot
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $R/devices.txt
for round in 1 2; do for k in before after; do
	exe=$B/lz4warp.test; [[ $k == before ]] && exe=$B/lz4warp-before.test
	taskset -c 0-15 $exe -test.cpu 16 -test.run '^$' -test.benchtime 20x \
		-test.bench '^BenchmarkDecodeKernel$/gpu/^(mixed|text|coredump)$/' -batches 10000,100000 2>&1 | grep -E '^Bench' |
		awk -v k=$k '{printf "%s %s", k, $1; for (i = 6; i <= NF; i++) printf " %s", $i; print ""}' | tee -a $R/kernel.txt
done; done
OUT=$R/suite timeout 300 bash $B/run.sh decode-api decode-conformance decode-sanitizer > $R/suite.log 2>&1
sed -n '/=== summary/,$p' $R/suite.log
