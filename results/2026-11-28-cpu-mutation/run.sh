#!/usr/bin/env bash
# The mutation runs recorded here, on the 2-vCPU development machine (shared
# with other builds), from a clean copy of the commit named in README.md,
# one file at a time. EVERY > 1 runs a sample: every EVERY-th mutant of the
# file, in the file's order. Output: <file with / as _>.txt per file.
set -u
OUT=${OUT:-.}
export PTXAS=${PTXAS:-$PWD/.cache/cuda/bin/ptxas}
for pair in config.go:1 rules.go:1 result.go:1 reference/page.go:1 internal/lz4frame/writer.go:1 \
	internal/fastlz4/decode.go:6 internal/lz4frame/reader.go:8 reference/block.go:6 \
	internal/fastlz4/encode.go:10 gpuimpl/kernel.go:50; do
	f=${pair%%:*} every=${pair##*:}
	go run ./internal/mutate -file "$f" -every "$every" > "$OUT/$(echo "$f" | tr / _).txt"
done
