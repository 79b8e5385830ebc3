#!/usr/bin/env bash
# The command's stream speed on this (2-core, shared) machine, before and
# after a change, beside lz4 in the same run: a cached file of core-dump-like
# pages (the recipe of scripts/cli-h100.sh, SIZE bytes) compressed and
# decompressed to /dev/null, ROUNDS rounds interleaved, wall and CPU time
# (user+sys) per command; then, in process, where the CPU time goes per
# stage (pprof of NewReader(file).WriteTo(/dev/null) and of
# NewWriter(/dev/null).ReadFrom(file), several passes): the decompressing
# goroutine's own work (everything under Reader.WriteTo), the content
# checksum, the decoders; the caller's ReadFrom, the hash and the
# compressing goroutines. A stage's rate is the bytes over its CPU time.
# Usage, from the repository root:
#   bash results/2026-11-28-streams-speed/run.sh BASE_REV HEAD_REV OUTDIR [ROUNDS]
set -eu
base=$1 head=$2 out=$3 rounds=${4:-3}
mkdir -p "$out"
out=$(cd "$out" && pwd)
repo=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
WORK=${WORK:-/tmp/lz4warp-speed}
SIZE=${SIZE:-$((1 << 30))}
PASSES=${PASSES:-4}
LZ4=${LZ4:-lz4}
mkdir -p "$WORK"

# The stage tool: the public API only, so that it builds on both revisions.
mkdir -p "$tmp/stages"
cat >"$tmp/stages/main.go" <<'GO'
package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/lz4warp/lz4warp"
)

// stages MODE(d|c) INPUT PROFILE PASSES
func main() {
	mode, in, prof := os.Args[1], os.Args[2], os.Args[3]
	passes, _ := strconv.Atoi(os.Args[4])
	out, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		panic(err)
	}
	pf, err := os.Create(prof)
	if err != nil {
		panic(err)
	}
	pprof.StartCPUProfile(pf)
	defer pprof.StopCPUProfile()
	for range passes {
		f, err := os.Open(in)
		if err != nil {
			panic(err)
		}
		start := time.Now()
		var n int64
		if mode == "d" {
			n, err = lz4warp.NewReader(f).WriteTo(out)
		} else {
			var zw *lz4warp.Writer
			if zw, err = lz4warp.NewWriter(out, nil); err == nil {
				if n, err = zw.ReadFrom(f); err == nil {
					err = zw.Close()
				}
			}
		}
		f.Close()
		if err != nil {
			panic(err)
		}
		d := time.Since(start)
		fmt.Printf("%s %d bytes %.3f s %.2f GB/s\n", mode, n, d.Seconds(), float64(n)/d.Seconds()/1e9)
	}
}
GO
for v in base head; do
	rev=$base; [ $v = head ] && rev=$head
	mkdir -p "$tmp/src-$v"
	git -C "$repo" archive "$rev" | tar -x -C "$tmp/src-$v"
	(cd "$tmp/src-$v" && go build -o "$out/lz4warp-$v" ./cmd/lz4warp)
	mkdir -p "$tmp/st-$v"
	cp "$tmp/stages/main.go" "$tmp/st-$v/"
	cp "$tmp/src-$v/go.sum" "$tmp/st-$v/"
	printf 'module stages\ngo 1.26\nrequire github.com/lz4warp/lz4warp v0.0.0\nreplace github.com/lz4warp/lz4warp => %s\n' "$tmp/src-$v" >"$tmp/st-$v/go.mod"
	(cd "$tmp/st-$v" && GOFLAGS=-mod=mod go build -o "$out/stages-$v" .)
	git -C "$repo" rev-parse "$rev" >"$out/rev-$v.txt"
done

IN=$WORK/pages
if [ "$(stat -c %s "$IN" 2>/dev/null || echo 0)" != "$SIZE" ]; then
	b=$WORK/base
	{
		find /usr/lib /usr/bin /usr/sbin -type f -size +32k 2>/dev/null | sort | xargs cat 2>/dev/null | head -c $((160 << 20))
		head -c $((64 << 20)) /dev/zero
		seq 1 20000000 | head -c $((32 << 20))
		head -c $((16 << 20)) /dev/urandom
	} >"$b"
	: >"$IN"
	while [ "$(stat -c %s "$IN")" -lt "$SIZE" ]; do cat "$b" >>"$IN"; done
	truncate -s "$SIZE" "$IN"
	rm -f "$b"
fi
"$out/lz4warp-head" -q -f -c "$IN" >"$WORK/pages.lz4"
"$out/lz4warp-base" -q -f -c "$IN" | cmp - "$WORK/pages.lz4" # the same frame before and after
"$LZ4" -1 -q -f -c "$IN" >"$WORK/pages.lz4cmd.lz4"
cat "$IN" "$WORK/pages.lz4" "$WORK/pages.lz4cmd.lz4" >/dev/null
{
	echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "lz4: $("$LZ4" --version 2>&1 | head -1)"
	echo "input: $SIZE bytes; lz4warp frame $(stat -c %s "$WORK/pages.lz4") bytes; lz4 -1 frame $(stat -c %s "$WORK/pages.lz4cmd.lz4") bytes"
} | tee "$out/setup.txt"

# name, command...: one line, the wall time and the CPU time (user+sys).
t() {
	local name=$1 start end; shift
	start=$EPOCHREALTIME
	/usr/bin/time -f "%U %S" -o "$tmp/cpu" "$@" >/dev/null
	end=$EPOCHREALTIME
	awk -v n="$name" -v b="$SIZE" -v s="$start" -v e="$end" -v c="$(tail -1 "$tmp/cpu")" \
		'BEGIN { split(c, u, " "); w = e - s; printf "%-40s wall %6.3f s %6.2f GB/s  cpu %6.3f s\n", n, w, b / w / 1e9, u[1] + u[2] }'
}
for r in $(seq "$rounds"); do
	t "base: lz4warp -dc (lz4warp frame)" "$out/lz4warp-base" -q -dc "$WORK/pages.lz4"
	t "head: lz4warp -dc (lz4warp frame)" "$out/lz4warp-head" -q -dc "$WORK/pages.lz4"
	t "lz4 -dc (lz4warp frame)" "$LZ4" -q -dc "$WORK/pages.lz4"
	t "base: lz4warp -dc (lz4 frame)" "$out/lz4warp-base" -q -dc "$WORK/pages.lz4cmd.lz4"
	t "head: lz4warp -dc (lz4 frame)" "$out/lz4warp-head" -q -dc "$WORK/pages.lz4cmd.lz4"
	t "lz4 -dc (lz4 frame)" "$LZ4" -q -dc "$WORK/pages.lz4cmd.lz4"
	t "base: lz4warp -c" "$out/lz4warp-base" -q -c "$IN"
	t "head: lz4warp -c" "$out/lz4warp-head" -q -c "$IN"
	t "base: lz4warp -c --no-frame-crc" "$out/lz4warp-base" -q -c --no-frame-crc "$IN"
	t "head: lz4warp -c --no-frame-crc" "$out/lz4warp-head" -q -c --no-frame-crc "$IN"
	t "lz4 -1 -c" "$LZ4" -1 -q -c "$IN"
	t "cat" cat "$IN"
done | tee "$out/commands.txt"

# Per-stage CPU time: pprof's cumulative time of each stage's functions.
for v in base head; do
	for mode in d c; do
		in=$WORK/pages.lz4; [ $mode = c ] && in=$IN
		"$out/stages-$v" $mode "$in" "$out/$v-$mode.pprof" "$PASSES" >"$out/$v-$mode-passes.txt"
		go tool pprof -top -cum "$out/stages-$v" "$out/$v-$mode.pprof" 2>/dev/null >"$out/$v-$mode-top.txt"
	done
done
stage() { # file, regexp: the cumulative seconds of the first line matching
	re=$2 awk '$0 ~ ENVIRON["re"] { v = $4; if (v ~ /ms$/) { sub(/ms$/, "", v); v /= 1000 } else sub(/s$/, "", v); print v; exit }' "$1"
}
{
	echo "stage CPU time over $PASSES passes of $SIZE bytes, and the rate it allows (bytes / CPU time)"
	for v in base head; do
		for row in "d|serial (Reader.WriteTo: reading, parsing, serving, writing)|lz4frame\\.\\(\\*Reader\\)\\.WriteTo\$" \
			"d|content checksum|xxh32\\.\\(\\*Digest\\)\\.Write\$" \
			"d|decoders|lz4frame\\.decodeAll\$" \
			"c|caller (Writer.ReadFrom: reading into batches)|lz4warp\\.\\(\\*Writer\\)\\.ReadFrom\$" \
			"c|content checksum|lz4warp\\.\\(\\*Writer\\)\\.runHash\$" \
			"c|compressing goroutines|lz4warp\\.\\(\\*Writer\\)\\.runCPU\$" \
			"c|writing goroutine|lz4warp\\.\\(\\*Writer\\)\\.runWrite\$"; do
			IFS='|' read -r mode name re <<<"$row"
			s=$(stage "$out/$v-$mode-top.txt" "$re")
			awk -v v=$v -v m=$mode -v n="$name" -v s="${s:-0}" -v b=$((SIZE * PASSES)) \
				'BEGIN { printf "%-4s %s %-62s %7.2f s  %6.2f GB/s\n", v, m, n, s, (s > 0 ? b / s / 1e9 : 0) }'
		done
	done
	echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/stages.txt"

# Per command: the best and the median wall time of the rounds, and the
# median CPU time; then the ratios the issue sets on 2 cores (lz4's time
# over lz4warp's: above 1 is faster), from the best rounds, which the
# machine's other load disturbed least.
awk '{
	split($0, f, " wall "); name = f[1]; sub(/ +$/, "", name)
	split(f[2], w, " "); split($0, c, " cpu "); split(c[2], u, " ")
	n[name]++; wall[name, n[name]] = w[1]; cpu[name, n[name]] = u[1]
	if (!(name in seen)) { seen[name] = 1; order[++k] = name }
}
function med(a, name, m,    i, j, t, v) {
	for (i = 1; i <= m; i++) v[i] = a[name, i]
	for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
	return (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
}
function best(name,    i, b) { b = wall[name, 1]; for (i = 2; i <= n[name]; i++) if (wall[name, i] < b) b = wall[name, i]; return b }
END {
	printf "%-40s %8s %8s %8s\n", "command", "best s", "median s", "cpu s"
	for (i = 1; i <= k; i++) printf "%-40s %8.3f %8.3f %8.3f\n", order[i], best(order[i]), med(wall, order[i], n[order[i]]), med(cpu, order[i], n[order[i]])
	printf "\nratios, lz4 time / lz4warp time (best rounds; median CPU time in brackets)\n"
	for (v = 0; v < 2; v++) {
		r = v ? "head" : "base"
		printf "%s: decompress our frames %.2fx lz4 -dc (%.2fx); lz4 frames %.2fx (%.2fx); compress %.2fx lz4 -1 -c (%.2fx), --no-frame-crc %.2fx\n", r,
			best("lz4 -dc (lz4warp frame)") / best(r ": lz4warp -dc (lz4warp frame)"), med(cpu, "lz4 -dc (lz4warp frame)", n["lz4 -dc (lz4warp frame)"]) / med(cpu, r ": lz4warp -dc (lz4warp frame)", n[r ": lz4warp -dc (lz4warp frame)"]),
			best("lz4 -dc (lz4 frame)") / best(r ": lz4warp -dc (lz4 frame)"), med(cpu, "lz4 -dc (lz4 frame)", n["lz4 -dc (lz4 frame)"]) / med(cpu, r ": lz4warp -dc (lz4 frame)", n[r ": lz4warp -dc (lz4 frame)"]),
			best("lz4 -1 -c") / best(r ": lz4warp -c"), med(cpu, "lz4 -1 -c", n["lz4 -1 -c"]) / med(cpu, r ": lz4warp -c", n[r ": lz4warp -c"]),
			best("lz4 -1 -c") / best(r ": lz4warp -c --no-frame-crc")
	}
}' "$out/commands.txt" | tee "$out/summary.txt"
