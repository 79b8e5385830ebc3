#!/bin/bash
# Device run of 2026-11-25 (afternoon): batches started without waiting
# (RT-15, Engine.StartHost): the engine tests, then BenchmarkStartHost, a
# stream of direct batches of one size with 1, 2 or 4 on their way.
# Binaries: make gpu-binaries (build/gpu). Usage: COMMIT=<c> run.sh;
# leaves $OUT/starthost.tgz.
R=starthost
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
O=$OUT/$R; mkdir -p $O
echo "commit $COMMIT" > $O/start.txt
date -u >> $O/start.txt
source scripts/gpu-goroot.sh
setup_goroot
(cd gpuimpl && timeout 240 ../build/gpu/gpuimpl.test -test.v -test.count=1 -test.run 'TestEngine' > $O/engine.log 2>&1; echo "engine exit $?" >> $O/start.txt)
grep -E '^(--- |ok|FAIL|PASS)' $O/engine.log | grep -v '^--- PASS' | tail -20
date -u >> $O/start.txt
(cd gpuimpl && timeout 300 ../build/gpu/gpuimpl.test -test.run '^$' -test.bench 'StartHost' -test.benchtime 40x > $O/bench.txt 2>&1; echo "bench exit $?" >> $O/start.txt)
date -u >> $O/start.txt
grep -c '^Benchmark' $O/bench.txt
cat $O/start.txt
tar czf $OUT/$R.tgz -C $OUT $R
