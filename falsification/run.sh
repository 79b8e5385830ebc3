#!/bin/bash
# Runs the falsification experiments on a GPU machine that has the driver and
# the CUDA tools but no Go: `make falsify-device` puts this script, the
# cuda-tagged test binary and the experiments' PTX in one folder. Every
# experiment is launched in a context of its own, then once more under
# compute-sanitizer memcheck (a child process per experiment, started by the
# test binary), and its outcome is compared with the recorded one.
set -u
cd "$(dirname "$0")"
out=${OUT:-/tmp}
export PATH=$PATH:/usr/local/cuda/bin
LZ4WARP_DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
export LZ4WARP_DRIVER
date -u +'date: %Y-%m-%d %H:%M UTC'
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
compute-sanitizer --version | tail -1
ptxas --version | tail -1

# The SASS of the kernels whose outcome hinges on code generation: whether
# the load of the no-barrier variants stays after the store, and what the
# mixed-up addresses become.
for id in F082-0 F082-3 F082-4 F082-5 F082-8 F081-2; do
	if ptxas -arch=sm_90 "ptx/$id.ptx" -o "/tmp/$id.cubin"; then
		echo "=== $id"
		cuobjdump -sass "/tmp/$id.cubin" | grep -E '^\s+/\*[0-9a-f]{4}\*/'
	fi
done >"$out/sass.txt" 2>&1

./falsification.test -test.run '^TestDevice$' -test.v 2>&1 | tee "$out/falsify.log"
status=${PIPESTATUS[0]}
grep -E '^falsification: experiments' "$out/falsify.log" || echo 'falsification: no summary (the test binary failed early)'
exit "$status"
