#!/usr/bin/env bash
# GPU decompression, second H100 run: the decode kernel that stages each
# payload in shared memory and decodes it in place, with its common sequence
# on one path (GPU-11), against the first H100 run's kernel in the same run,
# and the 16-core CPU beside both. Parts (each one command of at most 10
# minutes on the device; run from the repository root):
#   build  (here, not on the device): make gpu-binaries, then build/decode2
#          with what the parts below use: build/gpu's run.sh, goroot.sh,
#          liblz4-blocks.bin and the lz4warp, gpuimpl and falsification test
#          binaries, and lz4warp-v1.test, the root package's test binary of
#          4c99a89 (the first run's kernel, same engine); carry build/decode2.
#   kernel on one H100 of a 16-core host (nvidia-h100-x1): BenchmarkDecodeKernel,
#          old and new kernels in turns, two rounds, mixed and coredump pages,
#          1,000 / 10,000 / 100,000 pages, 10x: kernel-GB/s, device-GB/s and
#          (new only) stage-GB/s;
#   e2e    on the same machine: BenchmarkDecode simd/gpu/gpubuf and
#          BenchmarkDecodeKernel with -test.cpu 16 on the new build, gpubuf
#          on the old, same sets and sizes, 10x; TestDecodeClaims on the new
#          build's log.
#   check  decode API tests, conformance on 1,000,000 pages (TestDecodeConformance)
#          and compute-sanitizer memcheck on 20,000 valid and hostile pages,
#          through build/gpu's run.sh.
# Output under $OUT/r, packed as $OUT/r-<part>.tgz.
set -o pipefail
part=${1:?usage: run.sh build|kernel|e2e|check}
step() { local t=$1; shift; echo "=== $* (limit $t s)"; timeout "$t" "$@"; echo "=== rc $?"; }
B=build/decode2
if [[ $part == build ]]; then
	set -e
	make gpu-binaries
	rm -rf $B && mkdir -p $B
	cp build/gpu/{run.sh,goroot.sh,liblz4-blocks.bin,lz4warp.test,gpuimpl.test,falsification.test} $B/
	repo=$PWD old=$(mktemp -d)/lz4warp-v1
	git worktree add --detach "$old" 4c99a89
	(cd "$old" && go test -c -ldflags='-s -w' -o "$repo/$B/lz4warp-v1.test" .)
	git worktree remove --force "$old"
	du -sh $B
	exit 0
fi
R=$OUT/r; mkdir -p $R
source $B/goroot.sh; setup_goroot
export LZ4WARP_REQUIRE_GPU=1
nvidia-smi --query-gpu=index,name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader | tee $R/devices-$part.txt
echo "cores: $(nproc)" | tee -a $R/devices-$part.txt
case $part in
kernel)
	for round in $(seq ${ROUNDS:-2}); do for v in v1 new; do
		exe=$B/lz4warp.test; [[ $v == v1 ]] && exe=$B/lz4warp-v1.test
		step 120 $exe -test.run '^$' -test.benchtime 10x -test.timeout 5m \
			-test.bench '^BenchmarkDecodeKernel$/gpu/^(mixed|coredump)$/' -batches 1000,10000,100000 2>&1 |
			grep -E '^Benchmark|rc' | sed "s/^/$v /" >> $R/kernel-old-new.txt
	done; done
	grep -h 'GB/s' $R/kernel-old-new.txt | awk '{printf "%s %s", $1, $2; for (i = 6; i <= NF; i++) printf " %s", $i; print ""}' | sort
	;;
e2e)
	step 300 $B/lz4warp.test -test.cpu 16 -test.run '^$' -test.benchtime 10x -test.timeout 8m \
		-test.bench '^BenchmarkDecode(Kernel)?$/./^(mixed|coredump)$/' -batches 1000,10000,100000 > $R/decode-bench.log 2>&1
	step 150 $B/lz4warp-v1.test -test.cpu 16 -test.run '^$' -test.benchtime 10x -test.timeout 5m \
		-test.bench '^BenchmarkDecode$/gpubuf/^(mixed|coredump)$/' -batches 1000,10000,100000 > $R/decode-bench-old.log 2>&1
	(cd falsification && LZ4WARP_DECODE_BENCH=$R/decode-bench.log step 30 ../$B/falsification.test -test.v \
		-test.count=1 -test.run '^TestDecodeClaims$') > $R/decode-claims.log 2>&1
	grep -hE '^BenchmarkDecode' $R/decode-bench.log | awk '{printf "%s", $1; for (i = 5; i <= NF; i++) printf " %s", $i; print ""}'
	grep -hE '^BenchmarkDecode' $R/decode-bench-old.log | awk '{print "old", $1, $5, $6}'
	grep -h 'decode claim\|^---\|^ok\|^FAIL' $R/decode-claims.log
	;;
check)
	OUT=$R/suite step 560 bash $B/run.sh decode-api decode-conformance decode-sanitizer > $R/suite.log 2>&1
	grep -h '^decode:' $R/suite.log; grep -h 'ERROR SUMMARY' $R/suite.log | tail -1; sed -n '/=== summary/,$p' $R/suite.log
	;;
*) echo "unknown part $part"; exit 2 ;;
esac
cd $OUT && tar czf r-$part.tgz r && rm -rf r
