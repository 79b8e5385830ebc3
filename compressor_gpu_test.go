package lz4warp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"github.com/lz4warp/lz4warp/internal/gputest"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/lz4warp/lz4warp/gpuimpl"
	"github.com/lz4warp/lz4warp/reference"
)

// mixedPages makes n pages: zeros, same-filled words, random bytes and
// text-like repeats in turn.
func mixedPages(n int, seed uint64) []Page {
	rng := rand.New(rand.NewPCG(seed, 1))
	pages := make([]Page, n)
	words := []string{"page ", "warp ", "kernel ", "lz4 ", "\n", "return nil\n", "0x7f00 "}
	for i := range pages {
		p := &pages[i]
		switch i % 4 {
		case 1:
			w := rng.Uint64()
			for j := 0; j < PageSize; j += 8 {
				binary.LittleEndian.PutUint64(p[j:], w)
			}
		case 2:
			for j := 0; j < PageSize; j += 8 {
				binary.LittleEndian.PutUint64(p[j:], rng.Uint64())
			}
		case 3:
			for j := 0; j < PageSize; {
				j += copy(p[j:], words[rng.IntN(len(words))])
			}
		}
	}
	return pages
}

func checkAgainstReference(t *testing.T, pages []Page, got []CompressedPage) {
	t.Helper()
	if len(got) != len(pages) {
		t.Fatalf("%d outputs for %d pages", len(got), len(pages))
	}
	var buf [reference.PageBound]byte
	for i := range pages {
		kind, n := reference.EncodePage(buf[:], &pages[i])
		if got[i].Kind != PageKind(kind) || !bytes.Equal(got[i].Data, buf[:n]) {
			t.Fatalf("page %d: kind %v, %d bytes; reference %v, %d bytes", i, got[i].Kind, len(got[i].Data), kind, n)
		}
	}
}

// Checks API-3: with a GPU, NewCompressor opens it and SelectBackend
// sends batches of 1,000 pages or more to it, smaller ones to the CPU.
func TestCompressorPicksGPU(t *testing.T) {
	gputest.Require(t)
	if !GPUAvailable() {
		t.Fatal("no GPU available in a cuda build on the device machine")
	}
	c, err := NewCompressor(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.gpu == nil {
		t.Fatal("NewCompressor did not open the GPU")
	}
	for _, n := range []int{GPUMinBatch - 1, GPUMinBatch, 3*GPUMinBatch + 17} {
		pages := mixedPages(n, uint64(n))
		res, err := c.CompressBatch(pages)
		if err != nil {
			t.Fatal(err)
		}
		want := SelectBackend(n, true)
		if res.Backend != want {
			t.Errorf("%d pages: backend %v, want %v", n, res.Backend, want)
		}
		if want == BackendGPU && (res.KernelTime <= 0 || res.H2DTime <= 0 || res.D2HTime <= 0) {
			t.Errorf("%d pages on the GPU: event timings missing: %+v", n, res)
		}
		checkAgainstReference(t, pages, res.Pages)
	}
	g, err := NewGPUBatchCompressor(DefaultConfig())
	if err != nil {
		t.Fatalf("NewGPUBatchCompressor: %v", err)
	}
	g.Close()
}

// newGPUCompressor is a GPU Compressor of batchSize pages per launch,
// closed when the test ends.
func newGPUCompressor(t *testing.T, batchSize int) *Compressor {
	t.Helper()
	cfg := DefaultConfig()
	cfg.BatchSize = batchSize
	c, err := NewGPUBatchCompressor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Checks API-15, RT-9: a fault that is not sticky is absorbed: the batch
// comes back complete from the CPU, GPUFallbacks counts it, and the next
// batch runs on the rebuilt GPU context.
func TestCompressorFaultFallback(t *testing.T) {
	gputest.Require(t)
	c := newGPUCompressor(t, 700)
	pages := mixedPages(2500, 99)
	faults := []gpuimpl.Fault{gpuimpl.FaultOutOfMemory, gpuimpl.FaultInvalidLaunch}
	for i, f := range faults {
		c.gpu.injectFault(0, f)
		res, err := c.CompressBatch(pages)
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		if res.Backend != BackendSIMD {
			t.Errorf("%v: backend %v, want the CPU fallback", f, res.Backend)
		}
		checkAgainstReference(t, pages, res.Pages)
		if got := c.Stats().GPUFallbacks; got != uint64(i+1) {
			t.Errorf("%v: GPUFallbacks %d, want %d", f, got, i+1)
		}
		res, err = c.CompressBatch(pages)
		if err != nil || res.Backend != BackendGPU {
			t.Fatalf("%v: the batch after the fault: backend %v, %v", f, res.Backend, err)
		}
		checkAgainstReference(t, pages, res.Pages)
	}
	if got := c.Stats().PagesCompressed; got != uint64(2*len(faults)*len(pages)) {
		t.Errorf("PagesCompressed %d", got)
	}
}

// Checks API-18, API-15: a page-locked buffer goes to the GPU from 1,000
// pages on with the reference's bytes, raw pages' payloads being the
// buffer's own pages, and a fault during it loses no page.
func TestCompressBufferOnGPU(t *testing.T) {
	gputest.Require(t)
	c := newGPUCompressor(t, 700)
	pages := mixedPages(2500, 7)
	buf, err := c.NewPageBuffer(len(pages))
	if err != nil || !buf.Pinned() {
		t.Fatalf("NewPageBuffer: pinned %v, %v", buf != nil && buf.Pinned(), err)
	}
	defer buf.Close()
	copy(buf.Pages(), pages)
	for _, n := range []int{len(pages), GPUMinBatch, GPUMinBatch - 1} {
		res, err := c.CompressBuffer(buf, n)
		if err != nil {
			t.Fatal(err)
		}
		if res.Backend != SelectBackend(n, true) {
			t.Errorf("%d pages: backend %v", n, res.Backend)
		}
		checkAgainstReference(t, pages[:n], res.Pages)
		if res.Backend != BackendGPU {
			continue
		}
		raw := 0
		for i, p := range res.Pages {
			if p.Kind == KindRaw {
				raw++
				if &p.Data[0] != &buf.Pages()[i][0] {
					t.Fatalf("%d pages: raw page %d's payload is a copy, not the buffer's page", n, i)
				}
			}
		}
		if raw == 0 {
			t.Fatalf("%d pages: no raw page to check", n)
		}
	}
	c.gpu.injectFault(0, gpuimpl.FaultInvalidLaunch)
	res, err := c.CompressBuffer(buf, len(pages))
	if err != nil || res.Backend != BackendSIMD || c.Stats().GPUFallbacks != 1 {
		t.Fatalf("fault: backend %v, fallbacks %d, %v", res.Backend, c.Stats().GPUFallbacks, err)
	}
	checkAgainstReference(t, pages, res.Pages)
	if res, err = c.CompressBuffer(buf, len(pages)); err != nil || res.Backend != BackendGPU {
		t.Fatalf("after the fault: %v", err)
	}
	checkAgainstReference(t, pages, res.Pages)
}

// Checks API-15, RT-9: a sticky fault loses no page either: the batch comes
// back complete from the CPU, GPUFallbacks counts it, and since the device
// is lost to the process, the Compressor sends later batches to the CPU.
// Each fault runs in a child process, which it leaves unable to use the GPU.
func TestCompressorStickyFaultFallback(t *testing.T) {
	gputest.Require(t)
	for _, f := range []gpuimpl.Fault{gpuimpl.FaultIllegalAddress, gpuimpl.FaultLaunchFailure} {
		t.Run(f.String(), func(t *testing.T) {
			if !gputest.InChild(t, nil) {
				return
			}
			c, err := NewGPUBatchCompressor(DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			pages := mixedPages(2100, 5)
			c.gpu.injectFault(0, f)
			res, err := c.CompressBatch(pages)
			if err != nil {
				t.Fatal(err)
			}
			if res.Backend != BackendSIMD || c.Stats().GPUFallbacks != 1 {
				t.Errorf("backend %v, GPUFallbacks %d; want simd, 1", res.Backend, c.Stats().GPUFallbacks)
			}
			checkAgainstReference(t, pages, res.Pages)
			res, err = c.CompressBatch(pages)
			if err != nil || res.Backend != BackendSIMD || c.gpu != nil {
				t.Fatalf("after the sticky fault: backend %v, %v; the GPU should be dropped", res.Backend, err)
			}
			if err := c.GPUError(); !errors.Is(err, ErrGPUNotAvailable) || !errors.Is(err, gpuimpl.ErrDeviceLost) {
				t.Errorf("GPUError after the sticky fault: %v", err)
			}
			checkAgainstReference(t, pages, res.Pages)
			if c.Stats().GPUFallbacks != 1 {
				t.Errorf("GPUFallbacks %d after a CPU batch", c.Stats().GPUFallbacks)
			}
		})
	}
}

// Checks API-11: where a GPU is present but does not open, NewCompressor
// falls back to the CPU and GPUError says why; CompressBatchOn(BackendGPU)
// returns that error. With the GPU in use, GPUError is nil.
func TestCompressorGPUError(t *testing.T) {
	gputest.Require(t)
	c, err := NewCompressor(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if c.gpu == nil || c.GPUError() != nil {
		t.Errorf("device 0: GPU %v, GPUError %v", c.gpu != nil, c.GPUError())
	}
	c.Close()
	cfg := DefaultConfig()
	cfg.DeviceIndex = 99
	c, err = NewCompressor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	gerr := c.GPUError()
	t.Logf("device 99: %v", gerr)
	if c.gpu != nil || !errors.Is(gerr, ErrGPUNotAvailable) {
		t.Fatalf("device 99: GPU %v, GPUError %v", c.gpu != nil, gerr)
	}
	res, err := c.CompressBatch(mixedPages(1000, 3))
	if err != nil || res.Backend != BackendSIMD {
		t.Fatalf("device 99: backend %v, %v; want simd", res.Backend, err)
	}
	if _, err := c.CompressBatchOn(BackendGPU, mixedPages(1, 3)); err != gerr {
		t.Errorf("CompressBatchOn(BackendGPU): %v, want GPUError's %v", err, gerr)
	}
}

// Checks API-20, API-23, API-16: CompressBatch from Go memory on the GPU,
// through the staging buffers or the engine's ring, from several goroutines
// at once on one Compressor and into reused results, gives the reference's
// bytes, and the staging buffers' results own their payloads: they outlive
// the next batches, which reuse the buffers.
func TestCompressorGPUFromGoroutines(t *testing.T) {
	gputest.Require(t)
	c := newGPUCompressor(t, 3000)
	for _, mode := range []string{fromGoStaged, fromGoRing} {
		t.Run(mode, func(t *testing.T) {
			prev := fromGoMode
			fromGoMode = mode
			defer func() { fromGoMode = prev }()
			const goroutines = 4
			var wg sync.WaitGroup
			results := make([][]*BatchResult, goroutines)
			batches := make([][]Page, goroutines)
			for g := range goroutines {
				batches[g] = mixedPages(1000+g*4321, uint64(g)) // one chunk to several
				wg.Go(func() {
					var into BatchResult
					for r := range 3 {
						res := &into
						if r != 1 {
							res = new(BatchResult)
						}
						if err := c.CompressBatchInto(res, batches[g]); err != nil {
							t.Error(err)
							return
						}
						if res.Backend != BackendGPU {
							t.Errorf("goroutine %d: backend %v", g, res.Backend)
						}
						if r != 1 {
							results[g] = append(results[g], res)
						}
					}
				})
			}
			wg.Wait()
			for g := range goroutines {
				for _, res := range results[g] {
					checkAgainstReference(t, batches[g], res.Pages)
				}
			}
		})
	}
	if c.Stats().GPUFallbacks != 0 {
		t.Errorf("%d fallbacks", c.Stats().GPUFallbacks)
	}
}

// Checks API-15, API-23: a fault in a batch going through the staging
// buffers, with some of its chunks on the device, loses no page, and the
// staging buffers serve the next batch on the GPU.
func TestCompressorStagedFault(t *testing.T) {
	gputest.Require(t)
	c := newGPUCompressor(t, 1000)
	pages := mixedPages(9000, 11)
	if res, err := c.CompressBatch(pages); err != nil || res.Backend != BackendGPU {
		t.Fatalf("first batch: %v", err)
	}
	c.gpuMu.Lock()
	c.gpu.injectFault(0, gpuimpl.FaultInvalidLaunch)
	c.gpuMu.Unlock()
	res, err := c.CompressBatch(pages)
	if err != nil || res.Backend != BackendSIMD || c.Stats().GPUFallbacks != 1 {
		t.Fatalf("fault: backend %v, fallbacks %d, %v", res.Backend, c.Stats().GPUFallbacks, err)
	}
	checkAgainstReference(t, pages, res.Pages)
	res, err = c.CompressBatch(pages)
	if err != nil || res.Backend != BackendGPU {
		t.Fatalf("after the fault: %v", err)
	}
	checkAgainstReference(t, pages, res.Pages)
}
