#!/usr/bin/env bash
# Builds what run1.sh and run2.sh carry: make gpu-pack (build/pack/gpu.tgz:
# build/gpu's test binaries, the command, lz4 and its liblz4, the stream
# scripts) with, inside it, the gpuimpl test binaries of two earlier
# kernels for a same-run comparison: kernel-v1.test (parse v1, 22108e5) and
# kernel-v2.test (parse v2 as first measured, 4c99a89).
set -eu
make gpu-binaries
for v in 22108e5:kernel-v1 4c99a89:kernel-v2; do
	c=${v%%:*} t=$(mktemp -d)
	git archive "$c" | tar -x -C "$t"
	(cd "$t" && go test -c -ldflags='-s -w' -o "$OLDPWD/build/gpu/${v##*:}.test" ./gpuimpl)
	rm -rf "$t"
done
make gpu-pack
