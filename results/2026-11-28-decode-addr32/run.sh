#!/bin/bash
# run.sh [BEFORE [AFTER]]: the decode kernel with shared addresses in 64-bit
# registers (BEFORE, default e66ee98) against 32-bit ones (AFTER, default
# HEAD): warp instructions a page on the executor, ptxas registers, and
# the SASS instructions of the common-sequence loop (sm_75 and sm_90) when
# NVDISASM names nvdisasm. Needs PTXAS (the CUDA SDK's ptxas). Writes out/.
set -euo pipefail
before=${1:-e66ee98} after=${2:-HEAD}
root=$(git rev-parse --show-toplevel)
here=$(cd "$(dirname "$0")" && pwd)
out=$here/out
mkdir -p "$out"
tmp=$(mktemp -d)
cleanup() {
	for side in before after; do
		[ -d "$tmp/$side" ] && git -C "$root" worktree remove --force "$tmp/$side"
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
for side in before after; do
	rev=${!side}
	git -C "$root" worktree add --detach -q "$tmp/$side" "$rev"
	(cd "$tmp/$side" && git log -1 --format="$side: %h %s" | cut -c1-100 &&
		go test -run '^$' -bench BenchmarkDecodeKernelInstructions -benchtime=1x ./gpuimpl &&
		PTXAS=$PTXAS go run ./internal/ptxcheck | grep -e lz4warp_decode -e Kernel) > "$out/$side.txt" 2>&1
	for sm in 75 90; do
		ptx=$tmp/$side/gpuimpl/testdata/lz4warp_decode_sm$sm.ptx
		"$PTXAS" -arch=sm_$sm -o "$tmp/$side.sm$sm.cubin" "$ptx"
		if [ -n "${NVDISASM:-}" ]; then
			# The loop is the label that the fast path's last instruction,
			# an unconditional BRA, jumps back to: the first loop whose
			# body begins with the token's LDS.U8 [Rn] (no offset).
			"$NVDISASM" -c "$tmp/$side.sm$sm.cubin" > "$out/$side.sm$sm.sass"
			awk -v side=$side -v sm=$sm '
				/^\.L_x_[0-9]+:$/ { label = substr($1, 1, length($1) - 1); n = 0; next }
				/^ *\/\*[0-9a-f]+\*\// { n++ }
				/LDS(\.U)?\.U8 R[0-9]+, \[R[0-9]+\] ;/ && n == 1 && !loop { loop = label }
				loop && $0 ~ "BRA `\\(" loop "\\)" { printf "%s sm_%s: %d SASS instructions in the common-sequence loop (%s)\n", side, sm, n, loop; exit }
			' "$out/$side.sm$sm.sass" >> "$out/sass-loop.txt"
		fi
	done
done
grep -h warp-instr "$out/before.txt" "$out/after.txt" | awk '{print $1, $(NF-1), $NF}'
[ -f "$out/sass-loop.txt" ] && cat "$out/sass-loop.txt"
