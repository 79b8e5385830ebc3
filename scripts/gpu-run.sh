#!/usr/bin/env bash
# Runs lz4warp's GPU suite on a machine with an NVIDIA GPU and its driver:
# the test binaries that `make gpu-binaries` built beside
# this script, each from its package's folder of the source tree two levels
# up. Usage: run.sh [part...]; parts: devices cudart engine faults
# multidevice conformance sanitizer features falsification cli bench decode
# (default: all), and bench-multi (spec/multi-device.md MD-9, not by
# default); decode is decode-api decode-conformance decode-sanitizer
# decode-bench, each a part too.
# Output of every part goes to $OUT (default /tmp/lz4warp-gpu); the last
# lines are one summary line per part.
set -u
bin=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$bin/../.." && pwd)
export OUT=${OUT:-/tmp/lz4warp-gpu}
# A test that needs a GPU fails here instead of skipping (RT-10).
export LZ4WARP_REQUIRE_GPU=1
mkdir -p "$OUT"
parts=("$@")
[[ ${#parts[@]} -gt 0 ]] || parts=(devices cudart engine faults multidevice conformance sanitizer features falsification cli bench decode)
export PATH=$PATH:/usr/local/cuda/bin
summary=()

# run PART DIR BINARY ARGS...: runs a binary from DIR, logging to $OUT/PART.log.
run() {
	local part=$1 dir=$2 exe=$3
	shift 3
	if [[ ! -x $bin/$exe ]]; then
		summary+=("$part: skipped (no $exe)")
		return
	fi
	echo "=== $part: $exe $*"
	local start=$SECONDS
	(cd "$root/$dir" && "$bin/$exe" "$@") 2>&1 | tee "$OUT/$part.log"
	local rc=${PIPESTATUS[0]}
	local verdict=PASS
	[[ $rc -eq 0 ]] || verdict="FAIL (exit $rc)"
	summary+=("$part: $verdict in $((SECONDS - start)) s$(extra "$part")")
}

# metric UNIT, in awk: the figure before UNIT on a benchmark line.
metric='function metric(unit) { for (i = 2; i <= NF; i++) if ($i == unit) return $(i - 1); return "?" }'

# extra PART: the figures a part's log holds, for its summary line.
extra() {
	case $1 in
	conformance*) grep -h '^conformance:' "$OUT/$1.log" | tail -1 | sed 's/^conformance:/;/' ;;
	decode-conformance) grep -h '^decode:' "$OUT/$1.log" | tail -1 | sed 's/^decode:/;/' ;;
	decode-sanitizer) { grep -h '^decode:' "$OUT/$1.log" | tail -1 | sed 's/^decode:/;/'; \
		grep -h 'ERROR SUMMARY' "$OUT/$1.log" | tail -1 | sed 's/^=* */; /'; } | tr -d '\n' ;;
	decode-bench) awk "$metric"'
		/^BenchmarkDecodeKernel\/gpu\/mixed\/100000-/ { k = metric("kernel-GB/s") }
		/^BenchmarkDecode\/gpubuf\/mixed\/10000-/ { p = metric("MB/s") }
		/^BenchmarkDecode\/gpubuf\/mixed\/100000-/ { q = metric("MB/s") }
		/^BenchmarkDecode\/simd\/mixed\/10000-/ { c = metric("MB/s") }
		/^BenchmarkDecode\/simd\/mixed\/100000-/ { d = metric("MB/s") }
		END { printf "; mixed: kernel %s GB/s at 100000; gpubuf %s / %s MB/s, simd %s / %s MB/s at 10000 / 100000", k, p, q, c, d }
		' "$OUT/$1.log" ;;
	decode-claims) grep -h '^decode claim:' "$OUT/$1.log" | sed 's/^decode claim:/;/' | tr -d '\n' ;;
	sanitizer) grep -h 'ERROR SUMMARY' "$OUT/$1.log" | tail -1 | sed 's/^=* */; /' ;;
	bench) awk "$metric"'
		/^BenchmarkPinnedH2D\/64MiB-[0-9]/ { h = metric("h2d-GB/s") }
		/^BenchmarkGPUKernel\/gpu\/mixed\/100000/ { k = metric("kernel-GB/s") }
		/^BenchmarkEndToEnd\/gpu\/mixed\/100000/ { g = metric("MB/s") }
		/^BenchmarkEndToEnd\/gpubuf\/mixed\/100000/ { p = metric("MB/s") }
		/^BenchmarkEndToEnd\/simd\/mixed\/100000/ { c = metric("MB/s") }
		END { printf "; pinned H2D %s GB/s; mixed/100000: kernel %s GB/s, end to end gpu %s MB/s, gpubuf %s MB/s, simd %s MB/s", h, k, g, p, c }
		' "$OUT/$1.log" ;;
	bench-multi) awk "$metric"'
		/^BenchmarkMultiDevice\/gpu1\/mixed\/30000-/ { g1 = metric("MB/s") }
		/^BenchmarkMultiDevice\/gpu2\/mixed\/30000-/ { g2 = metric("MB/s") }
		/^BenchmarkMultiDevice\/gpu4\/mixed\/30000-/ { g4 = metric("MB/s") }
		/^BenchmarkHostLimits\/h2d-all4-/ { h = metric("MB/s") }
		/^BenchmarkHostLimits\/memmove-2GiB-/ { m = metric("MB/s") }
		END { printf "; mixed/30000 MB/s (last run): 1 GPU %s, 2 GPUs %s, 4 GPUs %s; pinned H2D to 4 at once %s MB/s; memmove %s MB/s", g1, g2, g4, h, m }
		' "$OUT/$1.log" ;;
	bench-kernel) awk "$metric"'
		/^BenchmarkKernelQueued\/gpu\/mixed\/1000-/ { a = metric("kernel-GB/s") }
		/^BenchmarkKernelQueued\/gpu\/mixed\/100000-/ { b = metric("kernel-GB/s") }
		END { printf "; kernel queued, mixed: %s GB/s at 1000 pages, %s at 100000", a, b }
		' "$OUT/$1.log" ;;
	*) grep -hcE '^(--- PASS|ok|PASS)' "$OUT/$1.log" >/dev/null && printf '; %s passed, %s failed' \
		"$(grep -c -- '--- PASS' "$OUT/$1.log")" "$(grep -c -- '--- FAIL' "$OUT/$1.log")" ;;
	esac
}

# setup_goroot: the Go installation (or stand-in) the data sets read, set
# up once for every part (several parts' tests read the data sets).
source "$bin/goroot.sh"
setup_goroot

for ((i = 0; i < ${#parts[@]}; i++)); do
	part=${parts[i]}
	case $part in
	devices)
		nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.max,pcie.link.width.max --format=csv | tee "$OUT/devices.log"
		summary+=("devices: $(tail -n +2 "$OUT/devices.log" | head -1)")
		;;
	cudart) run cudart internal/cudart internal-cudart.test -test.v -test.count=1 ;;
	engine) run engine gpuimpl gpuimpl.test -test.v -test.count=1 -test.run 'TestEngine|TestKernel|TestAssemble' ;;
	faults) run faults . lz4warp.test -test.v -test.count=1 -test.run 'TestCompressor|TestCompressBuffer|TestNewGPUBatchCompressor' ;;
	multidevice)
		# Several GPUs (spec/multi-device.md); the root's tests skip with one.
		run pinner gpuimpl gpuimpl.test -test.v -test.count=1 -test.run '^TestPinnerHostPages$'
		run multidevice . lz4warp.test -test.v -test.count=1 -test.run '^TestMultiDevice' -test.timeout 20m
		run devices-all . lz4warp devices -devices all
		run bench-all . lz4warp bench -devices all -backends gpu -data mixed,text -batches 10000,30000 -pages 30000 -svg ''
		;;
	bench-multi)
		setup_goroot
		run bench-multi . lz4warp.test -test.run '^$' -test.bench '^Benchmark(MultiDevice|HostLimits)$' \
			-test.benchtime "${BENCHTIME:-200x}" -test.count "${COUNT:-3}" -test.timeout 60m ${BENCHFLAGS:-}
		grep -hE '^Benchmark' "$OUT/bench-multi.log" >"$OUT/bench-multi.txt" 2>/dev/null
		;;
	conformance)
		run conformance gpuimpl gpuimpl.test -test.v -test.count=1 -test.run '^TestConformance$' -test.timeout 20m
		# The conformance package: its rapid property on GPU batches and its
		# corpus through the GPU Compressor.
		CONFORMANCE_PAGES=${CONFORMANCE_PAGES:-100000} run conformance-pkg conformance conformance.test \
			-test.v -test.count=1 -test.timeout 20m -rapid.checks="${RAPID_CHECKS:-30}"
		;;
	sanitizer)
		if command -v compute-sanitizer >/dev/null; then
			echo "=== sanitizer"
			(cd "$root/gpuimpl" && LZ4WARP_CONFORMANCE_PAGES=4096 LZ4WARP_REAL_PAGES=512 compute-sanitizer --tool memcheck \
				"$bin/gpuimpl.test" -test.count=1 -test.run '^TestConformance$') 2>&1 | tee "$OUT/sanitizer.log"
			rc=${PIPESTATUS[0]}
			summary+=("sanitizer: $([[ $rc -eq 0 ]] && echo PASS || echo "FAIL (exit $rc)")$(extra sanitizer)")
		else
			summary+=("sanitizer: skipped (no compute-sanitizer)")
		fi
		;;
	features) run features features features.test -test.v -test.count=1 -godog.tags=@gpu ;;
	falsification)
		LZ4WARP_DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1) \
			run falsification falsification falsification.test -test.run '^TestDevice$' -test.v -test.count=1
		;;
	cli)
		setup_goroot
		run cli . lz4warp demo
		;;
	bench)
		setup_goroot
		run bench . lz4warp.test -test.run '^$' -test.bench "${BENCH:-EndToEnd|GPUKernel|PinnedH2D}" \
			-test.benchtime "${BENCHTIME:-5x}" -test.timeout 30m -batches="${BATCHES:-1000,3000,10000,30000,100000}" ${BENCHFLAGS:-}
		run bench-kernel gpuimpl gpuimpl.test -test.run '^$' -test.bench "${KERNELBENCH:-KernelQueued}" \
			-test.benchtime "${KERNELBENCHTIME:-20x}" -test.timeout 30m
		grep -hE '^Benchmark' "$OUT/bench.log" "$OUT/bench-kernel.log" >"$OUT/bench.txt" 2>/dev/null
		;;
	decode)
		# GPU decompression (GPU-11, RT-17, API-25 to API-27, DOC-10), each
		# step also a part of its own: the API and fault tests, conformance
		# on 1,000,000 pages, memcheck on 10,000 valid and 10,000 hostile
		# pages, the benchmarks (GPU and CPU in the same run) with the
		# verdicts on the documentation's claims.
		parts+=(decode-api decode-conformance decode-sanitizer decode-bench)
		;;
	decode-api)
		run decode-api . lz4warp.test -test.v -test.count=1 -test.run 'TestDecompress|TestDecodeErrors|TestSelectDecode'
		;;
	decode-conformance)
		setup_goroot
		LZ4WARP_LIBLZ4_BLOCKS=$bin/liblz4-blocks.bin LZ4WARP_LIBLZ4_REQUIRED=1 \
			run decode-conformance gpuimpl gpuimpl.test -test.v -test.count=1 -test.run '^TestDecodeConformance$' -test.timeout 30m
		;;
	decode-sanitizer)
		setup_goroot
		if command -v compute-sanitizer >/dev/null; then
			echo "=== decode-sanitizer"
			(cd "$root/gpuimpl" && LZ4WARP_DECODE_PAGES=20000 LZ4WARP_DECODE_BATCH=20000 \
				LZ4WARP_LIBLZ4_BLOCKS=$bin/liblz4-blocks.bin LZ4WARP_LIBLZ4_REQUIRED=1 compute-sanitizer --tool memcheck \
				"$bin/gpuimpl.test" -test.v -test.count=1 -test.run '^TestDecodeConformance$' -test.timeout 60m) \
				2>&1 | tee "$OUT/decode-sanitizer.log"
			rc=${PIPESTATUS[0]}
			summary+=("decode-sanitizer: $([[ $rc -eq 0 ]] && echo PASS || echo "FAIL (exit $rc)")$(extra decode-sanitizer)")
		else
			summary+=("decode-sanitizer: skipped (no compute-sanitizer)")
		fi
		;;
	decode-bench)
		setup_goroot
		run decode-bench . lz4warp.test -test.run '^$' -test.bench "${DECODEBENCH:-^BenchmarkDecode}" \
			-test.benchtime "${DECODEBENCHTIME:-5x}" -test.timeout 40m -batches="${BATCHES:-1000,3000,10000,30000,100000}"
		LZ4WARP_DECODE_BENCH=$OUT/decode-bench.log run decode-claims falsification falsification.test \
			-test.v -test.count=1 -test.run '^TestDecodeClaims$'
		grep -hE '^Benchmark' "$OUT/decode-bench.log" >"$OUT/decode-bench.txt" 2>/dev/null
		;;
	*) summary+=("$part: unknown part") ;;
	esac
done
echo
echo "=== summary"
printf '%s\n' "${summary[@]}"
