#!/usr/bin/env bash
# The third device call (nvidia-h100-x1): where the GPU path's time goes
# when the command compresses a file: BenchmarkWriterFile (1 GiB of the
# mixed set from the page cache, simd, gpu and gpu-open, with and without
# the content checksum, 3 iterations each) and BenchmarkWriterHostStages
# (fill, hash and frame of one 32 MiB batch). Carries build/cli.
set -o pipefail
cd "$(dirname "$0")/../.."
B=build/cli
source $B/goroot.sh; setup_goroot >/dev/null
R=$OUT/r3; mkdir -p $R
T="taskset -c 0-15"
{ date -u; nproc; nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; } > $R/devices.txt
timeout 200 $T $B/lz4warp.test -test.run '^$' -test.bench 'WriterFile|WriterHostStages' -test.benchtime 3x > $R/bench.txt 2>&1
cat $R/devices.txt; grep -E '^Benchmark' $R/bench.txt | sed -E 's/ +/ /g'
cd $OUT && tar czf r3.tgz r3 && rm -rf r3
