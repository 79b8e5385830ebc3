#!/bin/bash
# The CPU entry-point benchmarks before and after issue 25, in turns, on
# this machine: builds both test binaries, then runs each benchmark set
# ROUNDS times, before and after alternately, so that both meet the same
# load from other jobs. Usage: run.sh [before-commit] (default: main's
# commit before the change, 53735a9). PARTS lists what runs (default
# "scaling pages": the scaling benchmarks; the single-page and contention
# ones); output: before$TAG.txt, after$TAG.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
base=${1:-53735a9}
ROUNDS=${ROUNDS:-6}
PARTS=${PARTS:-scaling pages}
TAG=${TAG:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$repo" archive "$base" | tar -x -C "$work"
python3 "$here/before.py" "$repo/bench_entry_test.go" "$work/bench_entry_test.go"
(cd "$work" && go test -c -o "$work/before.test" .)
(cd "$repo" && go test -c -o "$work/after.test" .)
: > "$here/before$TAG.txt"
: > "$here/after$TAG.txt"
for r in $(seq "$ROUNDS"); do
	for v in before after; do
		# The scaling over 1 and 2 cores at 100,000 pages, text and mixed.
		[[ " $PARTS " == *" scaling "* ]] && (cd "$repo" && "$work/$v.test" -test.run '^$' -test.bench 'Scaling' \
			-test.cpu 1,2 -test.benchtime 3x -test.benchmem) | grep '^Benchmark' >> "$here/$v$TAG.txt"
		# One page at a time, and 8 goroutines on one Compressor.
		[[ " $PARTS " == *" pages "* ]] && (cd "$repo" && "$work/$v.test" -test.run '^$' \
			-test.bench 'CompressPage|DecompressPage|Contention' -test.cpu 2 -test.benchtime 1s -test.benchmem) \
			| grep '^Benchmark' >> "$here/$v$TAG.txt"
	done
	echo "round $r done" >&2
done
