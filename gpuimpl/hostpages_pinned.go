package gpuimpl

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/lz4warp/lz4warp/internal/cudart"
)

// NewHostPages returns room for n pages and their outputs, page-locked in
// the engine's context (RT-13). Close releases the lock.
func (e *Engine) NewHostPages(n int) (*HostPages, error) {
	if e.closed {
		return nil, ErrClosed
	}
	if err := checkHostPages(n); err != nil {
		return nil, err
	}
	h := newHostPages(n)
	h.lock.engines = []*Engine{e}
	e.dev.mu.RLock()
	defer e.dev.mu.RUnlock()
	if err := h.register(e.dev); err != nil {
		return nil, err
	}
	return h, nil
}

func checkHostPages(n int) error {
	if n < 1 || n > maxHostPages {
		return fmt.Errorf("gpuimpl: %d host pages: want 1 to %d", n, maxHostPages)
	}
	return nil
}

// register makes sure the memory is page-locked and mapped for device d,
// whose lock is held for reading, and sets h.dev to its address there. A
// context rebuilt after a fault has forgotten what the one before knew:
// memory locked in it is locked again, and the address of memory that a
// Pinner locked is looked up again (MD-4).
func (h *HostPages) register(d *deviceState) error {
	l := h.lock
	l.mu.Lock()
	defer l.mu.Unlock()
	if d.ctx == nil {
		return nil
	}
	if a, ok := l.addrs[d]; ok && a.gen == d.gen {
		h.dev = a.dev
		return nil
	}
	var dev cudart.DevicePtr
	var err error
	if l.pinner == nil {
		dev, err = d.ctx.Register(l.mem)
	} else {
		dev, err = d.ctx.HostDevicePointer(l.mem)
	}
	if err != nil {
		return err
	}
	l.addrs[d] = hostAddr{gen: d.gen, dev: uint64(dev)}
	h.dev = uint64(dev)
	return nil
}

// usableBy reports whether engine e may compress h.
func (h *HostPages) usableBy(e *Engine) bool {
	return h.lock.mem != nil && slices.Contains(h.lock.engines, e)
}

// Close unlocks the memory, after the batch that StartHost started, if
// Wait has not taken it; batches started on h's Ranges must be taken
// first. The outputs of earlier batches still read it, as Go memory; using
// h or its Ranges with an engine afterwards is an error.
func (h *HostPages) Close() error {
	l := h.lock
	if l.mem == nil {
		return nil
	}
	if h.pending != nil {
		h.pending.take() // the kernels stop writing into h
	}
	if h.decoding != nil {
		h.decoding.Wait(nil) // its error is its own Wait's
	}
	var err error
	if l.pinner != nil {
		err = l.pinner.unlock(l.mem)
	} else {
		d := l.engines[0].dev
		d.mu.RLock()
		if a, ok := l.addrs[d]; ok && d.ctx != nil && a.gen == d.gen {
			err = d.ctx.Unregister(l.mem)
		}
		d.mu.RUnlock()
	}
	l.mu.Lock()
	l.mem, l.addrs = nil, nil
	l.mu.Unlock()
	return err
}

// Pinner page-locks HostPages for several engines, on several devices, at
// once (MD-4): in a context of its own, which runs no kernel and so is
// never rebuilt after a fault, with the portable and mapped flags of
// cuMemHostRegister, so that every context sees the memory as locked and
// maps it. Each engine looks up the memory's device address in its own
// context, where it may differ. A fault on one device, and the rebuild of
// its context, then leaves the memory locked for the batches of the others.
type Pinner struct {
	mu     sync.Mutex
	ctx    *cudart.Context
	refs   int // 1 until Close, and 1 for each HostPages not yet closed
	closed bool
}

// NewPinner creates the Pinner's context on device index.
func NewPinner(index int) (*Pinner, error) {
	ctx, err := cudart.NewContext(index)
	if err != nil {
		return nil, err
	}
	return &Pinner{ctx: ctx, refs: 1}, nil
}

// NewHostPages returns room for n pages and their outputs that every one
// of engines may compress, page-locked by p.
func (p *Pinner) NewHostPages(n int, engines []*Engine) (*HostPages, error) {
	if err := checkHostPages(n); err != nil {
		return nil, err
	}
	for _, e := range engines {
		if e.closed {
			return nil, ErrClosed
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errors.New("gpuimpl: Pinner closed")
	}
	h := newHostPages(n)
	if _, err := p.ctx.Register(h.mem); err != nil {
		return nil, err
	}
	h.lock.engines, h.lock.pinner = slices.Clone(engines), p
	p.refs++
	return h, nil
}

// unlock unregisters mem, which p locked, and destroys p's context after
// Close and the last HostPages.
func (p *Pinner) unlock(mem []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	err := p.ctx.Unregister(mem)
	return errors.Join(err, p.release())
}

// Close destroys the Pinner's context once every HostPages it locked is
// closed; it makes no more.
func (p *Pinner) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	return p.release()
}

// release drops one reference; p.mu is held.
func (p *Pinner) release() error {
	if p.refs--; p.refs > 0 {
		return nil
	}
	return p.ctx.Close()
}

// maxHostPages bounds a HostPages at 28 GiB of page-locked memory.
const maxHostPages = 1 << 22

// errHostPages reports HostPages that Engine.CompressHost cannot use.
var errHostPages = errors.New("gpuimpl: HostPages closed or made for other engines")
