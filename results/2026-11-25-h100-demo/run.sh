#!/bin/bash
# Device run of 2026-11-25 (afternoon): the demo (make demo's job, CLI-14)
# with its auto+async run, and the engine and faults parts of the suite
# (build/gpu, make gpu-binaries; PARTS chooses). Usage: COMMIT=<c> run.sh; leaves
# $OUT/demo/.
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
mkdir -p $OUT/demo
echo "commit $COMMIT" > $OUT/demo/start.txt
date -u >> $OUT/demo/start.txt
OUT=$OUT/demo timeout 300 bash build/gpu/run.sh ${PARTS:-cli engine faults} > $OUT/demo/suite.log 2>&1
date -u >> $OUT/demo/start.txt
sed -n '/=== summary/,$p' $OUT/demo/suite.log
sed -n '/backend auto+buffer/,$p' $OUT/demo/cli.log
