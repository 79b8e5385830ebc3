#!/bin/bash
# The command against lz4 1.9.4 on a GPU host (issue 26's targets): a cached
# 4 GiB file of core-dump-like pages (system binaries and libraries, zero
# pages, runs of small integers and random bytes, as in a process's memory) compressed
# and decompressed to /dev/null, GPU and CPU, with and without the content
# checksum, each timed ROUNDS times, lz4 in the same run.
#
# Runs from the folder `make cli-h100` fills (build/cli-h100): lz4warp and
# the lz4 command; no Go needed. LZ4 and
# LD_LIBRARY_PATH may point elsewhere.
#   bash build/cli-h100/cli-h100.sh [ROUNDS]
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROUNDS=${1:-3}
BIN=${BIN:-$HERE/lz4warp}
LZ4=${LZ4:-$HERE/lz4}
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}${LD_LIBRARY_PATH:+:}$HERE/lib
WORK=${WORK:-${TMPDIR:-/tmp}/lz4warp-cli} # cached by the reads below (not /dev/shm: containers bound it)
mkdir -p "$WORK"
IN=$WORK/pages
SIZE=${SIZE:-$((4 << 30))}
if [ "$(stat -c %s "$IN" 2>/dev/null || echo 0)" != "$SIZE" ]; then
	# A base of binaries, zero pages, integer runs and random bytes, repeated:
	# pages compress one by one, so repetition changes no page's ratio.
	base=$WORK/base
	{
		find /usr/lib /usr/bin /usr/sbin -type f -size +32k 2>/dev/null | sort | xargs cat 2>/dev/null | head -c $((160 << 20))
		head -c $((64 << 20)) /dev/zero
		seq 1 20000000 | head -c $((32 << 20))
		head -c $((16 << 20)) /dev/urandom
	} > "$base"
	: > "$IN"
	while [ "$(stat -c %s "$IN")" -lt "$SIZE" ]; do cat "$base" >> "$IN"; done
	truncate -s "$SIZE" "$IN"
	rm -f "$base"
fi
"$BIN" -q -f -c "$IN" > "$WORK/pages.lz4"
"$LZ4" -1 -q -f -c "$IN" > "$WORK/pages.lz4cmd.lz4"
cat "$IN" "$WORK/pages.lz4" "$WORK/pages.lz4cmd.lz4" > /dev/null
echo "host: $(nproc) cores; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo no nvidia-smi)"
echo "lz4warp: $("$BIN" version); lz4: $("$LZ4" --version 2>&1 | head -1)"
echo "input: $SIZE bytes; lz4warp frame $(stat -c %s "$WORK/pages.lz4") bytes; lz4 -1 frame $(stat -c %s "$WORK/pages.lz4cmd.lz4") bytes"
run() { # name, command...; ONLY, a regular expression, picks rows by name
	local name=$1 s e; shift
	[[ -z ${ONLY:-} || $name =~ $ONLY ]] || return 0
	for r in $(seq "$ROUNDS"); do
		s=$(date +%s%N); "$@" > /dev/null; e=$(date +%s%N)
		awk -v n="$name" -v b="$SIZE" -v ns=$((e - s)) 'BEGIN { printf "%-34s %7.3f s %6.2f GB/s\n", n, ns / 1e9, b / ns }'
	done
}
# The GPU's fixed cost (driver, context, kernels, one page-locked batch):
# an empty input.
run "lz4warp -c --backend gpu (empty input)" "$BIN" -q -c --backend gpu /dev/null
run "lz4warp -c --backend gpu (checksum)" "$BIN" -q -c --backend gpu "$IN"
run "lz4warp -c --backend gpu --no-frame-crc" "$BIN" -q -c --backend gpu --no-frame-crc "$IN"
run "lz4warp -c (default, every core)" "$BIN" -q -c "$IN"
run "lz4warp -c --backend simd" "$BIN" -q -c --backend simd "$IN"
run "lz4warp -c --backend simd --no-frame-crc" "$BIN" -q -c --backend simd --no-frame-crc "$IN"
run "lz4 -1 -c" "$LZ4" -1 -q -c "$IN"
run "lz4warp -dc (lz4warp frame)" "$BIN" -q -dc "$WORK/pages.lz4"
run "lz4 -dc (lz4warp frame)" "$LZ4" -q -dc "$WORK/pages.lz4"
run "lz4warp -dc (lz4 frame)" "$BIN" -q -dc "$WORK/pages.lz4cmd.lz4"
run "lz4 -dc (lz4 frame)" "$LZ4" -q -dc "$WORK/pages.lz4cmd.lz4"
run "cat" cat "$IN"
