#!/usr/bin/env bash
# Where CompressBatch from Go memory spends its time (API-23): staged with
# fresh payload memory, with the garbage collector off, and into a reused
# result (CompressBatchInto), beside CompressBuffer, with CPU profiles of the
# staged and the reused-result ways at 100,000 mixed pages. One H100, CPU work
# on 16 cores. Built here with make gpu-binaries.
set -o pipefail
R=$OUT/r; mkdir -p $R
B=build/gpu
source $B/goroot.sh; setup_goroot
step() { local t=$1; shift; echo "=== $* (limit $t s)"; timeout $t "$@"; echo "=== rc $?"; }
T="taskset -c 0-15"
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > $R/devices.txt
W='FromGo$/^(gpubuf|staged-8192|serial-8192|into-8192)/^(mixed|coredump)$/'
step 100 $T $B/lz4warp.test -test.run '^$' -test.bench "$W" -test.benchtime 10x -test.benchmem -batches 10000,100000 > $R/fromgo.txt 2>&1
GOGC=off step 60 $T $B/lz4warp.test -test.run '^$' -test.bench 'FromGo$/^staged-8192/^(mixed|coredump)$/' -test.benchtime 10x -batches 10000,100000 > $R/fromgo-gogc-off.txt 2>&1
for w in staged into; do
	step 40 $T $B/lz4warp.test -test.run '^$' -test.bench "FromGo\$/^$w-8192/^mixed\$/" -test.benchtime 40x -batches 100000 \
		-test.cpuprofile $R/$w.pprof > $R/$w-profile.txt 2>&1
done
grep -hE '^Benchmark' $R/*.txt | cut -c1-220
cd $OUT && tar czf r.tgz r && rm -rf r
