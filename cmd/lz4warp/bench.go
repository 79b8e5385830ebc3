package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lz4warp/lz4warp"
	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/svgplot"
)

// benchPoint is one measurement: a backend on a dataset at a batch size.
type benchPoint struct {
	backend, dataset string
	batch            int
	ran              map[lz4warp.Backend]int // calls per backend that ran
	pages            int
	in, out          int64
	total            time.Duration // sum of BatchResult.TotalTime
	h2d, kernel, d2h time.Duration
	pcieOK, calls    int                   // calls whose BatchResult.PCIeRuleSatisfied held, all calls
	devices          []lz4warp.DeviceStats // per GPU, over the point's batches (MD-8)
}

func (p *benchPoint) gbps() float64 {
	if p.total <= 0 {
		return 0
	}
	return float64(p.in) / p.total.Seconds() / 1e9
}

func (p *benchPoint) ratio() float64 {
	if p.out == 0 {
		return 1
	}
	return float64(p.in) / float64(p.out)
}

// ranOn names the backends that ran.
func (p *benchPoint) ranOn() string {
	var parts []string
	for _, b := range []lz4warp.Backend{lz4warp.BackendGPU, lz4warp.BackendSIMD, lz4warp.BackendScalar} {
		if p.ran[b] > 0 {
			parts = append(parts, b.String())
		}
	}
	return strings.Join(parts, "+")
}

// ranAs reports whether every call ran on the requested backend; auto
// always does. A "gpu" point whose batch fell back to the CPU after a GPU
// fault (API-15) is left out of the gpu line of the plot.
func (p *benchPoint) ranAs() bool {
	if p.backend == "auto" {
		return true
	}
	for b, n := range p.ran {
		if n > 0 && b.String() != p.backend {
			return false
		}
	}
	return true
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// runBench measures every backend on every dataset at every batch size
// (CLI-13): a table on stdout and an SVG plot of throughput against batch
// size per backend, SelectBackend's thresholds marked.
func runBench(e *env, args []string) error {
	fs := newFlags(e, "bench", "")
	data := fs.String("data", strings.Join(dataset.Names(), ","), "datasets (comma-separated): "+strings.Join(dataset.Names(), ", ")+", or file paths")
	backends := fs.String("backends", strings.Join(availableBackends(), ","), "backends (comma-separated): scalar, simd, gpu, auto")
	batches := fs.String("batches", "1,4,16,64,256,1000,4096", "batch sizes in pages (comma-separated)")
	pages := fs.Int("pages", 4096, "pages per dataset")
	minTime := fs.Duration("time", 200*time.Millisecond, "least compression time per point (each point compresses its dataset at least once)")
	svgPath := fs.String("svg", "", "SVG plot to write (- for stdout; none unless given)")
	var devs deviceChoice
	fs.Var(&devs, "devices", "GPUs to use: all, or indexes such as 0,1 (default: device 0)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *pages < 1 {
		return usagef("-pages %d: want at least 1", *pages)
	}
	var sizes []int
	for _, s := range splitList(*batches) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxBatch {
			return usagef("-batches: %q is not a page count from 1 to %d", s, maxBatch)
		}
		sizes = append(sizes, n)
	}
	bks := splitList(*backends)
	for _, b := range bks {
		if b != "scalar" && b != "simd" && b != "gpu" && b != "auto" {
			return usagef("-backends: unknown backend %q", b)
		}
	}
	sets := splitList(*data)
	if len(sizes) == 0 || len(bks) == 0 || len(sets) == 0 {
		return usagef("-data, -backends and -batches must each name at least one")
	}
	loaded := map[string][]lz4warp.Page{}
	for _, name := range sets {
		pg, err := loadPages(name, *pages)
		if err != nil {
			return err
		}
		loaded[name] = pg
	}
	// With the plot on stdout, the table goes to stderr, so that stdout
	// holds one SVG document.
	table := e.stdout
	if *svgPath == "-" {
		table = e.stderr
	}
	gpu := lz4warp.GPUAvailable()
	fmt.Fprintf(table, "lz4warp bench: up to %d pages per dataset; GPU available: %v; SelectBackend: gpu from %d pages, simd below\n",
		*pages, gpu, lz4warp.GPUMinBatch)
	if devs.chosen() {
		fmt.Fprintf(table, "devices: %s; under each GPU point on several, one line per device (the point's row is the total)\n", devs.String())
	}
	var points []*benchPoint
	dw := len("dataset")
	for _, name := range sets {
		dw = max(dw, len(name))
	}
	header := fmt.Sprintf("%-7s %-*s %6s %-11s %8s %8s %8s", "backend", dw, "dataset", "batch", "ran on", "pages", "GB/s", "ratio")
	if gpu {
		header += fmt.Sprintf(" %9s %9s %9s  %s", "H2D ms", "kernel ms", "D2H ms", "PCIe 5x")
	}
	fmt.Fprintln(table, header)
	for _, b := range bks {
		for _, name := range sets {
			for _, size := range sizes {
				if err := e.ctx.Err(); err != nil {
					return err
				}
				p, err := measure(b, name, loaded[name], size, *minTime, devs)
				if err != nil {
					return err
				}
				points = append(points, p)
				fmt.Fprintln(table, benchRow(p, dw, gpu))
				if p.ran[lz4warp.BackendGPU] > 0 && len(p.devices) > 1 {
					printDeviceStats(table, "    ", p.devices)
				}
			}
		}
	}
	if *svgPath != "" {
		if err := writeBenchSVG(e, *svgPath, points, sets, bks); err != nil {
			return err
		}
		fmt.Fprintf(table, "plot: %s\n", *svgPath)
	}
	return nil
}

// benchRow is a point's table row; with gpu, the GPU columns too.
func benchRow(p *benchPoint, dw int, gpu bool) string {
	row := fmt.Sprintf("%-7s %-*s %6d %-11s %8d %8.3f %8.3f", p.backend, dw, p.dataset, p.batch, p.ranOn(), p.pages, p.gbps(), p.ratio())
	if gpu {
		row += fmt.Sprintf(" %9.3f %9.3f %9.3f  %s", msf(p.h2d), msf(p.kernel), msf(p.d2h), pcieVerdict(p))
	}
	return row
}

func msf(d time.Duration) float64 { return d.Seconds() * 1e3 }

// pcieVerdict applies API-5 to the point's summed GPU times, and says in
// how many of its calls it held.
func pcieVerdict(p *benchPoint) string {
	if p.ran[lz4warp.BackendGPU] == 0 {
		return "-"
	}
	r := lz4warp.BatchResult{H2DTime: p.h2d, KernelTime: p.kernel, D2HTime: p.d2h}
	v := "no"
	if r.PCIeRuleSatisfied() {
		v = "yes"
	}
	return fmt.Sprintf("%s (%d/%d)", v, p.pcieOK, p.calls)
}

// measure compresses batches of exactly size pages, taken cyclically from
// pages, until the whole set was compressed once and minTime of
// compression has passed.
func measure(backend, name string, pages []lz4warp.Page, size int, minTime time.Duration, devs deviceChoice) (*benchPoint, error) {
	pc, err := newPageCompressor(backend, size, devs)
	if err != nil {
		return nil, err
	}
	defer pc.Close()
	p := &benchPoint{backend: backend, dataset: name, batch: size, ran: map[lz4warp.Backend]int{}}
	buf := make([]lz4warp.Page, size)
	next := 0
	for p.pages < len(pages) || p.total < minTime {
		for i := range buf {
			buf[i] = pages[next]
			next = (next + 1) % len(pages)
		}
		res, err := pc.compress(buf)
		if err != nil {
			return nil, fmt.Errorf("%s on %s, batch %d: %w", backend, name, size, err)
		}
		p.ran[res.Backend]++
		p.calls++
		p.pages += size
		p.in += int64(size) * lz4warp.PageSize
		for _, cp := range res.Pages {
			p.out += int64(len(cp.Data))
		}
		p.total += res.TotalTime
		p.h2d += res.H2DTime
		p.kernel += res.KernelTime
		p.d2h += res.D2HTime
		if res.PCIeRuleSatisfied() {
			p.pcieOK++
		}
	}
	p.devices = pc.c.Stats().Devices
	return p, nil
}

// writeBenchSVG draws one panel per dataset, one line per backend, with
// SelectBackend's threshold (API-3) as a marker.
func writeBenchSVG(e *env, path string, points []*benchPoint, sets, backends []string) error {
	fig := &svgplot.Figure{
		Title:  "lz4warp compression throughput by batch size",
		XLabel: "batch size (pages, log scale)", YLabel: "GB/s", LogX: true,
	}
	markers := []svgplot.Marker{
		{X: lz4warp.GPUMinBatch, Label: fmt.Sprintf("gpu ≥ %d", lz4warp.GPUMinBatch)},
	}
	for _, name := range sets {
		panel := svgplot.Panel{Title: name, Markers: markers}
		for _, b := range backends {
			s := svgplot.Series{Name: b}
			for _, p := range points {
				if p.dataset == name && p.backend == b && p.ranAs() {
					s.Points = append(s.Points, svgplot.Point{X: float64(p.batch), Y: p.gbps()})
				}
			}
			panel.Series = append(panel.Series, s)
		}
		fig.Panels = append(fig.Panels, panel)
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	var sb strings.Builder
	if err := fig.Write(&sb); err != nil {
		return err
	}
	out, err := createOutput(e, path, true, 0o644)
	if err != nil {
		return err
	}
	defer out.abort()
	if _, err := io.WriteString(out.w, sb.String()); err != nil {
		return err
	}
	return out.commit(time.Time{})
}

// loadPages loads a dataset by name, or the pages of a file when name is an
// existing path (the last page padded with zeros).
func loadPages(name string, n int) ([]lz4warp.Page, error) {
	if fi, err := os.Stat(name); err == nil && fi.Mode().IsRegular() {
		return filePages(name, n)
	}
	return dataset.Load(name, n)
}

func filePages(path string, n int) ([]lz4warp.Page, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var pages []lz4warp.Page
	for len(pages) < n {
		var p lz4warp.Page
		k, err := io.ReadFull(f, p[:])
		if k > 0 {
			pages = append(pages, p)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("%s is empty", path)
	}
	return pages, nil
}
