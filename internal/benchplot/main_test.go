package main

import (
	"strings"
	"testing"
)

const sample = `goos: linux
BenchmarkGPUKernel/gpu/mixed/1000-16   10   738214 ns/op   5548.53 MB/s   58.39 kernel-GB/s
BenchmarkEndToEnd/gpubuf/mixed/1000-16   10   159214 ns/op   25726.40 MB/s   2.409 ratio
BenchmarkEndToEnd/simd/mixed/1000-16   10   1  ns/op   3835.0 MB/s   2.409 ratio
BenchmarkEndToEnd/simd/mixed/10000-16   10   1  ns/op   6906.0 MB/s   2.387 ratio
BenchmarkEndToEnd/simd/mixed/oops-16   10   1  ns/op   1.0 MB/s
PASS
`

func TestTableFromBenchOutput(t *testing.T) {
	r := results{}
	if err := parse(strings.NewReader(sample), r); err != nil {
		t.Fatal(err)
	}
	if len(r) != 4 {
		t.Fatalf("parsed %d results, want 4 (the line with a batch that is no number skipped)", len(r))
	}
	var b strings.Builder
	r.table(&b, []int{1000, 10000})
	want := "| mixed | 58.4 / - | 25.7 / - | - / - | 3.8 / 6.9 | 2.409 / 2.387 |"
	if !strings.Contains(b.String(), want) {
		t.Errorf("table lacks %q:\n%s", want, b.String())
	}
	var svg strings.Builder
	if err := r.figure("t").Write(&svg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(svg.String(), ">mixed<") {
		t.Error("the plot has no panel for the mixed set")
	}
}
