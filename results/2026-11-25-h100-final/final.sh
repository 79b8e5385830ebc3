#!/bin/bash
# The final device run of 2026-11-25: the suite, the benchmarks, the pipeline timelines.
O=$OUT/final; mkdir -p $O
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
echo "commit $COMMIT" > $O/start.txt
date -u >> $O/start.txt
OUT=$O RAPID_CHECKS=30 timeout 200 bash build/gpu/run.sh devices cudart engine faults conformance sanitizer features falsification cli > $O/suite.log 2>&1
date -u >> $O/start.txt
OUT=$O BENCH='EndToEnd|GPUKernel|PinnedH2D' BENCHTIME=5x timeout 240 bash build/gpu/run.sh bench > $O/bench-run.log 2>&1
date -u >> $O/start.txt
(cd gpuimpl && GOROOT=/tmp/lz4warp-goroot timeout 50 ../build/gpu/gpuimpl.test -test.run '^$' -test.bench Pipeline -test.benchtime 20x -test.v > $O/pipeline.txt 2>&1)
date -u >> $O/start.txt
sed -n '/=== summary/,$p' $O/suite.log
sed -n '/=== summary/,$p' $O/bench-run.log
grep -c '^Benchmark' $O/bench.txt
tar czf $OUT/final.tgz -C $OUT final
