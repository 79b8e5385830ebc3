#!/usr/bin/env bash
# The last device run of the session, part 1, on 2 H100s (nvidia-h100-x2):
# the GPU suite on main with every branch merged (both kernels changed), the
# multi-device tests (decoding on both devices, MD-10) included, and the
# page kernel against its two earlier versions in the same call. CPU work on
# 16 cores (taskset). Built with build.sh; build/pack carried.
set -o pipefail
export NCCL_NVLS_ENABLE=0 LZ4WARP_REQUIRE_GPU=1
tar xzf build/pack/gpu.tgz -C build
R=$OUT/r; mkdir -p $R
B=build/gpu
source $B/goroot.sh; setup_goroot
step() { local t=$1; shift; echo "=== $* (limit $t s)"; timeout $t "$@"; echo "=== rc $?"; }
T="taskset -c 0-15"
{ date -u; nvidia-smi --query-gpu=index,name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader; nproc; } > $R/devices.txt 2>&1
OUT=$R/suite step 330 $T bash $B/run.sh cudart engine faults multidevice conformance sanitizer features falsification cli \
	decode-api decode-conformance decode-sanitizer > $R/suite.log 2>&1
for v in kernel-v1 kernel-v2 gpuimpl; do
	(cd gpuimpl && step 60 $T ../$B/$v.test -test.run '^$' -test.benchtime 20x \
		-test.bench 'KernelQueued/gpu/^(mixed|text|coredump)$/^(1000|10000|100000)$') 2>&1 |
		grep -E '^Benchmark|rc' | sed "s/^/$v /" >> $R/kernel.txt
done
sed -n '/=== summary/,$p' $R/suite.log
grep -hE '^(--- FAIL|FAIL|panic)' $R/suite.log $R/suite/*.log 2>/dev/null | head -20
grep -h 'kernel-GB/s' $R/kernel.txt | awk '{for (i = 1; i <= NF; i++) if ($i == "kernel-GB/s") print $1, $2, $(i-1)}' | sort -k2,2 -k1,1 -s
cd $OUT && tar czf r1.tgz r && rm -rf r
