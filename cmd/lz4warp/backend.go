package main

import (
	"fmt"
	"time"

	"github.com/lz4warp/lz4warp"
)

// pageCompressor compresses batches on one requested backend, through the
// public API only.
type pageCompressor struct {
	c     *lz4warp.Compressor
	chunk int // pages per CompressBatch call, 0 for all at once
}

// newPageCompressor opens the backend named by -backend (CLI-9). The API
// chooses a batch's backend with SelectBackend, so the CPU backends are
// reached by the batch sizes that select them: scalar by calls of at most
// SIMDMinBatch-1 pages, simd (on a machine with a GPU) by calls of at most
// GPUMinBatch-1 pages. "gpu" insists on the GPU and fails without one;
// "auto" lets SelectBackend decide every batch.
func newPageCompressor(name string, batch int) (*pageCompressor, error) {
	p := &pageCompressor{}
	switch name {
	case "auto", "gpu":
	case "scalar":
		p.chunk = lz4warp.SIMDMinBatch - 1
	case "simd":
		if lz4warp.GPUAvailable() {
			p.chunk = lz4warp.GPUMinBatch - 1
		}
	default:
		return nil, usagef("-backend %q: want one of auto, scalar, simd, gpu", name)
	}
	cfg := lz4warp.DefaultConfig()
	cfg.BatchSize = batch
	if err := cfg.Validate(); err != nil {
		return nil, usagef("-batch %d: %v", batch, err)
	}
	var (
		c   *lz4warp.Compressor
		err error
	)
	if name == "gpu" {
		c, err = lz4warp.NewGPUBatchCompressor(cfg)
	} else {
		c, err = lz4warp.NewCompressor(cfg)
	}
	if err != nil {
		return nil, fmt.Errorf("backend %s: %w", name, err)
	}
	p.c = c
	return p, nil
}

// compress compresses pages; the result's Backend is the backend that ran
// (the last one, when the batch was cut into several calls) and its times
// add up over the calls.
func (p *pageCompressor) compress(pages []lz4warp.Page) (*lz4warp.BatchResult, error) {
	if p.chunk == 0 || len(pages) <= p.chunk {
		return p.c.CompressBatch(pages)
	}
	start := time.Now()
	all := &lz4warp.BatchResult{Pages: make([]lz4warp.CompressedPage, 0, len(pages))}
	for lo := 0; lo < len(pages); lo += p.chunk {
		r, err := p.c.CompressBatch(pages[lo:min(lo+p.chunk, len(pages))])
		if err != nil {
			return nil, err
		}
		all.Pages = append(all.Pages, r.Pages...)
		all.Backend = r.Backend
		all.H2DTime += r.H2DTime
		all.KernelTime += r.KernelTime
		all.D2HTime += r.D2HTime
	}
	all.TotalTime = time.Since(start)
	return all, nil
}

func (p *pageCompressor) Close() error { return p.c.Close() }

// availableBackends are the backends that can run here: the GPU only when
// one is supported.
func availableBackends() []string {
	if lz4warp.GPUAvailable() {
		return []string{"scalar", "simd", "gpu"}
	}
	return []string{"scalar", "simd"}
}
