package main

import (
	"fmt"

	"github.com/lz4warp/lz4warp"
)

// maxBatch bounds -batch (CLI-9): a batch's pages within 1 GiB. bench and
// demo hold whole batches of pages, so a larger batch would only exhaust
// memory, or overflow make, before any work.
const maxBatch = 1 << 30 / lz4warp.PageSize // 262,144 pages

// checkBatch makes a -batch value over maxBatch, or one that Config.Validate
// refuses, a usage error (CLI-9). maxBatch is below lz4warp.MaxBatchSize,
// so every batch too large gets the same message.
func checkBatch(batch int) error {
	if batch > maxBatch {
		return usagef("-batch %d: more than %d pages (1 GiB) per batch", batch, maxBatch)
	}
	cfg := lz4warp.DefaultConfig()
	cfg.BatchSize = batch
	if err := cfg.Validate(); err != nil {
		return usagef("-batch %d: %v", batch, err)
	}
	return nil
}

// pageCompressor compresses batches on one requested backend, through the
// public API only.
type pageCompressor struct {
	c       *lz4warp.Compressor
	backend lz4warp.Backend
	auto    bool // SelectBackend decides every batch
}

// newPageCompressor opens the backend named by -backend (CLI-9): "auto"
// lets SelectBackend decide every batch, the others run every batch on the
// named backend (CompressBatchOn); "gpu" insists on the GPU and fails
// without one. devs chooses the GPUs (MD-8).
func newPageCompressor(name string, batch int, devs deviceChoice) (*pageCompressor, error) {
	p := &pageCompressor{}
	switch name {
	case "auto":
		p.auto = true
	case "scalar":
		p.backend = lz4warp.BackendScalar
	case "simd":
		p.backend = lz4warp.BackendSIMD
	case "gpu":
		p.backend = lz4warp.BackendGPU
	default:
		return nil, usagef("-backend %q: want one of auto, scalar, simd, gpu", name)
	}
	if err := checkBatch(batch); err != nil {
		return nil, err
	}
	cfg := lz4warp.DefaultConfig()
	cfg.BatchSize = batch
	devs.apply(&cfg)
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

// compress compresses one batch.
func (p *pageCompressor) compress(pages []lz4warp.Page) (*lz4warp.BatchResult, error) {
	if p.auto {
		return p.c.CompressBatch(pages)
	}
	return p.c.CompressBatchOn(p.backend, pages)
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
