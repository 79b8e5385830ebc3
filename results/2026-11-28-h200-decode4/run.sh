#!/usr/bin/env bash
# Decoding into a PageBuffer with the copies in, the kernels and the copies
# out on three streams joined by events (this build) against two streams
# taking the chunks in turn (the build of $OLD), in turns; this build with a
# first chunk of 512, 1,024 and 2,048 pages (LZ4WARP_DECODE_FIRST, a switch
# of the experiment's build); BenchmarkDecodeHost; the decode API tests and
# TestDecodeConformance on 300,000 pages.
#   build (here): OLD=<commit> bash run.sh build; carry build/dec10.
set -o pipefail
part=${1:?usage: run.sh build|run}
B=build/dec10
if [[ $part == build ]]; then
	set -e
	OLD=${OLD:?the old commit}
	rm -rf $B && mkdir -p $B
	go test -c -ldflags='-s -w' -o $B/lz4warp.test .
	go test -c -ldflags='-s -w' -o $B/gpuimpl.test ./gpuimpl
	cp scripts/gpu-run.sh $B/run.sh
	cp scripts/gpu-goroot.sh $B/goroot.sh
	cp build/decode2/liblz4-blocks.bin $B/
	repo=$PWD old=$(mktemp -d)/lz4warp-old
	git worktree add --detach "$old" "$OLD"
	(cd "$old" && go test -c -ldflags='-s -w' -o "$repo/$B/lz4warp-old.test" .)
	git worktree remove --force "$old"
	du -sh $B
	exit 0
fi
R=$OUT/r; mkdir -p $R
source $B/goroot.sh; setup_goroot
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $R/devices.txt
T="taskset -c 0-15"
gpubuf() { # label binary [env]
	local label=$1 exe=$2; shift 2
	env "$@" $T $exe -test.cpu 16 -test.run '^$' -test.benchtime 10x -test.timeout 5m \
		-test.bench '^BenchmarkDecode$/gpubuf/^(mixed|coredump|text)$/' -batches 10000,100000 2>&1 | grep -E '^Bench' |
		awk -v l="$label" '{print l, $1, $5}' | tee -a $R/gpubuf.txt
}
for round in 1 2; do
	gpubuf old $B/lz4warp-old.test
	gpubuf three-1024 $B/lz4warp.test LZ4WARP_DECODE_FIRST=1024
	gpubuf three-512 $B/lz4warp.test LZ4WARP_DECODE_FIRST=512
	gpubuf three-2048 $B/lz4warp.test LZ4WARP_DECODE_FIRST=2048
done
(cd gpuimpl && $T ../$B/gpuimpl.test -test.cpu 16 -test.run '^$' -test.benchtime 10x -test.bench '^BenchmarkDecodeHost$') 2>&1 | grep -E '^Bench' | tee $R/host.txt
OUT=$R/suite LZ4WARP_DECODE_PAGES=300000 timeout 200 bash $B/run.sh decode-api decode-conformance > $R/suite.log 2>&1
sed -n '/=== summary/,$p' $R/suite.log
