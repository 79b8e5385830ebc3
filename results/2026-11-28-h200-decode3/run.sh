#!/usr/bin/env bash
# GPU decompression through a PageBuffer, third device run: the host's
# layout of a batch's payloads with non-temporal stores (and each chunk
# laid out once), against the same build's plain stores
# (LZ4WARP_STAGE_PLAIN=1) and the previous commit's binary, in turns.
#   build  (here): test binaries into build/dec3 (new root and gpuimpl,
#          old root at $OLD), goroot.sh; carry build/dec3.
#   run    (one device call): nvidia-smi; BenchmarkPinnedH2D (both
#          directions); BenchmarkDecodeStage (16 cores); BenchmarkDecode
#          gpubuf mixed and coredump at 1,000 / 10,000 / 100,000 pages,
#          10x, old / plain / nt, two rounds; BenchmarkDecodeKernel; a CPU
#          profile of gpubuf mixed 100,000. Output under $OUT/r.
set -o pipefail
part=${1:?usage: run.sh build|run}
B=build/dec3
if [[ $part == build ]]; then
	set -e
	OLD=${OLD:?the old commit}
	rm -rf $B && mkdir -p $B
	go test -c -ldflags='-s -w' -o $B/lz4warp.test .
	go test -c -o $B/gpuimpl.test ./gpuimpl
	cp scripts/gpu-goroot.sh $B/goroot.sh
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
nvidia-smi --query-gpu=index,name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader | tee $R/devices.txt
echo "cores: $(nproc)" | tee -a $R/devices.txt
T="taskset -c 0-15"
$T $B/lz4warp.test -test.run '^$' -test.bench '^BenchmarkPinnedH2D$/^64MiB(-to-host)?$' -test.benchtime 3x 2>&1 | grep -E '^Bench' | tee $R/pinned.txt
(cd gpuimpl && $T ../$B/gpuimpl.test -test.run '^$' -test.bench '^BenchmarkDecodeStage$' -test.benchtime 10x -test.cpu 16) 2>&1 | grep -E '^Bench' | tee $R/stage-nt.txt
(cd gpuimpl && LZ4WARP_STAGE_PLAIN=1 $T ../$B/gpuimpl.test -test.run '^$' -test.bench '^BenchmarkDecodeStage$/fill' -test.benchtime 10x -test.cpu 16) 2>&1 | grep -E '^Bench' | sed 's/^/plain /' | tee $R/stage-plain.txt
gpubuf() { # label binary [env]
	local label=$1 exe=$2; shift 2
	env "$@" $T $exe -test.cpu 16 -test.run '^$' -test.benchtime 10x -test.timeout 5m \
		-test.bench '^BenchmarkDecode$/gpubuf/^(mixed|coredump)$/' -batches 1000,10000,100000 2>&1 | grep -E '^Bench' | sed "s/^/$label /" | tee -a $R/gpubuf.txt
}
for round in 1 2; do
	gpubuf old $B/lz4warp-old.test
	gpubuf plain $B/lz4warp.test LZ4WARP_STAGE_PLAIN=1
	gpubuf nt $B/lz4warp.test LZ4WARP_STAGE_PLAIN=
done
$T $B/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 10x -test.bench '^BenchmarkDecodeKernel$/gpu/^(mixed|coredump)$/' -batches 10000,100000 2>&1 | grep -E '^Bench' | tee $R/kernel.txt
$T $B/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 30x -test.bench '^BenchmarkDecode$/gpubuf/^mixed$/' -batches 100000 -test.cpuprofile $R/gpubuf-mixed.prof 2>&1 | grep -E '^Bench' | tee $R/profiled.txt
