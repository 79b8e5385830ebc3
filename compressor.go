package lz4warp

import (
	"cmp"
	"errors"
	"fmt"
	"sync"
	"time"
	"unsafe"

	"github.com/lz4warp/lz4warp/gpuimpl"
)

// Compressor compresses and decompresses page batches. It is safe for
// concurrent use; batches on one Compressor run one at a time.
type Compressor struct {
	cfg    Config
	mu     sync.Mutex // serialises batches and guards stats
	gpu    *gpuimpl.Engine
	gpuErr error // why gpu is nil (API-11)
	stats  Stats
	closed bool
	// lastTimings are the last GPU batch's timings, host shares included,
	// for the benchmarks.
	lastTimings gpuimpl.Timings
}

// NewCompressor returns a Compressor that picks the backend of each batch
// with SelectBackend, using the GPU when one is present and opens.
func NewCompressor(cfg Config) (*Compressor, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &Compressor{cfg: cfg}
	if err := usableGPU(); err != nil {
		c.gpuErr = err
	} else if e, err := openEngine(cfg); err != nil {
		c.gpuErr = fmt.Errorf("%w: %w", ErrGPUNotAvailable, err)
	} else {
		c.gpu = e
	}
	return c, nil
}

// GPUError reports why the Compressor uses no GPU (API-11): an error
// wrapping ErrGPUNotAvailable and the cause, which errors.Is and errors.As
// reach: no driver library (ErrNoDriver), the driver's failed call
// (*CUDAError, cuInit's on a machine whose driver cannot initialise), no
// device or none supported, the error of opening the GPU, or the sticky
// fault after which the Compressor stopped using it (RT-9). It is nil while
// the Compressor uses a GPU.
func (c *Compressor) GPUError() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gpuErr
}

// NewGPUBatchCompressor returns a Compressor that insists on the GPU: it
// fails with an error wrapping ErrGPUNotAvailable when none can be opened
// (API-11).
func NewGPUBatchCompressor(cfg Config) (*Compressor, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := usableGPU(); err != nil {
		return nil, err
	}
	e, err := openEngine(cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGPUNotAvailable, err)
	}
	return &Compressor{cfg: cfg, gpu: e}, nil
}

func openEngine(cfg Config) (*gpuimpl.Engine, error) {
	return gpuimpl.Open(gpuimpl.Options{
		DeviceIndex: cfg.DeviceIndex, BatchPages: cfg.BatchSize,
		RingSlots: cfg.RingBufferSlots, AsyncDMA: cfg.AsyncDMA,
	})
}

// Config returns the configuration the Compressor was made with.
func (c *Compressor) Config() Config { return c.cfg }

// Stats returns the statistics accumulated so far.
func (c *Compressor) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// CompressBatch compresses pages with the backend SelectBackend picks. A GPU
// fault loses no page: the batch is compressed on the CPU instead and
// Stats.GPUFallbacks counts it (API-15). After a sticky fault, which no new
// context recovers from, the Compressor stops using the GPU (RT-9).
func (c *Compressor) CompressBatch(pages []Page) (*BatchResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, ErrClosed
	}
	return c.compress(SelectBackend(len(pages), c.gpu != nil), pages, nil)
}

// CompressBatchOn compresses pages on backend b, whatever their number
// (API-17): for benchmarks and tools that compare backends. BackendGPU
// needs a GPU this Compressor opened (ErrGPUNotAvailable otherwise), and a
// GPU fault falls back to the CPU as in CompressBatch.
func (c *Compressor) CompressBatchOn(b Backend, pages []Page) (*BatchResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, ErrClosed
	}
	switch b {
	case BackendScalar, BackendSIMD:
	case BackendGPU:
		if c.gpu == nil {
			return nil, cmp.Or(c.gpuErr, ErrGPUNotAvailable)
		}
	default:
		return nil, fmt.Errorf("%w: Backend %v is unknown", ErrInvalidConfig, b)
	}
	return c.compress(b, pages, nil)
}

// compress runs a batch on backend b and accounts for it; c.mu is held.
// On the GPU, pages are host.Pages when host is not nil.
func (c *Compressor) compress(b Backend, pages []Page, host *gpuimpl.HostPages) (*BatchResult, error) {
	start := time.Now()
	res, err := c.run(b, pages, host)
	if err != nil {
		return nil, err
	}
	c.account(b, res, start)
	return res, nil
}

// run runs a batch on backend b and makes its result (see result), without
// accounting for it; c.mu is held. On the GPU, pages are host.Pages when
// host is not nil.
func (c *Compressor) run(b Backend, pages []Page, host *gpuimpl.HostPages) (*BatchResult, error) {
	var out []gpuimpl.Output
	var t gpuimpl.Timings
	var err error
	if b == BackendGPU {
		if host != nil {
			out, t, err = c.gpu.CompressHost(host, len(pages))
		} else {
			out, t, err = c.gpu.Compress(pages)
		}
	}
	return c.result(b, pages, out, t, err)
}

// finish makes the result of a batch that began at start on backend b
// (see result) and accounts for it; c.mu is held.
func (c *Compressor) finish(b Backend, pages []Page, out []gpuimpl.Output, t gpuimpl.Timings, err error, start time.Time) (*BatchResult, error) {
	res, err := c.result(b, pages, out, t, err)
	if err != nil {
		return nil, err
	}
	c.account(b, res, start)
	return res, nil
}

// result makes the result of a batch meant for backend b: on the GPU its
// outputs, or, after a fault, the CPU's (API-15); on a CPU backend it
// compresses the pages. c.mu is held.
func (c *Compressor) result(b Backend, pages []Page, out []gpuimpl.Output, t gpuimpl.Timings, err error) (*BatchResult, error) {
	res := &BatchResult{Backend: b}
	if res.Backend == BackendGPU {
		if err == nil {
			res.Pages = compressedPages(out)
			res.H2DTime, res.KernelTime, res.D2HTime = t.H2D, t.Kernel, t.D2H
			c.lastTimings = t
		} else if errors.Is(err, gpuimpl.ErrFault) {
			res.Backend = BackendSIMD
			c.dropLostGPU(err)
		} else {
			return nil, err
		}
	}
	switch res.Backend {
	case BackendScalar:
		res.Pages = compressScalar(pages)
	case BackendSIMD:
		res.Pages = compressParallel(pages)
	}
	return res, nil
}

// dropLostGPU closes the GPU after a sticky fault err, which leaves the
// device unusable for the rest of the process: later batches go to the CPU
// (RT-9). c.mu is held.
func (c *Compressor) dropLostGPU(err error) {
	if errors.Is(err, gpuimpl.ErrDeviceLost) && c.gpu != nil {
		c.gpu.Close()
		c.gpu, c.gpuErr = nil, fmt.Errorf("%w: %w", ErrGPUNotAvailable, err)
	}
}

// account adds a batch meant for backend b, which began at start, to the
// statistics and sets its TotalTime; a batch meant for the GPU that the
// CPU compressed fell back (API-15). c.mu is held.
func (c *Compressor) account(b Backend, res *BatchResult, start time.Time) {
	if b == BackendGPU && res.Backend != BackendGPU {
		c.stats.GPUFallbacks++
	}
	res.TotalTime = time.Since(start)
	c.stats.PagesCompressed += uint64(len(res.Pages))
	c.stats.TotalBytesIn += uint64(len(res.Pages)) * PageSize
	for _, p := range res.Pages {
		c.stats.TotalBytesOut += uint64(len(p.Data))
	}
	c.stats.TotalTime += res.TotalTime
}

// compressedPages views the GPU's outputs as CompressedPages, which have the
// same layout (a test checks it): a batch of 100,000 pages would otherwise
// spend a millisecond copying them.
func compressedPages(out []gpuimpl.Output) []CompressedPage {
	return unsafe.Slice((*CompressedPage)(unsafe.Pointer(unsafe.SliceData(out))), len(out))
}

// DecompressBatch restores pages into dst, which must be at least as long,
// with the backend SelectDecodeBackend picks (API-20). Every page that
// decodes is written; the others are listed, by index, in the returned
// *DecodeError (API-12), the same on every backend. A GPU fault decodes the
// batch on the CPU (API-15).
func (c *Compressor) DecompressBatch(pages []CompressedPage, dst []Page) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := SelectDecodeBackend(len(pages), c.gpu != nil)
	if err := c.checkDecode(b, len(pages), len(dst)); err != nil {
		return err
	}
	return c.decompress(b, pages, dst, nil)
}

// Close releases the GPU, if any. Batches, buffers and DecompressBatch then
// fail with ErrClosed; Stats and Config still answer, and Close again
// returns nil.
func (c *Compressor) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	if c.gpu != nil {
		return c.gpu.Close()
	}
	return nil
}
