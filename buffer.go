package lz4warp

import (
	"fmt"
	"time"

	"github.com/lz4warp/lz4warp/gpuimpl"
)

// PageBuffer holds pages for CompressBuffer. On a Compressor with a GPU
// its memory is page-locked, so that the GPU reads the pages straight from
// it and writes the outputs straight back into it (batches of up to 32,768
// pages from the kernel itself, larger ones by copies): the host copies
// nothing, where CompressBatch copies every page into page-locked memory
// and every output out of it (API-18). A PageBuffer is used by one
// goroutine at a time.
type PageBuffer struct {
	c       *Compressor
	pages   []Page
	host    *gpuimpl.HostPages // nil when the memory is not page-locked
	pending *PendingBatch      // the batch CompressBufferAsync started, until its Wait
	// decoding is the batch DecompressBufferAsync started, until its Wait.
	decoding *PendingDecode
}

// NewPageBuffer returns a buffer of n pages for c.CompressBuffer. Its
// memory is page-locked when c has a GPU and the driver locks it, and
// ordinary memory otherwise (Pinned tells which); CompressBuffer gives the
// same bytes either way. Close unlocks it.
func (c *Compressor) NewPageBuffer(n int) (*PageBuffer, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: a buffer of %d pages", ErrBadBuffer, n)
	}
	c.life.RLock()
	defer c.life.RUnlock()
	if c.closed {
		return nil, ErrClosed
	}
	b := &PageBuffer{c: c}
	if gpu := c.pool(); gpu != nil {
		if h, err := gpu.newHost(n); err == nil {
			b.host, b.pages = h, h.Pages
			return b, nil
		}
	}
	b.pages = make([]Page, n)
	return b, nil
}

// Pages are the buffer's pages, to be filled before CompressBuffer.
func (b *PageBuffer) Pages() []Page { return b.pages }

// Pinned reports whether the buffer's memory is page-locked for the GPU.
func (b *PageBuffer) Pinned() bool { return b.host != nil }

// Close unlocks the buffer's memory, after the GPU has finished a batch
// that CompressBufferAsync started on it (its Wait still returns it).
// Payloads that point into it stay readable; the buffer cannot be
// compressed again.
func (b *PageBuffer) Close() error {
	if b.pages == nil {
		return nil
	}
	b.pages = nil
	// The devices stop writing into the buffer; Wait still returns the
	// batches.
	if p := b.pending; p != nil && p.gpu != nil {
		p.gpu.Wait()
	}
	if p := b.decoding; p != nil && !p.done {
		p.Wait()
	}
	if b.host != nil {
		return b.host.Close()
	}
	return nil
}

// CompressBuffer compresses buf.Pages()[:n] as CompressBatch does, with the
// backend SelectBackend picks, the same bytes (API-16), fallbacks and
// statistics. On the GPU, with a page-locked buffer, the result's Pages
// slice and its payloads live in buf: they stay valid until buf's next
// CompressBuffer, and are to be copied out before that if they are to be
// kept (API-18).
func (c *Compressor) CompressBuffer(buf *PageBuffer, n int) (*BatchResult, error) {
	c.life.RLock()
	defer c.life.RUnlock()
	if err := c.checkBuffer(buf, n); err != nil {
		return nil, err
	}
	start := time.Now()
	b := SelectBackend(n, c.hasGPU())
	res := &BatchResult{Backend: b}
	stored, err := c.run(res, buf.pages[:n], buf.host)
	if err != nil {
		return nil, err
	}
	c.account(b, res, stored, start)
	return res, nil
}

// checkBuffer checks that a batch of buf's first n pages may start; life's
// read lock is held.
func (c *Compressor) checkBuffer(buf *PageBuffer, n int) error {
	switch {
	case c.closed:
		return ErrClosed
	case buf == nil:
		return fmt.Errorf("%w: no buffer", ErrBadBuffer)
	case buf.c != c:
		return fmt.Errorf("%w: the buffer belongs to another Compressor", ErrBadBuffer)
	case buf.pages == nil:
		return fmt.Errorf("%w: the buffer is closed", ErrBadBuffer)
	case n < 0 || n > len(buf.pages):
		return fmt.Errorf("%w: %d pages of a buffer of %d", ErrBadBuffer, n, len(buf.pages))
	case buf.pending != nil || buf.decoding != nil:
		return fmt.Errorf("%w: the buffer has a batch that Wait has not returned", ErrBadBuffer)
	}
	return nil
}

// PendingBatch is a batch that CompressBufferAsync started (API-19).
type PendingBatch struct {
	c     *Compressor
	buf   *PageBuffer
	pages []Page
	start time.Time
	gpu   *poolPending // the GPU's batch until Wait takes it
	// ran is set while a batch that CompressBufferAsync compressed itself
	// waits for Wait to account for it, on backend b, with stored payload
	// bytes.
	ran    bool
	b      Backend
	stored int
	res    *BatchResult
	err    error
}

// CompressBufferAsync starts compressing buf.Pages()[:n] as CompressBuffer
// would, and returns without waiting for the GPU, so that the caller can
// fill and start other buffers while this batch runs: with a few batches
// on their way the GPU stays busy between them (API-19, RT-15). Wait
// returns the result, the same as CompressBuffer's. Until then the
// buffer's pages must not change and the buffer takes no other batch. On
// the CPU, or for a batch larger than the GPU takes at once, the batch is
// compressed before CompressBufferAsync returns. At most RingBufferSlots
// batches are on their way on the GPU: starting one more waits for the
// oldest to end.
func (c *Compressor) CompressBufferAsync(buf *PageBuffer, n int) (*PendingBatch, error) {
	c.life.RLock()
	defer c.life.RUnlock()
	if err := c.checkBuffer(buf, n); err != nil {
		return nil, err
	}
	p := &PendingBatch{c: c, buf: buf, pages: buf.pages[:n], start: time.Now()}
	buf.pending = p
	started := false
	if buf.host != nil {
		if gpu := c.pool(); gpu != nil {
			if p.b = SelectBackend(n, true); p.b == BackendGPU {
				p.gpu, p.err = gpu.start(p.pages, buf.host)
				started = true
			}
		}
	}
	if !started {
		p.b = SelectBackend(n, c.hasGPU())
		p.res = &BatchResult{Backend: p.b}
		p.stored, p.err = c.run(p.res, p.pages, buf.host)
		p.ran = p.err == nil
	}
	if p.err != nil {
		buf.pending = nil
		return nil, p.err
	}
	return p, nil
}

// Wait returns the batch's result: the GPU's outputs, or the CPU's after
// a GPU fault (API-15), with the statistics accounted for then, and a
// TotalTime from CompressBufferAsync to the end of Wait. The buffer is
// then free for another batch; its outputs live in it as CompressBuffer's
// do. Later calls return the same result.
func (p *PendingBatch) Wait() (*BatchResult, error) {
	c := p.c
	if p.gpu != nil {
		gb, err := p.gpu.Wait() // holds no lock while the device works
		gpu := p.gpu.p
		p.gpu = nil
		p.res = &BatchResult{Backend: BackendGPU}
		if err == nil {
			p.res.Pages, p.stored = gb.pages, payloadBytes(gb.pages)
			c.setGPUTimings(p.res, gb.timings, gb.cpuPages > 0)
			p.ran = true
		} else {
			p.res, p.err = nil, err
		}
		c.dropLostGPUs(gpu)
	}
	if p.ran {
		c.account(p.b, p.res, p.stored, p.start)
		p.ran = false
	}
	if p.buf.pending == p {
		p.buf.pending = nil
	}
	return p.res, p.err
}
