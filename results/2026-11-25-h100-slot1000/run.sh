#!/bin/bash
# The PageBuffer path end to end with the default Config's BatchSize of
# 1,000 pages per slot (LZ4WARP_BENCH_SLOT=1000) against the benchmarks'
# 8,192, in turns, 20 batches a figure, two rounds. Binaries: make
# gpu-binaries (build/gpu). Usage: run.sh; output in $OUT.
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
source scripts/gpu-goroot.sh
setup_goroot
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
for round in 1 2; do
	for slot in 1000 8192; do
		echo "=== round $round slot $slot $(date -u +%T)" >> $OUT/e2e.txt
		LZ4WARP_BENCH_SLOT=$slot timeout 120 build/gpu/lz4warp.test -test.run '^$' -test.bench 'PinnedH2D/64MiB$|EndToEnd/gpubuf/(text|mixed|random)/' -test.benchtime 20x -batches=1000,3000,10000,30000 >> $OUT/e2e.txt 2>&1
	done
done
