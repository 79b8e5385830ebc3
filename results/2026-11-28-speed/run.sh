#!/usr/bin/env bash
# Per-core encode speed of fastlz4 with the parse of one candidate (v1, the
# commit before the parse v2) and of two (v2), each beside liblz4's
# LZ4_compress_default in the same test binary, on the data sets and the
# corpora of make corpus. cpuMB/s is bytes over the benchmark thread's CPU
# time, which holds better than wall time on this shared 2-core machine.
# Usage: run.sh V1_COMMIT V2_COMMIT OUTDIR (from the repository root).
set -eu
v1=$1 v2=$2 out=$3
mkdir -p "$out"
export LZ4WARP_CORPUS=${LZ4WARP_CORPUS:-$PWD/.cache/corpus}
for v in v1 v2; do
	rev=$v1; [ $v = v2 ] && rev=$v2
	git worktree add -f --detach "$out/src-$v" "$rev" >/dev/null
	(cd "$out/src-$v" && go test -c -o "$out/$v.test" ./internal/fastlz4)
	git worktree remove --force "$out/src-$v"
done
cd internal/fastlz4
for round in 1 2 3; do
	for v in v1 v2; do
		"$out/$v.test" -test.run '^$' -test.cpu 1 -test.benchtime 0.5s \
			-test.bench '^BenchmarkEncodePage$/^(fastlz4|liblz4)$/^(text|binaries|mixed|random|corpus)$' \
			>"$out/$v-$round.txt" 2>&1
	done
done
uptime >"$out/uptime.txt"
