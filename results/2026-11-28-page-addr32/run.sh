#!/bin/bash
# run.sh [BEFORE [AFTER]]: the page kernel with its shared addresses in
# 64-bit registers (BEFORE, default 2d89e7a) against 32-bit ones (AFTER,
# default HEAD): warp instructions a page on the executor
# (BenchmarkKernelInstructions), ptxas registers of both page kernels, and,
# when NVDISASM names nvdisasm, the SASS instructions of every loop of
# lz4warp_pages and lz4warp_pages_stream on sm_75 and sm_90. Needs PTXAS
# (the CUDA SDK's ptxas). Writes out/.
set -euo pipefail
before=${1:-2d89e7a} after=${2:-HEAD}
root=$(git rev-parse --show-toplevel)
here=$(cd "$(dirname "$0")" && pwd)
out=$here/out
rm -rf "$out" && mkdir -p "$out"
tmp=$(mktemp -d)
cleanup() {
	for side in before after; do
		[ -d "$tmp/$side" ] && git -C "$root" worktree remove --force "$tmp/$side"
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
# loops.awk prints, per function, every loop: a branch back to a label
# (.L_x_N), and the SASS instructions from that label to the branch, in the
# order of the branches. Both sides have the same loops in the same order,
# so the rows pair up; their labels may differ.
cat > "$tmp/loops.awk" <<'AWK'
/^[ \t]*\.text\.lz4warp_pages(_stream)?:$/ { fn = $1; sub(/^\.text\./, "", fn); sub(/:$/, "", fn); n = 0; k = 0; delete at; next }
/^\.L_x_[0-9]+:$/ { at[substr($1, 1, length($1) - 1)] = n + 1; next }
/^ *\/\*[0-9a-f]+\*\// {
	n++
	if (fn != "" && match($0, /BRA[^`]*`\(\.L_x_[0-9]+\)/)) {
		s = substr($0, RSTART, RLENGTH); sub(/.*`\(/, "", s); sub(/\)$/, "", s)
		if (s in at) printf "%s loop %d (%s): %d\n", fn, ++k, s, n - at[s] + 1
	}
}
AWK
for side in before after; do
	rev=${!side}
	git -C "$root" worktree add --detach -q "$tmp/$side" "$rev"
	(cd "$tmp/$side" && git log -1 --format="$side: %h %s" | cut -c1-100 &&
		go test -run '^$' -bench BenchmarkKernelInstructions -benchtime=1x ./gpuimpl &&
		PTXAS=$PTXAS go run ./internal/ptxcheck | grep -e lz4warp_pages -e Kernel) > "$out/$side.txt" 2>&1
	for sm in 75 90; do
		ptx=$tmp/$side/gpuimpl/testdata/lz4warp_pages_sm$sm.ptx
		"$PTXAS" -arch=sm_$sm -o "$tmp/$side.sm$sm.cubin" "$ptx"
		if [ -n "${NVDISASM:-}" ]; then
			"$NVDISASM" -c "$tmp/$side.sm$sm.cubin" > "$out/$side.sm$sm.sass"
			awk -f "$tmp/loops.awk" "$out/$side.sm$sm.sass" > "$out/$side.sm$sm.loops"
			awk '/^ *\/\*[0-9a-f]+\*\//' "$out/$side.sm$sm.sass" | wc -l | sed "s/^/$side sm_$sm SASS instructions, both kernels: /" >> "$out/sass-total.txt"
		fi
	done
done
{
	for side in before after; do
		awk -v side=$side '/warp-instr\/page/ {for (i = 2; i <= NF; i++) if ($i == "warp-instr/page") print side, $1, $(i - 1), "warp-instr/page"}' "$out/$side.txt"
	done
	grep -h -e '^lz4warp_pages' "$out/before.txt" | sed 's/^/before /'
	grep -h -e '^lz4warp_pages' "$out/after.txt" | sed 's/^/after  /'
	if [ -n "${NVDISASM:-}" ]; then
		cat "$out/sass-total.txt"
		for sm in 75 90; do
			echo "sm_$sm loops (before -> after):"
			paste -d' ' "$out/before.sm$sm.loops" "$out/after.sm$sm.loops" |
				awk '{printf "  %s %s %s: %s -> %s%s\n", $1, $2, $3, $5, $10, ($5 != $10 ? "  *" : "")}'
		done
	fi
} | tee "$out/summary.txt"
