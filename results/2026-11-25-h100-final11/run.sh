#!/bin/bash
# The eleventh device run of 2026-11-25: the suite (final2/final.sh) at the
# session's last engine code (build/gpu, make gpu-binaries).
# Usage: COMMIT=<c> run.sh; leaves $OUT/final11.tgz.
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
RUN=final11 results/2026-11-25-h100-final2/final.sh suite
