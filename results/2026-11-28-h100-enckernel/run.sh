#!/usr/bin/env bash
# The parse v2 page kernel after its per-group work was cut (branch
# enckernel), against the v1 kernel (one candidate) and the parse v2 kernel
# as measured on 2026-11-28, on one H100 (nvidia-h100-x1), same run, in
# turns. Prepared on the development machine; run on the device from the
# repository root with build/ carried (the three binaries are about 60 MB).
#
# Built first (gpuimpl.test binaries: the same BenchmarkKernelQueued, only
# the kernel text differs):
#   make gpu-binaries          # build/gpu: this branch's head, with goroot.sh
#   for v in 22108e5:gpu-v1 4c99a89:gpu-v2; do
#     c=${v%%:*} d=$PWD/build/${v##*:} t=$(mktemp -d)
#     git archive $c | tar -x -C $t && mkdir -p $d &&
#       (cd $t && go test -c -ldflags='-s -w' -o $d/gpuimpl.test ./gpuimpl); rm -rf $t
#   done
# gpu-v1: the v1 kernel (22108e5); gpu-v2: parse v2 as the 2026-11-28 runs
# measured it (4c99a89); gpu: this branch.
set -o pipefail
export LZ4WARP_REQUIRE_GPU=1
R=$OUT/r; mkdir -p $R
source build/gpu/goroot.sh; setup_goroot
step() { local t=$1; shift; echo "=== $* (limit $t s)"; timeout $t "$@"; echo "=== rc $?"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/device.txt 2>&1
# Same bytes on the device first: the new kernel against the reference
# (TestConformance, 1,000,000 pages), and the engine's tests.
(cd gpuimpl && step 300 ../build/gpu/gpuimpl.test -test.v -test.count=1 -test.timeout 10m \
	-test.run '^(TestConformance|TestEngine.*)$') > $R/conformance.log 2>&1
# Kernel only (kernel-GB/s by the device's clock), 20 launches a size, 2
# rounds in turns.
for round in 1 2; do for v in gpu-v1 gpu-v2 gpu; do
	(cd gpuimpl && step 100 ../build/$v/gpuimpl.test -test.run '^$' -test.benchtime 20x \
		-test.bench 'KernelQueued/gpu/^(mixed|text|binaries|random|coredump)$/^(1000|10000|100000)$') 2>&1 |
		grep -E '^Benchmark|rc' | sed "s/^/$v /" >> $R/kernel.txt
done; done
grep -E '^(---|FAIL|ok|PASS)' $R/conformance.log | tail -20
grep -h 'kernel-GB/s' $R/kernel.txt | awk '{print $1, $2, $(NF-3), $(NF-2)}' | sort -k2,2 -k1,1 -s
