#!/usr/bin/env bash
# Second device run of 2026-11-28, on a machine of 4 H100s (nvidia-h100-x4):
# the parse v2 kernel's conformance and speed against v1's, GPU decompression's
# benchmarks and the documentation's decode claims, the multi-GPU benchmarks and
# the host's limits, and the two parts of the first 4-GPU run that lacked the
# data sets. Built here: make gpu-binaries (build/gpu), and gpuimpl.test of
# 22108e5 (parse v1, same runtime) into build/gpu-v1; run from the repository
# root with build/gpu and build/gpu-v1 carried.
set -o pipefail
export NCCL_NVLS_ENABLE=0
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=index,name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader | tee $R/devices.txt
step() { local t=$1; shift; echo "=== $* (limit $t s)"; timeout $t "$@"; echo "=== rc $?"; }
# 1. conformance of the v2 page kernel (1,229,699 pages + the package's), the decode API tests
OUT=$R/suite step 150 bash build/gpu/run.sh conformance decode-api multidevice > $R/suite.log 2>&1
# 2. the page kernel, v1 and v2 in turns, three rounds
for round in 1 2 3; do for v in gpu-v1 gpu; do
	(cd gpuimpl && step 40 ../build/$v/gpuimpl.test -test.run '^$' -test.benchtime 20x \
		-test.bench 'KernelQueued/gpu/^(mixed|text|random)$/^(1000|10000)$') 2>&1 | grep -E '^Benchmark|rc' | sed "s/^/$v /" >> $R/kernel-v1v2.txt
done; done
# 3. decompression: CPU (16 cores of one GPU's share: all 64 here) and GPU, and the claims
(step 200 build/gpu/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 3x -test.timeout 10m \
	-test.bench '^BenchmarkDecode(Kernel)?$/./^(mixed|text|binaries|coredump)$/' -batches 1000,3000,10000,30000,100000) > $R/decode-bench.log 2>&1
(cd falsification && LZ4WARP_DECODE_BENCH=$R/decode-bench.log step 30 ../build/gpu/falsification.test -test.v -test.count=1 -test.run '^TestDecodeClaims$') > $R/decode-claims.log 2>&1
# 4. several GPUs: streams at 10,000 and 30,000 pages on 1, 2 and 4 devices; the host's limits
LZ4WARP_BENCH_SETS=mixed,text step 170 build/gpu/lz4warp.test -test.run '^$' -test.bench '^Benchmark(MultiDevice|HostLimits)$' \
	-test.benchtime 100x -test.count 1 -test.timeout 10m > $R/bench-multi.log 2>&1
grep -h '^decode:\|^conformance:' $R/suite.log; sed -n '/=== summary/,$p' $R/suite.log
grep -h 'kernel-GB/s' $R/kernel-v1v2.txt | awk '{print $1, $2, $(NF-3), $(NF-2)}' | sort | head -40
grep -E '^BenchmarkDecode' $R/decode-bench.log | awk '{print $1, $4, $5}' | head -80
grep -h 'decode claim' $R/decode-claims.log
grep -E '^Benchmark' $R/bench-multi.log | cut -c1-200
cd $OUT && tar czf r.tgz r && rm -rf r
