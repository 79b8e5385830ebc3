package lz4warp

import (
	"math"
	"time"
)

// BatchResult is the outcome of one CompressBatch call. Its zero value is
// ready for CompressBatchInto, which reuses its memory batch after batch.
type BatchResult struct {
	Pages   []CompressedPage // one per input page, in input order
	Backend Backend          // where the batch was compressed (BackendSIMD after a GPU fault)
	// H2DTime and D2HTime are the host-to-device and device-to-host
	// copies, by CUDA events (GPU only, else 0): for CompressBatch from
	// Go memory, the host's copies into and out of the staging buffers
	// (API-23).
	H2DTime    time.Duration
	KernelTime time.Duration // kernel execution, by CUDA events (GPU only, else 0); over staging buffers, the sum of the chunks' spans
	D2HTime    time.Duration // device-to-host copies (GPU only, else 0); see H2DTime
	TotalTime  time.Duration // wall clock of the whole call, by the host's clock
	// own and arena are the memory that CompressBatchInto reuses: the
	// pages and the payloads' arena (nil outside CompressBatchInto).
	own   []CompressedPage
	arena *arena
}

// reset readies r for a batch on backend b, keeping the memory that
// CompressBatchInto reuses.
func (r *BatchResult) reset(b Backend) {
	*r = BatchResult{Backend: b, own: r.own, arena: r.arena}
	if r.arena != nil {
		r.arena.fit()
	}
}

// ownPages returns n pages of r's own memory, reused when it is large
// enough.
func (r *BatchResult) ownPages(n int) []CompressedPage {
	if cap(r.own) < n {
		r.own = make([]CompressedPage, n)
	}
	return r.own[:n]
}

// ThroughputBytesPerSec is inputBytes over TotalTime in bytes per second, 0
// when TotalTime is 0 (API-6).
func (r *BatchResult) ThroughputBytesPerSec(inputBytes int) float64 {
	if r.TotalTime <= 0 {
		return 0
	}
	return float64(inputBytes) / r.TotalTime.Seconds()
}

// CompressionRatio is the pages' uncompressed size over their stored size,
// 1.0 when nothing is stored (API-7).
func (r *BatchResult) CompressionRatio() float64 {
	out := 0
	for _, p := range r.Pages {
		out += len(p.Data)
	}
	return ratio(uint64(len(r.Pages))*PageSize, uint64(out))
}

// PCIeRuleSatisfied reports KernelTime > 5 × (H2DTime + D2HTime), strictly
// (API-5): all-zero timings, as CPU batches have, are false.
func (r *BatchResult) PCIeRuleSatisfied() bool {
	// Durations of centuries can take 5 × (H2D + D2H) out of int64's range,
	// where wrapping around would flip the verdict. Every KernelTime lies
	// inside that range, so out of it the product's sign decides.
	transfer := r.H2DTime + r.D2HTime
	switch {
	case r.H2DTime > 0 && r.D2HTime > 0 && transfer < 0: // the sum wrapped
		return false
	case r.H2DTime < 0 && r.D2HTime < 0 && transfer >= 0:
		return true
	case transfer > math.MaxInt64/time.Duration(PCIeRuleFactor):
		return false
	case transfer < math.MinInt64/time.Duration(PCIeRuleFactor):
		return true
	}
	return r.KernelTime > PCIeRuleFactor*transfer
}

// Stats accumulates over a Compressor's lifetime (API-8, API-14).
type Stats struct {
	PagesCompressed   uint64 // pages of every compressed batch
	PagesDecompressed uint64 // pages DecompressBatch decoded (a corrupt page is not counted)
	TotalBytesIn      uint64 // uncompressed bytes compressed: 4,096 per page
	TotalBytesOut     uint64 // compressed bytes returned: the sum of the payloads' lengths
	// TotalTime is the sum of the compressing calls' BatchResult.TotalTime
	// (CompressBatch, CompressBatchOn, CompressBuffer, PendingBatch.Wait),
	// wall clock; decompression is not in it.
	TotalTime      time.Duration
	DecompressTime time.Duration // wall clock of every decompressing call
	GPUFallbacks   uint64        // GPU batches redone, in part or whole, on the CPU after a fault
	Devices        []DeviceStats // per GPU in use, in the order of Config's devices (MD-6); nil without
}

// CompressionRatio is TotalBytesIn over TotalBytesOut, 1.0 when nothing was
// written (API-8).
func (s Stats) CompressionRatio() float64 { return ratio(s.TotalBytesIn, s.TotalBytesOut) }

// ThroughputGBps is TotalBytesIn over TotalTime in 10⁹ bytes per second:
// the compression throughput, 0 when no time was spent (API-8).
func (s Stats) ThroughputGBps() float64 {
	if s.TotalTime <= 0 {
		return 0
	}
	return float64(s.TotalBytesIn) / s.TotalTime.Seconds() / 1e9
}

func ratio(in, out uint64) float64 {
	if out == 0 {
		return 1.0
	}
	return float64(in) / float64(out)
}
