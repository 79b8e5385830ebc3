package lz4warp

import (
	"fmt"

	"github.com/lz4warp/lz4warp/gpuimpl"
)

// PageBuffer holds pages for CompressBuffer. On a Compressor with a GPU
// its memory is page-locked, so that the GPU reads the pages straight from
// it and writes the outputs straight back into it (batches of up to 16,384
// pages from the kernel itself, larger ones by copies): the host copies
// nothing, where CompressBatch copies every page into page-locked memory
// and every output out of it (API-18). A PageBuffer is used by one
// goroutine at a time.
type PageBuffer struct {
	c     *Compressor
	pages []Page
	host  *gpuimpl.HostPages // nil when the memory is not page-locked
}

// NewPageBuffer returns a buffer of n pages for c.CompressBuffer. Its
// memory is page-locked when c has a GPU and the driver locks it, and
// ordinary memory otherwise (Pinned tells which); CompressBuffer gives the
// same bytes either way. Close unlocks it.
func (c *Compressor) NewPageBuffer(n int) (*PageBuffer, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: a buffer of %d pages", ErrBadBuffer, n)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, ErrClosed
	}
	b := &PageBuffer{c: c}
	if c.gpu != nil {
		if h, err := c.gpu.NewHostPages(n); err == nil {
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

// Close unlocks the buffer's memory. Payloads that point into it stay
// readable; the buffer cannot be compressed again.
func (b *PageBuffer) Close() error {
	b.c.mu.Lock()
	defer b.c.mu.Unlock()
	if b.pages == nil {
		return nil
	}
	b.pages = nil
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
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, ErrClosed
	}
	switch {
	case buf.c != c:
		return nil, fmt.Errorf("%w: the buffer belongs to another Compressor", ErrBadBuffer)
	case buf.pages == nil:
		return nil, fmt.Errorf("%w: the buffer is closed", ErrBadBuffer)
	case n < 0 || n > len(buf.pages):
		return nil, fmt.Errorf("%w: %d pages of a buffer of %d", ErrBadBuffer, n, len(buf.pages))
	}
	return c.compress(SelectBackend(n, c.gpu != nil), buf.pages[:n], buf.host)
}
