#!/bin/bash
# lz4warp's command against lz4 1.9.4 on this host, output to /dev/null:
# compress (lz4 -1 -c against lz4warp -c, with and without the content
# checksum) and decompress of lz4warp's frames (lz4 -dc against lz4warp -dc).
# The input is a few hundred MB of system binaries and libraries, read from
# the page cache. Each pair runs ROUNDS times, alternating, and the ratios
# of the medians are printed; the host is shared, so only ratios count.
# usage: run.sh LZ4WARP [ROUNDS]
set -eu
BIN=${1:?lz4warp binary}; ROUNDS=${2:-5}
LZ4=${LZ4:-lz4}
DIR=${TMPDIR:-/tmp}/lz4warp-cli-bench; mkdir -p "$DIR"
IN=$DIR/pages
if [ ! -s "$IN" ]; then
	find /usr/bin /usr/lib /usr/local/go -type f -size +64k 2>/dev/null | sort | xargs cat 2>/dev/null | head -c 400000000 > "$IN" || true
fi
"$BIN" -f -q -c "$IN" > "$DIR/pages.lz4"
cat "$IN" "$DIR/pages.lz4" > /dev/null # into the page cache
size=$(stat -c %s "$IN")
echo "input: $size bytes; lz4warp frame: $(stat -c %s "$DIR/pages.lz4") bytes; $(nproc) cores; $("$LZ4" --version 2>&1 | head -1)"
# t prints a run's wall time and, for the log, its user+sys CPU seconds.
t() {
	/usr/bin/time -f '%e %U %S' -o "$DIR/time" "$@" > /dev/null
	read -r w u s < "$DIR/time"
	times[$k]+="$w "
	cpu[$k]+="$(echo "$u + $s" | bc) "
}
declare -A times cpu
for r in $(seq "$ROUNDS"); do
	echo "round $r: load $(cut -d' ' -f1-3 /proc/loadavg)"
	k=lz4c; t "$LZ4" -1 -c -q "$IN"
	k=warpc; t "$BIN" -c -q "$IN"
	k=warpc_nocrc; t "$BIN" -c -q --no-frame-crc "$IN"
	k=lz4d; t "$LZ4" -dc -q "$DIR/pages.lz4"
	k=warpd; t "$BIN" -dc -q "$DIR/pages.lz4"
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for k in lz4c warpc warpc_nocrc lz4d warpd; do
	m=$(echo "${times[$k]}" | median)
	printf '%-12s wall %s median %.3f s  %.0f MB/s; cpu s %s\n' "$k" "${times[$k]}" "$m" "$(echo "$size / $m / 1000000" | bc -l)" "${cpu[$k]}"
	eval "m_$k=$m"
done
# Ratios per round (the two runs next to each other), then their median:
# drifts of the host's load between rounds cancel out.
ratios() { # numerator key, denominator key
	paste -d' ' <(echo "${times[$1]}" | tr ' ' '\n' | grep .) <(echo "${times[$2]}" | tr ' ' '\n' | grep .) |
		awk '{printf "%.2f ", $1 / $2}'
}
for pair in "lz4c warpc compress (lz4 -1 -c / lz4warp -c)" \
	"lz4c warpc_nocrc compress, no content checksum (lz4 -1 -c / lz4warp -c --no-frame-crc)" \
	"lz4d warpd decompress of lz4warp frames (lz4 -dc / lz4warp -dc)"; do
	set -- $pair
	r=$(ratios "$1" "$2")
	shift 2
	printf '%s: per round %s median %s\n' "$*" "$r" "$(echo "$r" | median)"
done
# The least disturbed run of each, on a host whose load only slows runs down.
best() { echo "${times[$1]}" | tr ' ' '\n' | grep . | sort -g | head -1; }
for pair in "lz4c warpc" "lz4c warpc_nocrc" "lz4d warpd"; do
	set -- $pair
	printf 'best %s %s / best %s %s = %.2f\n' "$1" "$(best "$1")" "$2" "$(best "$2")" "$(echo "$(best "$1") / $(best "$2")" | bc -l)"
done
