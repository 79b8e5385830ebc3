#!/bin/bash
# The streams on a GPU host, from the folder `make cli-h100` fills: the
# Writer's GPU path against its CPU path (TestWriterGPUSameBytes) with the
# other stream tests, then the stream benchmarks (BenchmarkWriter gpu and
# simd rows, BenchmarkStreamReader). No Go needed: goroot.sh gives the
# text and binaries data sets a stand-in.
#   bash build/cli-h100/streams-gpu.sh
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/goroot.sh"
setup_goroot
export LZ4=$HERE/lz4
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}${LD_LIBRARY_PATH:+:}$HERE/lib
LZ4WARP_REQUIRE_GPU=1 "$HERE/lz4warp.test" -test.count=1 -test.v -test.run 'Writer|Stream|Reader' 2>&1 | grep -E '^(---|ok|FAIL|PASS)|_test.go'
# BenchmarkWriter reports its stages as percentages of the wall time
# (fill-%, freewait-%, hash-%, start-%, gpuwait-%, frame-%, write-%);
# BenchmarkWriterHostStages the host's work on one GPU batch.
"$HERE/lz4warp.test" -test.run '^$' -test.bench 'Writer|StreamReader' -test.benchtime 5x
