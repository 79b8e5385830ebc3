#!/usr/bin/env bash
# bench.sh BEFORE [AFTER]: fastlz4 against liblz4's LZ4_compress_default,
# one core, on every data set and corpus, for two commits in turns (the
# test binaries of BEFORE and AFTER, default the working tree, alternate
# set by set, COUNT rounds). Each line of the raw output is one run of
# BenchmarkEncodePagePair/liblz4/<set> with its commit in front; summary.sh
# takes the median of x-liblz4-fastest per set and commit.
# Needs liblz4.so.1 and LZ4WARP_CORPUS (make corpus) for the corpora.
# SETS (space-separated set names) limits the run to those sets.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
before=${1:?usage: bench.sh BEFORE [AFTER]}
after=${2:-}
COUNT=${COUNT:-3}
BENCHTIME=${BENCHTIME:-640x} # 10 passes over each of the 32 turns of 2,048 pages
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/wt" 2>/dev/null || true; rm -rf "$tmp"' EXIT
build() { # build COMMIT NAME: the fastlz4 test binary of COMMIT (empty: the working tree)
	if [ -z "$1" ]; then
		go test -c -o "$tmp/$2.test" ./internal/fastlz4
	else
		git worktree add -q --detach "$tmp/wt" "$1"
		(cd "$tmp/wt" && go test -c -o "$tmp/$2.test" ./internal/fastlz4)
		git worktree remove --force "$tmp/wt"
	fi
}
build "$before" before
build "$after" after
label_before=$(git rev-parse --short "$before")
label_after=$( [ -n "$after" ] && git rev-parse --short "$after" || echo "worktree-$(git rev-parse --short HEAD)")
sets="zeros text binaries random mixed coredump"
[ -n "${LZ4WARP_CORPUS:-}" ] && sets="$sets $(cd "$LZ4WARP_CORPUS" && ls *.pages | sed 's/\.pages$//; s/^/corpus\//')"
sets=${SETS:-$sets}
echo "# $(date -u +%FT%TZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) nproc=$(nproc) load=$(cut -d' ' -f1-3 /proc/loadavg) $(go version)"
echo "# before=$label_before after=$label_after COUNT=$COUNT BENCHTIME=$BENCHTIME"
cd internal/fastlz4
for round in $(seq "$COUNT"); do
	for set in $sets; do
		for v in before after; do
			[ $(( round % 2 )) -eq 0 ] && v=$([ $v = before ] && echo after || echo before)
			label=$([ $v = before ] && echo "$label_before" || echo "$label_after")
			"$tmp/$v.test" -test.run '^$' -test.bench "EncodePagePair/liblz4/$set\$" -test.benchtime "$BENCHTIME" -test.cpu 1 |
				grep '^Benchmark' | sed "s|^|$label |"
		done
	done
done
