package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp"
)

// Checks CLI-12: each device's fields, optimal batch and support.
func TestPrintDevices(t *testing.T) {
	var buf bytes.Buffer
	printDevices(&buf, []lz4warp.DeviceInfo{
		{Index: 0, Name: "NVIDIA H100 80GB HBM3", TotalMemory: 80 << 30, L2CacheSize: 50 << 20, ComputeCapability: [2]int{9, 0}},
		{Index: 1, Name: "Tesla P100", TotalMemory: 16 << 30, L2CacheSize: 4 << 20, ComputeCapability: [2]int{6, 0}},
	}, nil)
	out := buf.String()
	for _, want := range []string{
		"device 0: NVIDIA H100 80GB HBM3", "compute capability 9.0, cuda backend, supported", "memory 80.0 GiB, L2 cache 50.0 MiB",
		"optimal batch 10240 pages", "device 1: Tesla P100", "6.0, cuda backend, not supported (compute capability below 7.0)", "optimal batch 819 pages",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("devices output lacks %q:\n%s", want, out)
		}
	}
	buf.Reset()
	printDevices(&buf, nil, nil)
	if buf.String() != "no CUDA GPU: the CUDA driver reports no device\nthe CPU backends (scalar, simd) will be used\n" {
		t.Errorf("no device: %q", buf.String())
	}
	buf.Reset()
	printDevices(&buf, nil, fmt.Errorf("%w: %w", lz4warp.ErrGPUNotAvailable, lz4warp.ErrNoDriver))
	if want := "no CUDA GPU: " + lz4warp.ErrGPUNotAvailable.Error() + ": " + lz4warp.ErrNoDriver.Error() + "\n"; !strings.HasPrefix(buf.String(), want) {
		t.Errorf("no driver: %q, want it to start %q", buf.String(), want)
	}
}

// Checks CLI-13: the GPU columns of a bench row, and the PCIe verdict of
// API-5 on the summed times.
func TestBenchRowGPU(t *testing.T) {
	p := &benchPoint{backend: "gpu", dataset: "text", batch: 4096, pages: 8192, in: 8192 * 4096, out: 8192 * 2048,
		total: 10 * time.Millisecond, h2d: time.Millisecond, kernel: 11 * time.Millisecond, d2h: time.Millisecond,
		ran: map[lz4warp.Backend]int{lz4warp.BackendGPU: 2}, pcieOK: 1, calls: 2}
	row := benchRow(p, 7, true)
	for _, want := range []string{"gpu", "4096", "3.355", "2.000", "1.000", "11.000", "yes (1/2)"} {
		if !strings.Contains(row, want) {
			t.Errorf("row %q lacks %q", row, want)
		}
	}
	p.kernel = 10 * time.Millisecond // equal sides: not strictly greater
	if row := benchRow(p, 7, true); !strings.Contains(row, "no (1/2)") {
		t.Errorf("kernel = 5 × transfers: %q, want no", row)
	}
	p.ran = map[lz4warp.Backend]int{lz4warp.BackendSIMD: 2}
	if row := benchRow(p, 7, true); !strings.HasSuffix(row, "  -") {
		t.Errorf("a point that never ran on the GPU: %q, want -", row)
	}
}

// Checks CLI-14: the GPU line of the demo's report.
func TestDemoReportGPU(t *testing.T) {
	r := &demoResult{backend: "gpu", call: "CompressBatch", ran: map[lz4warp.Backend]int{}, decompress: time.Millisecond, verified: true}
	same := []lz4warp.CompressedPage{{Kind: lz4warp.KindSame, Data: make([]byte, 8)}}
	r.add(&lz4warp.BatchResult{Pages: same, Backend: lz4warp.BackendGPU, TotalTime: time.Millisecond,
		H2DTime: time.Millisecond, KernelTime: 20 * time.Millisecond, D2HTime: 2 * time.Millisecond})
	// A batch too small for the GPU, as the last of a run often is, counts
	// in the calls but not in the PCIe rule's.
	r.add(&lz4warp.BatchResult{Pages: same, Backend: lz4warp.BackendSIMD, TotalTime: time.Millisecond})
	var buf bytes.Buffer
	printDemoRun(&buf, r, true)
	out := buf.String()
	for _, want := range []string{"backend gpu: 1 pages on gpu, 1 pages on simd", "2 same, 0 lz4, 0 raw", "ratio 512.000", "2 CompressBatch calls",
		"H2D 1ms, kernel 20ms, D2H 2ms; PCIe 5x rule (kernel > 5 × transfers): true, in 1 of 1 GPU batches", "verified byte for byte"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo report lacks %q:\n%s", want, out)
		}
	}
	// A PageBuffer's direct batches (RT-14) copy nothing.
	r.backend, r.h2d, r.d2h = bufferBackend, 0, 0
	buf.Reset()
	printDemoRun(&buf, r, true)
	if out := buf.String(); !strings.Contains(out, "GPU        kernel 20ms, the pages read and the payloads written through the buffer's mapping: no copies") ||
		strings.Contains(out, "PCIe 5x rule (kernel") {
		t.Errorf("direct batches' GPU line:\n%s", out)
	}
}
