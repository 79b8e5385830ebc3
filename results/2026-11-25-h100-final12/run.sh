#!/bin/bash
# The twelfth device run of 2026-11-25: the suite (final2/final.sh) at the
# session's last code (build/gpu, make gpu-binaries), then the
# falsification part five more times (Context.CopyHtoD now waits for the
# device before the experiments' kernels start).
# Usage: COMMIT=<c> run.sh; leaves $OUT/final12.tgz and $OUT/repeat.txt.
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
RUN=final12 results/2026-11-25-h100-final2/final.sh suite
for i in 1 2 3 4 5; do
	mkdir -p $OUT/rep$i
	OUT=$OUT/rep$i timeout 100 bash build/gpu/run.sh falsification 2>&1 | grep -E '^falsification:' >> $OUT/repeat.txt
	rm -rf $OUT/rep$i
done
cat $OUT/repeat.txt
