#!/bin/bash
# The second and third device runs of 2026-11-25 (RUN=final2, final3): the
# suite on the kernel as merged (part 1), then the benchmarks and the
# pipeline timelines (part 2). Binaries: make gpu-binaries (build/gpu).
# Usage: [RUN=name] final.sh suite|bench; each part leaves a tar of
# $OUT/$RUN (a run returns a limited number of files).
RUN=${RUN:-final2}
O=$OUT/$RUN; mkdir -p $O
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
case $1 in
suite)
	echo "commit $COMMIT" > $O/start.txt
	date -u >> $O/start.txt
	OUT=$O RAPID_CHECKS=30 timeout 420 bash build/gpu/run.sh devices cudart engine faults conformance sanitizer features falsification cli > $O/suite.log 2>&1
	date -u >> $O/start.txt
	sed -n '/=== summary/,$p' $O/suite.log
	tar czf $OUT/$RUN.tgz -C $OUT $RUN
	;;
bench)
	date -u >> $O/start.txt
	OUT=$O BENCH='EndToEnd|GPUKernel|PinnedH2D' BENCHTIME=5x timeout 330 bash build/gpu/run.sh bench > $O/bench-run.log 2>&1
	date -u >> $O/start.txt
	source scripts/gpu-goroot.sh
	setup_goroot
	(cd gpuimpl && GODEBUG=gctrace=1 timeout 60 ../build/gpu/gpuimpl.test -test.run '^$' -test.bench Pipeline -test.benchtime 20x -test.v > $O/pipeline.txt 2>&1)
	date -u >> $O/start.txt
	sed -n '/=== summary/,$p' $O/bench-run.log
	grep -c '^Benchmark' $O/bench.txt
	tar czf $OUT/$RUN.tgz -C $OUT $RUN
	;;
esac
