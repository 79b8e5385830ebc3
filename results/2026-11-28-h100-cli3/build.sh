#!/usr/bin/env bash
# Builds build/cli for run.sh: the root package's test binary and the
# command at HEAD, the command at c691a6e (before API-28/STREAM-6) as the
# baseline, the lz4 command and the scripts.
set -eu
cd "$(dirname "$0")/../.."
B=build/cli
rm -rf $B; mkdir -p $B/lib
go test -c -ldflags='-s -w' -o $B/lz4warp.test .
go build -ldflags='-s -w' -o $B/lz4warp ./cmd/lz4warp
t=$(mktemp -d); git archive c691a6e | tar -x -C "$t"
(cd "$t" && go build -ldflags='-s -w' -o "$OLDPWD/$B/lz4warp-c691a6e" ./cmd/lz4warp); rm -rf "$t"
make --no-print-directory lz4-tool >/dev/null
LZ4=$(command -v lz4 || ls .cache/lz4/usr/bin/lz4)
cp "$LZ4" $B/lz4
for l in $(ldd "$LZ4" | awk '/=>/ && $1 ~ /liblz4/ {print $3}'); do cp "$l" $B/lib/; done
cp scripts/cli-h100.sh scripts/streams-gpu.sh $B/; cp scripts/gpu-goroot.sh $B/goroot.sh
du -sh $B
