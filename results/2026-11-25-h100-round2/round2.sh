#!/bin/bash
# Second round of the public PageBuffer path, 20 batches each, with the same run's pinned H2D.
O=$OUT/round2; mkdir -p $O
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
echo "commit $COMMIT" > $O/start.txt; date -u >> $O/start.txt
OUT=$O BENCH='PinnedH2D/64MiB$|EndToEnd/gpubuf/' BENCHTIME=20x BATCHES=10000,30000,100000 timeout 150 bash build/gpu/run.sh bench > $O/bench-run.log 2>&1
date -u >> $O/start.txt
grep -h '^Benchmark' $O/bench.txt | awk '{print $1, $5, $6, $7, $8}'
tar czf $OUT/round2.tgz -C $OUT round2
