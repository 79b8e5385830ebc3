#!/usr/bin/env bash
# The device run that the parse v2 (two candidates, PARSE-2) still needs, not
# yet run: correctness of the page kernel on the GPU and its speed against
# the kernel of the parse v1 on the same card. Built on the build machine:
#   make gpu-binaries                                  # this branch -> build/gpu
#   git worktree add /tmp/v1 22108e5 && make -C /tmp/v1 gpu-binaries GPU_BUILD=$PWD/build/gpu-v1
# (22108e5 is main with the parse v1 and the same runtime). Run on the GPU
# machine from the repository root with build/ carried; OUT collects logs.
set -o pipefail
OUT=${OUT:-/tmp/lz4warp-parse-v2}
mkdir -p "$OUT"
# 1. The suite's engine, fault and conformance parts with the v2 kernel
#    (TestConformance: 1,048,576 pages against the reference, RT-11).
OUT=$OUT/v2-suite bash build/gpu/run.sh devices engine faults conformance features 2>&1 | tee "$OUT/suite.log"
# 2. The kernel alone, both kernels in turns, five rounds: 1,000 and 10,000
#    mixed pages (targets 60 and 150 GB/s), text and random for context.
for round in 1 2 3 4 5; do
	for v in gpu-v1 gpu; do
		(cd gpuimpl && ../build/$v/gpuimpl.test -test.run '^$' -test.benchtime 20x \
			-test.bench 'KernelQueued/gpu/^(mixed|text|random)$/^(1000|10000)$') 2>&1 | tee -a "$OUT/kernel-$v.txt"
		build/$v/lz4warp.test -test.run '^$' -test.benchtime 5x -batches 1000,10000 \
			-test.bench 'GPUKernel/gpu/^mixed$' 2>&1 | tee -a "$OUT/gpukernel-$v.txt"
	done
done
grep -h 'kernel-GB/s' "$OUT"/kernel-*.txt "$OUT"/gpukernel-*.txt | sort | tail -60
