#!/bin/bash
# xxHash32 on one core: internal/xxh32 (pure Go, four lanes, two stripes per
# iteration, unsafe loads), the xxh32 it replaced (git show b863c92^), and
# pierrec/lz4's internal one (amd64 assembly, and its Go fallback), run
# from the module cache. Alternating, COUNT runs each.
set -eu
COUNT=${1:-5}
cd "$(dirname "$0")/../.."
old=$(mktemp -d); trap 'rm -rf "$old"' EXIT
git archive b863c92^ | tar -x -C "$old"
for i in $(seq "$COUNT"); do
	go test -run '^$' -bench 'Checksum/oneshot/1048576' -cpu 1 ./internal/xxh32 | grep Benchmark | sed 's/^/new /'
	(cd "$old" && go test -run '^$' -bench 'XXH32' -cpu 1 ./internal/lz4frame | grep Benchmark | sed 's/^/old (8 MiB) /')
	(cd "$(go env GOMODCACHE)/github.com/pierrec/lz4/v4@v4.1.33" && go test -run '^$' -bench '_XXH32_(Asm|Go)_4M' -cpu 1 ./internal/xxh32 | grep Benchmark | sed 's/^/pierrec /')
done
