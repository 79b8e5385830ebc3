// Command benchplot turns recorded output of the root package's benchmarks
// (BenchmarkEndToEnd, BenchmarkEndToEndAsync, BenchmarkGPUKernel, one run's
// bench.txt under results/) into the throughput plot of the README and the
// figures table of results/README.md, so that both come from the run itself.
// `make plots` runs it.
//
//	go run ./internal/benchplot -in results/RUN/bench.txt -svg results/plots/h100.svg -table
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lz4warp/lz4warp/internal/svgplot"
)

// A column is one measured quantity: the benchmark's family and backend,
// and the metric read from its line.
type column struct {
	title, family, backend, metric string
}

// columns are the figures shown, GB/s of input pages but for the ratio.
var columns = []column{
	{"GPU kernel (GB/s)", "GPUKernel", "gpu", "kernel-GB/s"},
	{"GPU end to end, one PageBuffer (GB/s)", "EndToEnd", "gpubuf", "MB/s"},
	{"GPU end to end, 4 buffers in turn (GB/s)", "EndToEndAsync", "gpuasync4", "MB/s"},
	{"CPU, simd on every core (GB/s)", "EndToEnd", "simd", "MB/s"},
	{"ratio", "EndToEnd", "simd", "ratio"},
}

// key names one benchmark result.
type key struct {
	family, backend, set string
	batch                int
}

// results holds, per benchmark, its metrics by unit (the last line wins).
type results map[key]map[string]float64

// parse reads `go test -bench` output; lines that are not benchmark results
// are skipped.
func parse(r io.Reader, into results) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := f[0][len("Benchmark"):]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			name = name[:i] // the GOMAXPROCS suffix
		}
		parts := strings.Split(name, "/")
		if len(parts) != 4 {
			continue
		}
		batch, err := strconv.Atoi(parts[3])
		if err != nil {
			continue
		}
		k := key{parts[0], parts[1], parts[2], batch}
		m := map[string]float64{}
		for i := 2; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				m[f[i+1]] = v
			}
		}
		into[k] = m
	}
	return sc.Err()
}

// value gives column c of set at batch, in the column's unit, and whether it
// was measured.
func (r results) value(c column, set string, batch int) (float64, bool) {
	v, ok := r[key{c.family, c.backend, set, batch}][c.metric]
	if ok && c.metric == "MB/s" {
		v /= 1000
	}
	return v, ok
}

// sets and batches list what the results hold, in the benchmarks' order of
// data sets and in increasing batch size.
func (r results) sets() []string {
	order := []string{"zeros", "text", "binaries", "random", "mixed", "coredump"}
	var out []string
	for _, s := range order {
		for k := range r {
			if k.set == s {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

func (r results) batches() []int {
	var out []int
	for k := range r {
		if !slices.Contains(out, k.batch) {
			out = append(out, k.batch)
		}
	}
	slices.Sort(out)
	return out
}

// table writes results/README.md's table: a row per data set, each cell the
// figures at the listed batch sizes.
func (r results) table(w io.Writer, batches []int) {
	var head []string
	for _, b := range batches {
		head = append(head, strconv.Itoa(b))
	}
	fmt.Fprintf(w, "Pages per batch: %s.\n\n", strings.Join(head, " / "))
	fmt.Fprint(w, "| set |")
	for _, c := range columns {
		fmt.Fprintf(w, " %s |", c.title)
	}
	fmt.Fprint(w, "\n| --- |")
	for range columns {
		fmt.Fprint(w, " --- |")
	}
	fmt.Fprintln(w)
	for _, s := range r.sets() {
		fmt.Fprintf(w, "| %s |", s)
		for _, c := range columns {
			var cells []string
			for _, b := range batches {
				if v, ok := r.value(c, s, b); ok {
					prec := 1
					if c.metric == "ratio" {
						prec = 3
					}
					cells = append(cells, strconv.FormatFloat(v, 'f', prec, 64))
				} else {
					cells = append(cells, "-")
				}
			}
			fmt.Fprintf(w, " %s |", strings.Join(cells, " / "))
		}
		fmt.Fprintln(w)
	}
}

// figure draws one panel per data set, one line per GB/s column.
func (r results) figure(title string) *svgplot.Figure {
	fig := &svgplot.Figure{Title: title, XLabel: "batch size (pages, log scale)", YLabel: "GB/s", LogX: true, Columns: 3}
	for _, s := range r.sets() {
		p := svgplot.Panel{Title: s}
		for _, c := range columns {
			if c.metric == "ratio" {
				continue
			}
			line := svgplot.Series{Name: c.title[:strings.Index(c.title, " (")]}
			for _, b := range r.batches() {
				if v, ok := r.value(c, s, b); ok {
					line.Points = append(line.Points, svgplot.Point{X: float64(b), Y: v})
				}
			}
			p.Series = append(p.Series, line)
		}
		fig.Panels = append(fig.Panels, p)
	}
	return fig
}

func main() {
	in := flag.String("in", "", "benchmark output (go test -bench) to read")
	svg := flag.String("svg", "", "write the plot here")
	title := flag.String("title", "lz4warp throughput by batch size", "the plot's title")
	table := flag.Bool("table", false, "print the markdown table of results/README.md")
	flag.Parse()
	if err := run(*in, *svg, *title, *table); err != nil {
		fmt.Fprintln(os.Stderr, "benchplot:", err)
		os.Exit(1)
	}
}

func run(in, svg, title string, table bool) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	r := results{}
	if err := parse(f, r); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if len(r) == 0 {
		return fmt.Errorf("%s: no benchmark results", in)
	}
	if table {
		r.table(os.Stdout, []int{1000, 10000, 100000})
	}
	if svg == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(svg), 0o755); err != nil {
		return err
	}
	var sb strings.Builder
	if err := r.figure(title).Write(&sb); err != nil {
		return err
	}
	return os.WriteFile(svg, []byte(sb.String()), 0o644)
}
