package lz4warp

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"
	"unsafe"

	"github.com/lz4warp/lz4warp/gpuimpl"
	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/reference"
)

// GPUMinDecodeBatch is the fewest pages DecompressBatch decodes on the GPU
// (API-20). Provisional: the crossover with the 16-core CPU measured on the
// H100 (spec/gpu-results.md) sets it.
const GPUMinDecodeBatch = 10000

// SelectDecodeBackend chooses the backend that decodes a batch of n pages
// (API-20): the GPU for at least GPUMinDecodeBatch pages when one is
// available, else the fast decoder on every core (BackendSIMD) for at
// least SIMDMinBatch pages, else the fast decoder on the calling goroutine
// (BackendScalar). Every backend gives the same pages and errors.
func SelectDecodeBackend(n int, gpuAvailable bool) Backend {
	switch {
	case gpuAvailable && n >= GPUMinDecodeBatch:
		return BackendGPU
	case n >= SIMDMinBatch:
		return BackendSIMD
	}
	return BackendScalar
}

// DecompressBatchOn decodes pages into dst on backend b, whatever their
// number (API-21): for benchmarks and tools that compare backends. Pages,
// errors, fallbacks and statistics are DecompressBatch's; BackendGPU needs
// a GPU this Compressor opened (ErrGPUNotAvailable otherwise).
func (c *Compressor) DecompressBatchOn(b Backend, pages []CompressedPage, dst []Page) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.checkDecode(b, len(pages), len(dst)); err != nil {
		return err
	}
	return c.decompress(b, pages, dst, nil)
}

// checkDecode checks that a batch of n pages into room pages may be
// decoded on backend b; c.mu is held.
func (c *Compressor) checkDecode(b Backend, n, room int) error {
	switch {
	case c.closed:
		return ErrClosed
	case b != BackendScalar && b != BackendSIMD && b != BackendGPU:
		return fmt.Errorf("%w: Backend %v is unknown", ErrInvalidConfig, b)
	case b == BackendGPU && c.gpu == nil:
		return cmp.Or(c.gpuErr, ErrGPUNotAvailable)
	case room < n:
		return fmt.Errorf("%w: %d pages into %d", ErrShortBuffer, n, room)
	}
	return nil
}

// decompress decodes pages into dst on backend b and accounts for the
// batch; on the GPU, dst is host.Pages when host is not nil. A GPU fault
// decodes the batch on the CPU (API-15). c.mu is held.
func (c *Compressor) decompress(b Backend, pages []CompressedPage, dst []Page, host *gpuimpl.HostPages) error {
	start := time.Now()
	var err error
	if b == BackendGPU {
		status := make([]uint32, len(pages))
		var gerr error
		if host != nil {
			_, gerr = c.gpu.DecompressHost(outputs(pages), host, status)
		} else {
			_, gerr = c.gpu.Decompress(outputs(pages), dst, status)
		}
		return c.finishDecode(pages, dst, status, gerr, start)
	}
	err = decodeCPU(b, pages, dst)
	c.accountDecode(len(pages), err, start)
	return err
}

// finishDecode makes the error of a GPU decode batch from its statuses
// (decodeErrors), or after a GPU fault decodes the batch on the CPU
// (API-15), and accounts for it; c.mu is held.
func (c *Compressor) finishDecode(pages []CompressedPage, dst []Page, status []uint32, gerr error, start time.Time) error {
	var err error
	switch {
	case gerr == nil:
		err = decodeErrors(pages, dst, status)
	case errors.Is(gerr, gpuimpl.ErrFault):
		c.dropLostGPU(gerr)
		c.stats.GPUFallbacks++
		err = decodeCPU(BackendSIMD, pages, dst)
	default:
		return gerr
	}
	c.accountDecode(len(pages), err, start)
	return err
}

// accountDecode adds a decode batch of n pages that began at start and
// ended with err to the statistics (API-14); c.mu is held.
func (c *Compressor) accountDecode(n int, err error, start time.Time) {
	var de *DecodeError
	if errors.As(err, &de) {
		n -= len(de.Pages)
	}
	c.stats.PagesDecompressed += uint64(n)
	c.stats.TotalTime += time.Since(start)
}

// decodeCPU decodes pages into dst with the fast decoder, on every core
// for BackendSIMD and on the calling goroutine otherwise.
func decodeCPU(b Backend, pages []CompressedPage, dst []Page) error {
	if b == BackendSIMD {
		return decompressParallel(pages, dst)
	}
	return decodeError(decompressRange(pages, dst, 0, len(pages)))
}

// decodeErrors makes the *DecodeError of a GPU batch from its statuses
// (GPU-11): a page of status DecodeBadPayload (a payload of the wrong
// length or kind, or one too long for the GPU) is decoded on the CPU,
// which gives its verdict; any other status gives fastlz4's error for the
// page, so that the error is the one the CPU backends return (API-20).
func decodeErrors(pages []CompressedPage, dst []Page, status []uint32) error {
	var bad []*PageError
	for i, s := range status {
		if s == gpuimpl.DecodeOK {
			continue
		}
		var err error
		if code, _ := gpuimpl.SplitStatus(s); code == gpuimpl.DecodeBadPayload {
			err = fastlz4.DecodePage(&dst[i], reference.Kind(pages[i].Kind), pages[i].Data)
		} else {
			err = gpuimpl.StatusError(s)
		}
		if err != nil {
			bad = append(bad, &PageError{Index: i, Err: err})
		}
	}
	return decodeError(bad)
}

// decodeError is the *DecodeError of the failed pages, sorted by index, or
// nil for none.
func decodeError(bad []*PageError) error {
	if bad == nil {
		return nil
	}
	slices.SortFunc(bad, func(a, b *PageError) int { return a.Index - b.Index })
	return &DecodeError{Pages: bad}
}

// outputs views pages as the GPU engine's Outputs, which have the same
// layout (a test checks it).
func outputs(pages []CompressedPage) []gpuimpl.Output {
	return unsafe.Slice((*gpuimpl.Output)(unsafe.Pointer(unsafe.SliceData(pages))), len(pages))
}

// DecompressBuffer decodes pages into buf.Pages()[:len(pages)] as
// DecompressBatch would, with the backend SelectDecodeBackend picks, the
// same pages, errors, fallbacks and statistics (API-22). On the GPU with a
// page-locked buffer the kernel writes each decoded page into the buffer
// through its mapping: the pages cross PCIe once, and the host copies
// nothing.
func (c *Compressor) DecompressBuffer(buf *PageBuffer, pages []CompressedPage) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.checkBuffer(buf, len(pages)); err != nil {
		return err
	}
	b := SelectDecodeBackend(len(pages), c.gpu != nil)
	if b == BackendGPU && buf.host == nil {
		b = BackendSIMD // the buffer is not page-locked: no faster on the GPU
	}
	return c.decompress(b, pages, buf.pages[:len(pages)], buf.host)
}

// PendingDecode is a decode batch that DecompressBufferAsync started
// (API-22).
type PendingDecode struct {
	c     *Compressor
	buf   *PageBuffer
	pages []CompressedPage
	dst   []Page // the buffer's pages the batch decodes into
	start time.Time
	gpu   *gpuimpl.DecodePending // the GPU's batch until Wait takes it
	err   error
	done  bool
}

// DecompressBufferAsync starts decoding pages into buf.Pages() as
// DecompressBuffer would and returns without waiting for the GPU; Wait
// returns the batch's error (API-22). Until then the buffer's pages and
// the payloads must not change, and the buffer takes no other batch. On
// the CPU the batch is decoded before DecompressBufferAsync returns.
func (c *Compressor) DecompressBufferAsync(buf *PageBuffer, pages []CompressedPage) (*PendingDecode, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.checkBuffer(buf, len(pages)); err != nil {
		return nil, err
	}
	p := &PendingDecode{c: c, buf: buf, pages: pages, dst: buf.pages[:len(pages)], start: time.Now()}
	if SelectDecodeBackend(len(pages), c.gpu != nil) == BackendGPU && buf.host != nil {
		gp, err := c.gpu.StartDecompressHost(outputs(pages), buf.host)
		if err == nil {
			p.gpu = gp
			buf.decoding = p
			return p, nil
		}
		if !errors.Is(err, gpuimpl.ErrFault) {
			return nil, err
		}
		p.err, p.done = c.finishDecode(pages, p.dst, nil, err, p.start), true
		return p, nil
	}
	p.err, p.done = c.decompress(SelectDecodeBackend(len(pages), false), pages, p.dst, nil), true
	return p, nil
}

// Wait returns the batch's error, as DecompressBuffer's (API-22); the
// buffer then takes other batches. Later calls return the same error.
func (p *PendingDecode) Wait() error {
	c := p.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if !p.done {
		p.done = true
		status := make([]uint32, len(p.pages))
		_, gerr := p.gpu.Wait(status)
		p.gpu = nil
		p.err = c.finishDecode(p.pages, p.dst, status, gerr, p.start)
	}
	if p.buf.decoding == p {
		p.buf.decoding = nil
	}
	return p.err
}
