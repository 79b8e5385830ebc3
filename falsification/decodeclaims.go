package falsification

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The documentation's decode claims (spec/upstream.md DOC-10), tested by the
// decode benchmarks of one run on the device (spec/falsification.md FALS-10).
const (
	// DocGPUDecodeGBps is the documentation's "~6 GB/s end-to-end" of the
	// GPU's decompression; a measure outside half to twice it falsifies it.
	DocGPUDecodeGBps = 6.0
	// DocCPUDecodeGBps is its "50+ GB/s" of the CPU's parallel decompression.
	DocCPUDecodeGBps = 50.0
	// DocDecodeBatch is its "2000+ pages" from which the GPU pays.
	DocDecodeBatch = 2000
)

// DecodeRun is the output bytes per second of one data set's batches, by
// path ("simd": the 16-core CPU; "gpu": the GPU into Go memory; "gpubuf":
// into a PageBuffer) and batch size, from BenchmarkDecode's lines.
type DecodeRun map[string]map[string]map[int]float64 // set, path, batch → GB/s

var decodeLine = regexp.MustCompile(`^BenchmarkDecode/(simd|gpu|gpubuf)/([\w-]+)/(\d+)(?:-\d+)?\s.*?\s([\d.]+) MB/s`)

// ParseDecodeBench reads BenchmarkDecode's lines of go test -bench output;
// a size measured more than once keeps its best figure.
func ParseDecodeBench(r io.Reader) (DecodeRun, error) {
	run := DecodeRun{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := decodeLine.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		batch, _ := strconv.Atoi(m[3])
		mbps, err := strconv.ParseFloat(m[4], 64)
		if err != nil {
			return nil, err
		}
		if run[m[2]] == nil {
			run[m[2]] = map[string]map[int]float64{}
		}
		if run[m[2]][m[1]] == nil {
			run[m[2]][m[1]] = map[int]float64{}
		}
		run[m[2]][m[1]][batch] = max(run[m[2]][m[1]][batch], mbps/1000)
	}
	return run, sc.Err()
}

// Crossover is the smallest measured batch from which path beats the CPU
// at every larger measured batch of set, or 0 when it never does.
func (r DecodeRun) Crossover(set, path string) int {
	gpu, cpu := r[set][path], r[set]["simd"]
	var sizes []int
	for b := range gpu {
		if _, ok := cpu[b]; ok {
			sizes = append(sizes, b)
		}
	}
	slices.Sort(sizes)
	cross := 0
	for i := len(sizes) - 1; i >= 0 && gpu[sizes[i]] > cpu[sizes[i]]; i-- {
		cross = sizes[i]
	}
	return cross
}

// DecodeVerdicts gives the verdict on each of DOC-10's claims from a run:
// the GPU's end-to-end figure (its best through a PageBuffer from 10,000
// pages), the CPU's (its best at any batch), and where the GPU overtakes
// the CPU. Each line says "supported" or "falsified" and the figures.
func (r DecodeRun) DecodeVerdicts() []string {
	sets := make([]string, 0, len(r))
	for s := range r {
		sets = append(sets, s)
	}
	slices.Sort(sets)
	var gpuBest, cpuBest float64
	var crossings []string
	pays := false
	for _, s := range sets {
		for b, v := range r[s]["gpubuf"] {
			if b >= 10000 {
				gpuBest = max(gpuBest, v)
			}
		}
		for _, v := range r[s]["simd"] {
			cpuBest = max(cpuBest, v)
		}
		c := r.Crossover(s, "gpubuf")
		pays = pays || c > 0
		crossings = append(crossings, fmt.Sprintf("%s %d", s, c))
	}
	verdict := func(ok bool) string {
		if ok {
			return "supported"
		}
		return "falsified"
	}
	return []string{
		fmt.Sprintf("GPU end to end ~%.0f GB/s: %s (best through a PageBuffer from 10,000 pages: %.1f GB/s)",
			DocGPUDecodeGBps, verdict(gpuBest >= DocGPUDecodeGBps/2 && gpuBest <= 2*DocGPUDecodeGBps), gpuBest),
		fmt.Sprintf("CPU %.0f+ GB/s: %s (best of the 16-core CPU: %.1f GB/s)",
			DocCPUDecodeGBps, verdict(cpuBest >= DocCPUDecodeGBps), cpuBest),
		fmt.Sprintf("the CPU faster than the GPU: %s", verdict(!pays)),
		fmt.Sprintf("the GPU pays from %d+ pages: %s (crossover by set, 0 for never: %s)",
			DocDecodeBatch, verdict(r.paysFrom(DocDecodeBatch)), strings.Join(crossings, ", ")),
	}
}

// paysFrom reports whether, on every set, the GPU through a PageBuffer
// beats the CPU at every measured batch from the first of at least n pages
// on, and at no batch of half of n or fewer.
func (r DecodeRun) paysFrom(n int) bool {
	if len(r) == 0 {
		return false
	}
	for s := range r {
		first := 0
		for b := range r[s]["gpubuf"] {
			if b >= n && (first == 0 || b < first) {
				first = b
			}
		}
		if c := r.Crossover(s, "gpubuf"); c == 0 || c > first {
			return false
		}
		for b, v := range r[s]["gpubuf"] {
			if b <= n/2 && v > r[s]["simd"][b] {
				return false
			}
		}
	}
	return true
}
