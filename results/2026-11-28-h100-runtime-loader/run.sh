#!/usr/bin/env bash
# The device run that checked the run-time driver loader (RT-16) on an H100:
# built here with `make gpu-binaries` at ecc7c2e, run there from the repository
# root with build/gpu carried. Date 2026-11-28 ~00:40 UTC; device NVIDIA H100
# 80GB HBM3, driver 580.159.04, PCIe Gen5 x16.
set -o pipefail
B=build/gpu
# No library, and a real driver whose cuInit fails (no visible device):
LZ4WARP_CUDA_LIBRARY=/nonexistent/libcuda.so.1 $B/lz4warp devices; echo rc=$?
CUDA_VISIBLE_DEVICES= $B/lz4warp devices; echo rc=$?
head -c 50000000 /dev/urandom > /tmp/r.bin
CUDA_VISIBLE_DEVICES= $B/lz4warp compress -o - /tmp/r.bin > /tmp/r.lz4; echo compress rc=$?
CUDA_VISIBLE_DEVICES= $B/lz4warp decompress -o - /tmp/r.lz4 | cmp - /tmp/r.bin && echo roundtrip-ok
# The whole GPU suite and the benchmarks:
$B/lz4warp devices
BENCHTIME=5x bash $B/run.sh 2>&1 | tee $OUT/suite.log
