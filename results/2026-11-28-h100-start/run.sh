#!/usr/bin/env bash
# One device call (nvidia-h100-x1): the start of a GPU Compressor in fresh
# processes, part by part (probe -mode start, twice: the driver's JIT cache
# cold, then warm), one core's work over 1 to 16 cores with no memory
# traffic (probe -mode alu) and on 16 pages kept in cache (-mode page), and
# the fault and decode API tests (run.sh faults decode-api). Built here by:
#   go test -c -ldflags='-s -w' -o build/start/lz4warp.test .
#   go build -ldflags='-s -w' -o build/start/probe ./results/2026-11-28-h100-start/probe
#   cp scripts/gpu-run.sh build/start/run.sh; cp scripts/gpu-goroot.sh build/start/goroot.sh
cd "$(dirname "$0")/../.."
B=build/start
source $B/goroot.sh; setup_goroot >/dev/null
nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader
ls -d ~/.nv/ComputeCache 2>/dev/null; env | grep -i '^CUDA_CACHE' 
for i in 1 2; do echo "== start run $i"; timeout 60 $B/probe -mode start; done
echo "== start run 3, the JIT cache off"; CUDA_CACHE_DISABLE=1 timeout 60 $B/probe -mode start
timeout 120 taskset -c 0-15 $B/probe -mode alu
timeout 120 taskset -c 0-15 $B/probe -mode page
OUT=$OUT/tests timeout 300 bash $B/run.sh faults decode-api 2>&1 | tail -n 40
