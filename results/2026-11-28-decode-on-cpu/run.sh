#!/usr/bin/env bash
# The decode kernel's sm_90 PTX on the CPU executor (GPU-11, EXEC-8): 100,000
# valid pages (canonical, pierrec/lz4 at every level, 25,000 liblz4 blocks of
# the lz4 command 1.9.4 at --fast=8, -1, -3, -9, -12) and 100,000 hostile
# payloads, each checked against fastlz4.DecodePage. Run on the 2-core
# development machine, 2026-11-28 ~00:31 UTC, at the kernel text of commit
# 99c8119 (unchanged since).
make decode-on-cpu DECODE_CPU_PAGES=100000
