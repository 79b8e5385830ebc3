#!/usr/bin/env bash
# Third device run of 2026-11-28, on 4 H100s (nvidia-h100-x4), with the data
# sets' stand-in Go tree that the second run lacked: the parse v2 page kernel
# against v1's on mixed and text pages; streams of batches on 1, 2 and 4
# GPUs and the host's limits; GPU decompression on mixed pages; the Writer's
# GPU path; the command against lz4 on a 4 GiB file, on 16 of the 64 cores
# (taskset), as on the one-GPU host. Built here: make gpu-binaries (build/gpu,
# with lz4, liblz4.so.1, cli-h100.sh and streams-gpu.sh added), gpuimpl.test of
# 22108e5 into build/gpu-v1; run from the repository root, both carried.
set -o pipefail
export NCCL_NVLS_ENABLE=0
R=$OUT/r; mkdir -p $R
source build/gpu/goroot.sh; setup_goroot
step() { local t=$1; shift; echo "=== $* (limit $t s)"; timeout $t "$@"; echo "=== rc $?"; }
for round in 1 2; do for v in gpu-v1 gpu; do
	(cd gpuimpl && step 40 ../build/$v/gpuimpl.test -test.run '^$' -test.benchtime 20x \
		-test.bench 'KernelQueued/gpu/^(mixed|text)$/^(1000|10000)$') 2>&1 | grep -E '^Benchmark|rc' | sed "s/^/$v /" >> $R/kernel-v1v2.txt
done; done
LZ4WARP_BENCH_SETS=mixed,text step 150 build/gpu/lz4warp.test -test.run '^$' -test.bench '^BenchmarkMultiDevice$' \
	-test.benchtime 100x -test.count 1 -test.timeout 10m > $R/bench-multi.log 2>&1
step 100 build/gpu/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 3x -test.timeout 10m \
	-test.bench '^BenchmarkDecode(Kernel)?$/./^mixed$/' -batches 1000,3000,10000,100000 > $R/decode-bench.log 2>&1
step 90 bash build/gpu/streams-gpu.sh > $R/streams-gpu.log 2>&1
step 200 taskset -c 0-15 bash build/gpu/cli-h100.sh 2 > $R/cli.log 2>&1
grep -h 'kernel-GB/s' $R/kernel-v1v2.txt | awk '{print $1, $2, $(NF-3), $(NF-2)}' | sort
grep -E '^Benchmark' $R/bench-multi.log | cut -c1-220
grep -E '^BenchmarkDecode' $R/decode-bench.log | cut -c1-200
grep -E '^(---|FAIL|ok|PASS)|^Benchmark' $R/streams-gpu.log | cut -c1-200 | tail -30
cat $R/cli.log
cd $OUT && tar czf r.tgz r && rm -rf r
