#!/usr/bin/env bash
# ab.sh LABEL_A BIN_A LABEL_B BIN_B: bench.sh for two test binaries already
# built (go test -c -o BIN ./internal/fastlz4 at each version), as the
# experiments of README.md were run: BenchmarkEncodePagePair/liblz4/<set>
# at -cpu 1, the two binaries in turns set by set, COUNT rounds, each line
# of output with its label in front (summary.sh reads it). SETS limits the
# sets; LZ4WARP_CORPUS names the corpora (make corpus).
set -euo pipefail
COUNT=${COUNT:-3}
BENCHTIME=${BENCHTIME:-640x}
sets=${SETS:-"zeros text binaries random mixed coredump $(cd "${LZ4WARP_CORPUS:?}" && ls *.pages | sed 's/\.pages$//; s/^/corpus\//' | tr '\n' ' ')"}
echo "# $(date -u +%FT%TZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) nproc=$(nproc) load=$(cut -d' ' -f1-3 /proc/loadavg) $(go version)"
echo "# A=$1 B=$3 COUNT=$COUNT BENCHTIME=$BENCHTIME"
cd "$(git rev-parse --show-toplevel)/internal/fastlz4"
for round in $(seq "$COUNT"); do
	for set in $sets; do
		for v in A B; do
			[ $((round % 2)) -eq 0 ] && v=$([ $v = A ] && echo B || echo A)
			if [ $v = A ]; then label=$1 bin=$2; else label=$3 bin=$4; fi
			"$bin" -test.run '^$' -test.bench "EncodePagePair/liblz4/$set\$" -test.benchtime "$BENCHTIME" -test.cpu 1 |
				grep '^Benchmark' | sed "s|^|$label |"
		done
	done
done
