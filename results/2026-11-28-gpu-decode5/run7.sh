#!/usr/bin/env bash
# Seventh call, two GPUs of one host: the multi-device tests (decoding
# included), the decode API tests and the GPU features (the shared batch's
# scenario among them) at the commit with the shared batch and the kernel
# as before; then BenchmarkDecode simd, gpubuf and gpushare on mixed, text
# and coredump pages at 10,000 / 30,000 / 100,000 pages, 20 batches, two
# rounds (one GPU: the default configuration's).
#   build (here): bash run7.sh build; carry build/dec19. run (device): bash run7.sh run
set -o pipefail
part=${1:?usage: run7.sh build|run}
B=build/dec19
if [[ $part == build ]]; then
	set -e
	make gpu-binaries >/dev/null
	rm -rf $B && mkdir -p $B
	cp build/gpu/{lz4warp.test,gpuimpl.test,features.test,run.sh,goroot.sh} $B/
	du -sh $B
	exit 0
fi
R=$OUT/r; mkdir -p $R
source $B/goroot.sh; setup_goroot
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $R/devices.txt
parts=(decode-api features)
[[ $(nvidia-smi -L | wc -l) -ge 2 ]] && parts=(multidevice "${parts[@]}")
OUT=$R/suite timeout 300 bash $B/run.sh "${parts[@]}" > $R/suite.log 2>&1
sed -n '/=== summary/,$p' $R/suite.log
grep -h -- '--- \(FAIL\|PASS\): TestMultiDeviceDecode\|--- FAIL' $R/suite/*.log | head
for round in 1 2; do
	taskset -c 0-15 $B/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 20x \
		-test.bench '^BenchmarkDecode$/(simd|gpubuf|gpushare)/^(mixed|text|coredump)$/' -batches 10000,30000,100000 2>&1 |
		grep -E '^Bench' | tee -a $R/bench.txt | awk '{printf "%s %.1f %s\n", $1, $5/1000, $7}'
done
