#!/usr/bin/env bash
# The mutation runs recorded here: on the 2-vCPU development machine (shared
# with other builds), each from a clean copy (git archive) of the commit that
# README.md names, one file at a time, from the repository root.
# FILE:EVERY:SKIP: EVERY > 1 runs a sample (every EVERY-th mutant in the
# file's order); SKIP leaves out gpuimpl's tests (90 s a run here, the
# kernel on the CPU executor), which makes the score a lower bound.
set -u
OUT=${OUT:-.}
G=github.com/lz4warp/lz4warp/gpuimpl
for t in config.go:1: rules.go:1: result.go:1: internal/lz4frame/writer.go:1: \
	internal/lz4frame/reader.go:8: reference/page.go:1:$G reference/block.go:6:$G \
	internal/fastlz4/decode.go:12:$G internal/fastlz4/encode.go:20:$G; do
	IFS=: read -r f every skip <<<"$t"
	go run ./internal/mutate -file "$f" -every "$every" -skip "$skip" > "$OUT/$(echo "$f" | tr / _).txt"
done
