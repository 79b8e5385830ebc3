package falsification

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Checks FALS-10 and DOC-10: the verdicts follow from the benchmark lines:
// a run where the GPU decodes at 6 GB/s and the CPU at 55 falsifies none
// of the claims but "2000+ pages"; one where the GPU overtakes the CPU from
// 3,000 pages at 45 GB/s falsifies the GPU's and the CPU's figures.
func TestDecodeVerdicts(t *testing.T) {
	line := func(path, set string, batch int, gbps float64) string {
		return fmt.Sprintf("BenchmarkDecode/%s/%s/%d-16   \t       5\t   1000 ns/op\t %.2f MB/s\n", path, set, batch, gbps*1000)
	}
	var slow, fast strings.Builder
	for _, b := range []int{1000, 3000, 10000, 100000} {
		slow.WriteString(line("simd", "text", b, 55))
		slow.WriteString(line("gpubuf", "text", b, 6))
		fast.WriteString(line("simd", "text", b, 30))
		fast.WriteString(line("gpubuf", "text", b, map[bool]float64{true: 45, false: 20}[b >= 3000]))
	}
	run, err := ParseDecodeBench(strings.NewReader(slow.String()))
	if err != nil {
		t.Fatal(err)
	}
	if run["text"]["simd"][3000] != 55 || run.Crossover("text", "gpubuf") != 0 {
		t.Fatalf("parsed %v", run)
	}
	v := run.DecodeVerdicts()
	for i, want := range []string{"supported", "supported", "supported", "falsified"} {
		if !strings.Contains(v[i], ": "+want) {
			t.Errorf("slow GPU, verdict %d: %q, want %s", i, v[i], want)
		}
	}
	run, _ = ParseDecodeBench(strings.NewReader(fast.String()))
	if c := run.Crossover("text", "gpubuf"); c != 3000 {
		t.Errorf("crossover %d, want 3000", c)
	}
	v = run.DecodeVerdicts()
	for i, want := range []string{"falsified", "falsified", "falsified", "supported"} {
		if !strings.Contains(v[i], ": "+want) {
			t.Errorf("fast GPU, verdict %d: %q, want %s", i, v[i], want)
		}
	}
}

// TestDecodeClaims prints DOC-10's verdicts from the decode benchmarks'
// output in the file LZ4WARP_DECODE_BENCH (build/gpu/run.sh decode sets
// it); it skips without one.
func TestDecodeClaims(t *testing.T) {
	path := os.Getenv("LZ4WARP_DECODE_BENCH")
	if path == "" {
		t.Skip("no LZ4WARP_DECODE_BENCH")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	run, err := ParseDecodeBench(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(run) == 0 {
		t.Fatalf("%s holds no BenchmarkDecode line", path)
	}
	for _, v := range run.DecodeVerdicts() {
		fmt.Println("decode claim:", v)
	}
}
