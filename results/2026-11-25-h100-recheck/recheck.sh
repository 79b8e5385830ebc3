#!/bin/bash
# After the decoder merge and the falsification record change: the suite parts again.
O=$OUT/recheck; mkdir -p $O
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
echo "commit $COMMIT" > $O/start.txt; date -u >> $O/start.txt
OUT=$O RAPID_CHECKS=30 timeout 200 bash build/gpu/run.sh devices engine faults conformance features falsification cli > $O/suite.log 2>&1
date -u >> $O/start.txt
sed -n '/=== summary/,$p' $O/suite.log
grep -h "F082-8\|F081-2" $O/falsification.log | grep "output" 
tar czf $OUT/recheck.tgz -C $OUT recheck
