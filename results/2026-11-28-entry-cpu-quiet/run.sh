#!/usr/bin/env bash
# The CPU entry points from 1 to 2 cores on the quiet 2-core development machine (issue 25's 1.8x):
# CompressBatch (simd, and CompressBatchInto: simd-into) and DecompressBatch at 100,000 pages.
go test -run '^$' -bench 'Scaling(Compress|Decompress)/simd/(text|mixed)/' -cpu 1,2 -benchtime 3x -count 2 . |
	grep -E '^Benchmark' | awk '{print $1, $3, $5}'
