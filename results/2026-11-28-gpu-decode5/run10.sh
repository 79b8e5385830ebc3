#!/usr/bin/env bash
# Tenth call, the session's last: the page kernel with 32-bit shared
# addresses (branch page-addr32) against the kernel before (main at
# 2d89e7a), in turns, BenchmarkKernelQueued on mixed and text pages at
# 1,000 and 10,000, 20 launches, two rounds; then the final tree's checks
# on the GPU: TestConformance (1,229,699 pages against the reference),
# memcheck on the page kernel, the engine and fault tests, the GPU
# features and the decode API tests.
#   build (here): bash run10.sh build BEFORE; carry build/dec22. run (device): bash run10.sh run
set -o pipefail
part=${1:?usage: run10.sh build BEFORE|run}
B=build/dec22
if [[ $part == build ]]; then
	set -e
	before=${2:?the commit of the kernel before}
	make gpu-binaries >/dev/null
	rm -rf $B && mkdir -p $B
	cp build/gpu/{lz4warp.test,gpuimpl.test,features.test,run.sh,goroot.sh} $B/
	tmp=$(mktemp -d)
	git worktree add --detach -q "$tmp/before" "$before"
	(cd "$tmp/before" && go test -c -ldflags='-s -w' -o "$OLDPWD/$B/gpuimpl-before.test" ./gpuimpl)
	git worktree remove --force "$tmp/before"
	du -sh $B
	exit 0
fi
R=$OUT/r; mkdir -p $R
source $B/goroot.sh; setup_goroot
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $R/devices.txt
for round in 1 2; do for k in before after; do
	exe=../$B/gpuimpl.test; [[ $k == before ]] && exe=../$B/gpuimpl-before.test
	(cd gpuimpl && timeout 60 taskset -c 0-15 $exe -test.run '^$' -test.benchtime 20x \
		-test.bench 'KernelQueued/gpu/^(mixed|text)$/^(1000|10000)$') 2>&1 | grep -E '^Benchmark' |
		awk -v k=$k '{for (i = 1; i <= NF; i++) if ($i == "kernel-GB/s") print k, $1, $(i-1)}' | tee -a $R/kernel.txt
done; done
OUT=$R/suite timeout 200 bash $B/run.sh engine faults features decode-api > $R/suite.log 2>&1
(cd gpuimpl && timeout 80 ../$B/gpuimpl.test -test.v -test.count=1 -test.run '^TestConformance$' -test.timeout 20m) > $R/conformance.log 2>&1
echo "conformance rc $?"; grep -h '^conformance:' $R/conformance.log | tail -1
(cd gpuimpl && LZ4WARP_CONFORMANCE_PAGES=4096 LZ4WARP_REAL_PAGES=512 timeout 60 compute-sanitizer --tool memcheck \
	../$B/gpuimpl.test -test.count=1 -test.run '^TestConformance$') > $R/sanitizer.log 2>&1
echo "sanitizer rc $?"; grep -h 'ERROR SUMMARY' $R/sanitizer.log | tail -1
sed -n '/=== summary/,$p' $R/suite.log
