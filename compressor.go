package lz4warp

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/lz4warp/lz4warp/gpuimpl"
)

// Compressor compresses and decompresses page batches. It is safe for
// concurrent use (API-20): batches on the CPU and DecompressBatch calls from
// different goroutines run at the same time, none waiting for another;
// batches on the GPU share its engine, with up to RingBufferSlots of their
// chunks on the device at once. Config.CPUWorkers bounds the goroutines
// that all of its CPU work uses at once (API-21).
type Compressor struct {
	cfg Config
	cpu cpuLimit
	// life is held for reading by every call that uses the Compressor's
	// resources and for writing by Close, which so waits for the calls in
	// progress; closed is guarded by it.
	life   sync.RWMutex
	closed bool
	// gpuMu guards gpu, gpuErr, stage and lastTimings, for short steps:
	// it is never held during a call into an engine, nor while pages are
	// encoded or copied on the host. The pool serialises each device's
	// engine itself, so that several goroutines use several devices at
	// once.
	gpuMu  sync.Mutex
	gpu    *devicePool // the GPUs in use; nil without, or once every one is dropped
	gpuErr error       // why gpu is nil (API-11)
	stage  staging
	// gpuOn is whether gpu is set, for SelectBackend, which must not
	// wait for gpuMu.
	gpuOn atomic.Bool
	// devices are every GPU the Compressor opened, for Stats (MD-6); set
	// once, with gpu, under gpuMu.
	devices *devicePool
	// opened is closed when the GPU's opening in the background has ended
	// (Config.OpenInBackground); nil when the constructor opened it.
	opened chan struct{}
	// lastTimings are the last GPU batch's timings, host shares included,
	// for the benchmarks.
	lastTimings gpuimpl.Timings
	// share is the GPU's share of a DecompressBuffer batch (API-29).
	share   decodeShare
	statsMu sync.Mutex
	stats   Stats
}

// NewCompressor returns a Compressor that picks the backend of each batch
// with SelectBackend, using the GPU when one is present and opens. With
// Config.OpenInBackground it returns at once and opens the GPU on a
// goroutine of its own (API-28).
func NewCompressor(cfg Config) (*Compressor, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := newCompressor(cfg)
	c.startGPU()
	return c, nil
}

func newCompressor(cfg Config) *Compressor {
	cfg.Devices = slices.Clone(cfg.Devices)
	c := &Compressor{cfg: cfg, cpu: newCPULimit(cfg.CPUWorkers)}
	c.stage.freed = sync.NewCond(&c.gpuMu)
	return c
}

// startGPU opens the GPUs, on a goroutine of its own with
// OpenInBackground, and returns the error of an open that failed before it
// returned.
func (c *Compressor) startGPU() error {
	if !c.cfg.OpenInBackground {
		return c.openGPU()
	}
	c.opened = make(chan struct{})
	go func() {
		defer close(c.opened)
		c.openGPU()
	}()
	return nil
}

// openGPU opens the GPUs that Config names and, if that fails, keeps why
// for GPUError.
func (c *Compressor) openGPU() error {
	p, err := openGPUs(c.cfg)
	c.gpuMu.Lock()
	defer c.gpuMu.Unlock()
	if err != nil {
		c.gpuErr = err
		return err
	}
	c.gpu, c.devices = p, p
	c.gpuOn.Store(true)
	return nil
}

// openGPUs opens the GPUs cfg names; tests replace it.
var openGPUs = func(cfg Config) (*devicePool, error) {
	if err := usableGPU(); err != nil {
		return nil, err
	}
	p, err := openPool(cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGPUNotAvailable, err)
	}
	return p, nil
}

// gpuOpening reports whether the GPU is still opening in the background.
func (c *Compressor) gpuOpening() bool { return running(c.opened) }

// running reports whether the goroutine that closes done when it ends
// runs: false for a nil done.
func running(done chan struct{}) bool {
	if done == nil {
		return false
	}
	select {
	case <-done:
		return false
	default:
		return true
	}
}

// awaitGPU waits for a GPU opening in the background and reports whether
// the Compressor uses one.
func (c *Compressor) awaitGPU() bool {
	if c.opened != nil {
		<-c.opened
	}
	return c.hasGPU()
}

// WaitGPU waits until a GPU opening in the background (Config.
// OpenInBackground) is open or has failed, and returns GPUError. Without
// OpenInBackground it returns GPUError at once.
func (c *Compressor) WaitGPU() error {
	c.awaitGPU()
	return c.GPUError()
}

// GPUError reports why the Compressor uses no GPU (API-11): an error
// wrapping ErrGPUNotAvailable and the cause, which errors.Is and errors.As
// reach: no driver library (ErrNoDriver), the driver's failed call
// (*CUDAError, cuInit's on a machine whose driver cannot initialise), no
// device or none supported, the error of opening the GPU, or the sticky
// fault after which the Compressor stopped using it (RT-9). It is nil while
// the Compressor uses a GPU, and while one opens in the background.
func (c *Compressor) GPUError() error {
	c.gpuMu.Lock()
	defer c.gpuMu.Unlock()
	return c.gpuErr
}

// NewGPUBatchCompressor returns a Compressor that insists on the GPU: it
// fails with an error wrapping ErrGPUNotAvailable when none can be opened
// (API-11), and the cause: errors.As reaches the driver's error. With
// Config.OpenInBackground it returns at once and WaitGPU returns that
// error instead (API-28).
func NewGPUBatchCompressor(cfg Config) (*Compressor, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := newCompressor(cfg)
	if err := c.startGPU(); err != nil {
		return nil, err
	}
	return c, nil
}

// Config returns the configuration the Compressor was made with.
func (c *Compressor) Config() Config {
	cfg := c.cfg
	cfg.Devices = slices.Clone(cfg.Devices)
	return cfg
}

// Stats returns the statistics accumulated so far.
func (c *Compressor) Stats() Stats {
	c.statsMu.Lock()
	s := c.stats
	c.statsMu.Unlock()
	c.gpuMu.Lock()
	devices := c.devices
	c.gpuMu.Unlock()
	if devices != nil {
		s.Devices = devices.stats()
	}
	return s
}

// hasGPU reports whether the Compressor uses a GPU now.
func (c *Compressor) hasGPU() bool { return c.gpuOn.Load() }

// pool returns the GPUs in use, nil where there are none.
func (c *Compressor) pool() *devicePool {
	c.gpuMu.Lock()
	defer c.gpuMu.Unlock()
	return c.gpu
}

// CompressBatch compresses pages with the backend SelectBackend picks; on
// several GPUs, a large batch is split across them (MD-3). A GPU fault
// loses no page: the batch is compressed on another GPU or the CPU instead
// and Stats counts it (API-15, MD-5). After a sticky fault, which no new
// context recovers from, the Compressor stops using that GPU (RT-9). The
// result owns its memory: the payloads are the result's alone.
func (c *Compressor) CompressBatch(pages []Page) (*BatchResult, error) {
	res := new(BatchResult)
	if err := c.compressInto(res, pages, false, 0); err != nil {
		return nil, err
	}
	return res, nil
}

// CompressBatchInto compresses pages as CompressBatch does, into res, whose
// memory it reuses (API-22): res.Pages and the payloads of the batch res
// held before are overwritten, and must no longer be used. A BatchResult
// that CompressBatchInto has filled once takes later batches of the same
// size and data without allocating, so that a loop over many batches
// allocates nothing per page. res must not be in use by another call. A
// result of CompressBuffer can be given: its pages stay in its buffer.
func (c *Compressor) CompressBatchInto(res *BatchResult, pages []Page) error {
	if res.arena == nil {
		res.arena = new(arena)
	}
	return c.compressInto(res, pages, false, 0)
}

// CompressBatchOn compresses pages on backend b, whatever their number
// (API-17): for benchmarks and tools that compare backends. BackendGPU
// needs a GPU this Compressor opened (ErrGPUNotAvailable otherwise), and a
// GPU fault falls back to the CPU as in CompressBatch.
func (c *Compressor) CompressBatchOn(b Backend, pages []Page) (*BatchResult, error) {
	switch b {
	case BackendScalar, BackendSIMD, BackendGPU:
	default:
		return nil, fmt.Errorf("%w: Backend %v is unknown", ErrInvalidConfig, b)
	}
	res := new(BatchResult)
	if err := c.compressInto(res, pages, true, b); err != nil {
		return nil, err
	}
	return res, nil
}

// compressInto compresses pages into res on backend b when chosen, else on
// the one SelectBackend picks, and accounts for the batch.
func (c *Compressor) compressInto(res *BatchResult, pages []Page, chosen bool, b Backend) error {
	c.life.RLock()
	defer c.life.RUnlock()
	if c.closed {
		return ErrClosed
	}
	if !chosen {
		b = SelectBackend(len(pages), c.hasGPU())
	} else if b == BackendGPU && !c.awaitGPU() {
		return cmp.Or(c.GPUError(), ErrGPUNotAvailable)
	}
	start := time.Now()
	res.reset(b)
	stored, err := c.run(res, pages, nil)
	if err != nil {
		return err
	}
	c.account(b, res, stored, start)
	return nil
}

// run compresses a batch into res on res.Backend: on the GPU from pages, or
// from host when it is not nil (host.Pages are then pages), where the pool
// compresses a faulted part on another GPU or the CPU (API-15, MD-5), and a
// batch that finds every GPU dropped goes to the CPU. It returns the
// payloads' total size. No lock but life's read lock is held.
func (c *Compressor) run(res *BatchResult, pages []Page, host *gpuimpl.HostPages) (int, error) {
	if res.Backend == BackendGPU {
		if p := c.pool(); p != nil {
			stored, err := c.runGPU(p, res, pages, host)
			c.dropLostGPUs(p)
			if !errors.Is(err, errGPUDropped) {
				return stored, err
			}
		}
		return c.fallBack(res, pages), nil
	}
	res.Pages = res.ownPages(len(pages))
	encode, workers := cpuEncoder(fastEncode), len(pages)
	if res.Backend == BackendScalar {
		encode, workers = referenceEncode, 1
	}
	return c.cpu.compressCPU(pages, res.Pages, res.arena, encode, workers), nil
}

// fallBack compresses on the CPU a batch that no GPU compressed (API-15),
// into res, and returns the payloads' total size.
func (c *Compressor) fallBack(res *BatchResult, pages []Page) int {
	res.Backend = BackendSIMD
	res.H2DTime, res.KernelTime, res.D2HTime = 0, 0, 0
	res.arena.reuse() // what the GPU's chunks placed there is void
	res.Pages = res.ownPages(len(pages))
	return c.cpu.compressCPU(pages, res.Pages, res.arena, fastEncode, len(pages))
}

// runGPU compresses a batch on p's GPUs into res. A batch from host runs
// with host's memory, split across the devices when it is large (MD-3);
// one from Go memory goes through staging buffers (gpu_batch.go). A batch
// of which the CPU compressed pages after faults is BackendSIMD's (API-15).
func (c *Compressor) runGPU(p *devicePool, res *BatchResult, pages []Page, host *gpuimpl.HostPages) (int, error) {
	var t gpuimpl.Timings
	var stored int
	var onCPU bool
	var err error
	if host == nil {
		t, stored, onCPU, err = c.compressFromGo(p, res, pages)
	} else {
		var gb gpuBatch
		gb, err = p.compress(pages, host)
		res.Pages, stored, t, onCPU = gb.pages, payloadBytes(gb.pages), gb.timings, gb.cpuPages > 0
	}
	if err != nil {
		return 0, err
	}
	c.setGPUTimings(res, t, onCPU)
	return stored, nil
}

// setGPUTimings gives res a GPU batch's timings, and the backend
// BackendSIMD where the CPU compressed some of its pages after faults
// (API-15); the timings are kept for the benchmarks.
func (c *Compressor) setGPUTimings(res *BatchResult, t gpuimpl.Timings, onCPU bool) {
	res.H2DTime, res.KernelTime, res.D2HTime = t.H2D, t.Kernel, t.D2H
	if onCPU {
		res.Backend = BackendSIMD
	}
	c.gpuMu.Lock()
	c.lastTimings = t
	c.gpuMu.Unlock()
}

// dropLostGPUs stops using the GPUs of p once sticky faults have left none
// of them usable for the rest of the process: later batches go to the CPU
// (RT-9, MD-5).
func (c *Compressor) dropLostGPUs(p *devicePool) {
	lost := p.lost()
	if lost == nil {
		return
	}
	c.gpuMu.Lock()
	defer c.gpuMu.Unlock()
	if c.gpu == p {
		c.dropGPU()
		c.gpuErr = fmt.Errorf("%w: %w", ErrGPUNotAvailable, lost)
	}
}

// dropGPU closes the pool and the staging buffers not in use; those in
// use are closed when they come back. gpuMu is held.
func (c *Compressor) dropGPU() error {
	c.dropStaging()
	err := c.gpu.close()
	c.gpu = nil
	c.gpuOn.Store(false)
	c.stage.freed.Broadcast()
	return err
}

// account adds a batch meant for backend b, which began at start and
// stored the given payload bytes, to the statistics and sets its
// TotalTime; a batch meant for the GPU that the CPU compressed, in whole
// or in part, fell back (API-15).
func (c *Compressor) account(b Backend, res *BatchResult, stored int, start time.Time) {
	res.TotalTime = time.Since(start)
	c.statsMu.Lock()
	defer c.statsMu.Unlock()
	if b == BackendGPU && res.Backend != BackendGPU {
		c.stats.GPUFallbacks++
	}
	c.stats.PagesCompressed += uint64(len(res.Pages))
	c.stats.TotalBytesIn += uint64(len(res.Pages)) * PageSize
	c.stats.TotalBytesOut += uint64(stored)
	c.stats.TotalTime += res.TotalTime
}

// compressedPages views the GPU's outputs as CompressedPages, which have the
// same layout (a test checks it): a batch of 100,000 pages would otherwise
// spend a millisecond copying them.
func compressedPages(out []gpuimpl.Output) []CompressedPage {
	return unsafe.Slice((*CompressedPage)(unsafe.Pointer(unsafe.SliceData(out))), len(out))
}

// payloadBytes is the pages' total payload size.
func payloadBytes(pages []CompressedPage) int {
	n := 0
	for _, p := range pages {
		n += len(p.Data)
	}
	return n
}

// DecompressBatch restores pages into dst, which must be at least as long,
// on the CPU, the fast decoder in chunks over the workers (SelectDecodeBackend,
// API-25): into Go memory the GPU is slower than the CPU; DecompressBuffer
// decodes on the GPU. Every page that decodes is written; the others are
// listed, by index, in the returned *DecodeError (API-12), the same on
// every backend. It runs at the same time as any other call on the
// Compressor (API-20).
func (c *Compressor) DecompressBatch(pages []CompressedPage, dst []Page) error {
	c.life.RLock()
	defer c.life.RUnlock()
	p := c.pool()
	b := SelectDecodeBackend(len(pages), false)
	if err := c.checkDecode(b, len(pages), len(dst)); err != nil {
		return err
	}
	return c.decompress(p, b, pages, dst, nil)
}

// Close waits for the calls in progress, then releases the GPU, if any.
// Batches, buffers and DecompressBatch then fail with ErrClosed; Stats and
// Config still answer, and Close again returns nil.
func (c *Compressor) Close() error {
	if c.opened != nil {
		<-c.opened // the GPU it opens is closed here
	}
	c.life.Lock()
	defer c.life.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	c.gpuMu.Lock()
	defer c.gpuMu.Unlock()
	if c.gpu != nil {
		return c.dropGPU()
	}
	return nil
}
