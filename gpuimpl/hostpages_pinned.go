package gpuimpl

import (
	"errors"
	"fmt"
)

// NewHostPages returns room for n pages and their outputs, page-locked in
// the engine's context (RT-13). Close releases the lock.
func (e *Engine) NewHostPages(n int) (*HostPages, error) {
	if e.closed {
		return nil, ErrClosed
	}
	if n < 1 || n > maxHostPages {
		return nil, fmt.Errorf("gpuimpl: %d host pages: want 1 to %d", n, maxHostPages)
	}
	h := newHostPages(n)
	h.owner = e
	e.dev.mu.RLock()
	defer e.dev.mu.RUnlock()
	if err := h.register(); err != nil {
		return nil, err
	}
	return h, nil
}

// register page-locks the memory in the device's current context, unless
// it already is; the lock of the device is held for reading. A context
// rebuilt after a fault has forgotten the registrations of the one before.
func (h *HostPages) register() error {
	d := h.owner.dev
	if d.ctx == nil || h.gen == d.gen {
		return nil
	}
	dev, err := d.ctx.Register(h.mem)
	if err != nil {
		return err
	}
	h.gen, h.dev = d.gen, uint64(dev)
	return nil
}

// Close unlocks the memory, after the batch that StartHost started, if
// Wait has not taken it. The outputs of earlier batches still read it, as
// Go memory; using h with an engine afterwards is an error.
func (h *HostPages) Close() error {
	if h.mem == nil {
		return nil
	}
	if h.pending != nil {
		h.pending.take() // the kernels stop writing into h
	}
	d := h.owner.dev
	d.mu.RLock()
	defer d.mu.RUnlock()
	var err error
	if d.ctx != nil && h.gen == d.gen {
		err = d.ctx.Unregister(h.mem)
	}
	h.mem, h.gen = nil, -1
	return err
}

// maxHostPages bounds a HostPages at 28 GiB of page-locked memory.
const maxHostPages = 1 << 22

// errHostPages reports HostPages that Engine.CompressHost cannot use.
var errHostPages = errors.New("gpuimpl: HostPages closed or made by another engine")
