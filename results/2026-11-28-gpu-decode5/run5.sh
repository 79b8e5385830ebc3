#!/usr/bin/env bash
# Fifth call: the decode kernel whose warps take pages from a counter
# (GPU-11) against the kernel before (8531485, run.sh's build), in turns,
# BenchmarkDecodeKernel on mixed, text and coredump pages at 10,000 and
# 100,000, two rounds; the shared batch with the GPU's part started before
# the CPU's share (an experiment's build, LZ4WARP_SHARE_ASYNC) against the
# shared batch as committed, at 10,000 and 100,000 mixed and text pages;
# then the checks of the new kernel: the decode API tests, conformance on
# 1,000,000 pages with liblz4's blocks, memcheck on 20,000 valid and
# hostile pages, the engine tests (the features need room the carry lacks).
#   build (here): bash run5.sh build; carry build/dec17. run (device): bash run5.sh run
set -o pipefail
part=${1:?usage: run5.sh build|run}
B=build/dec17
if [[ $part == build ]]; then
	set -e
	make gpu-binaries >/dev/null
	rm -rf $B && mkdir -p $B
	cp build/gpu/{lz4warp.test,gpuimpl.test,run.sh,goroot.sh,liblz4-blocks.bin} $B/
	cp build/dec13/lz4warp.test $B/lz4warp-old.test
	cp build/dec16/lz4warp-async.test $B/
	du -sh $B
	exit 0
fi
R=$OUT/r; mkdir -p $R
source $B/goroot.sh; setup_goroot
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $R/devices.txt
for round in 1 2; do for k in old new; do
	exe=$B/lz4warp.test; [[ $k == old ]] && exe=$B/lz4warp-old.test
	taskset -c 0-15 $exe -test.cpu 16 -test.run '^$' -test.benchtime 20x \
		-test.bench '^BenchmarkDecodeKernel$/gpu/^(mixed|text|coredump)$/' -batches 10000,100000 2>&1 | grep -E '^Bench' |
		awk -v k=$k '{printf "%s %s", k, $1; for (i = 6; i <= NF; i++) printf " %s", $i; print ""}' | tee -a $R/kernel.txt
done; done
for round in 1 2; do for v in sync async; do
	env $([[ $v == async ]] && echo LZ4WARP_SHARE_ASYNC=1) taskset -c 0-15 $B/lz4warp-async.test -test.cpu 16 -test.run '^$' -test.benchtime 20x \
		-test.bench '^BenchmarkDecode$/gpushare/^(mixed|text)$/' -batches 10000,100000 2>&1 | grep -E '^Bench' |
		awk -v v=$v '{printf "%s %s %s %s\n", v, $1, $5, $7}' | tee -a $R/share.txt
done; done
OUT=$R/suite timeout 330 bash $B/run.sh decode-api decode-conformance decode-sanitizer engine > $R/suite.log 2>&1
sed -n '/=== summary/,$p' $R/suite.log
grep -h 'page counter\|resident\|grid' $R/suite/decode-conformance.log | head -5
