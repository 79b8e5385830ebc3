package gpuimpl

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/lz4warp/lz4warp/internal/cudart"
)

// decoder is an engine's decode state (RT-17): the streams of the copies
// in, the kernels and the copies out, its events, a pinned staging buffer
// of the chunks' descriptors and payloads and its device copy, the
// device's output pages and their pinned landing place for batches copied
// out, and the status words, which the kernel writes through their
// mapping. The buffers grow as batches need them and go with the ring
// (release).
type decoder struct {
	in, run    *cudart.Stream // the copies in; the kernels
	out        *cudart.Stream // the copies out, and the batch's end
	begin, end *cudart.Event
	marks      []*cudart.Event // per chunk: its copy in done, its kernel's start and end
	staging    *cudart.HostBuffer
	dIn        cudart.DevicePtr
	dOut       cudart.DevicePtr
	landing    *cudart.HostBuffer
	status     *cudart.HostBuffer
	inCap      int // bytes of staging and dIn
	outCap     int // pages of dOut
	landingCap int // pages of landing
	statusCap  int // pages of status
	offsets    []uint32
	pending    *DecodePending // the batch on its way, until its Wait
}

// decodeOut is where a decode batch's pages go from the device's output
// pages: by DMA into a HostPages (host), or by DMA into the landing and
// from there into pages (copy), or nowhere (a kernel-only batch).
type decodeOut struct {
	host  *HostPages
	pages [][PageSize]byte
	copy  bool
}

// DecodePending is a decode batch on its way (RT-17); Wait takes it.
type DecodePending struct {
	e     *Engine
	n     int
	out   decodeOut
	gen   int
	marks int // the chunks' marks used: decodeMarks per chunk
	t     Timings
	err   error // set when the batch failed before it was queued whole
	done  bool
	stat  []uint32
}

// Decompress decodes pages into dst[:len(pages)] on the GPU: the kernel
// writes the pages into device memory, DMA copies them into pinned memory
// and the host copies those that decoded into dst. status[i] gets page i's
// status word (GPU-11; StatusError gives its error, and a DecodeBadPayload
// page is the caller's to decode on the CPU). A CUDA failure is returned
// wrapping ErrFault, and the context is rebuilt for the next batch (RT-9).
func (e *Engine) Decompress(pages []Output, dst [][PageSize]byte, status []uint32) (Timings, error) {
	if len(dst) < len(pages) {
		return Timings{}, fmt.Errorf("gpuimpl: %d pages into %d", len(pages), len(dst))
	}
	return e.decodeNow(pages, decodeOut{pages: dst[:len(pages)], copy: true}, status)
}

// DecompressHost decodes pages into h.Pages[:len(pages)], which the DMA
// engine copies the device's pages into, so that the pages cross PCIe
// once (RT-17); a page that does not decode is cleared. Otherwise as
// Decompress.
func (e *Engine) DecompressHost(pages []Output, h *HostPages, status []uint32) (Timings, error) {
	if err := e.checkHost(h, len(pages)); err != nil {
		return Timings{}, err
	}
	return e.decodeNow(pages, decodeOut{host: h}, status)
}

// DecompressDevice decodes pages into the device's memory and leaves them
// there: the kernel-only measure of the benchmarks (Timings.Kernel).
func (e *Engine) DecompressDevice(pages []Output, status []uint32) (Timings, error) {
	return e.decodeNow(pages, decodeOut{}, status)
}

// StartDecompressHost starts DecompressHost and returns once the batch is
// queued; Wait gives its statuses. Until then h and the payloads must not
// change. The engine holds one decode batch on its way: the next waits for
// it first.
func (e *Engine) StartDecompressHost(pages []Output, h *HostPages) (*DecodePending, error) {
	if err := e.checkHost(h, len(pages)); err != nil {
		return nil, err
	}
	return e.startDecode(pages, decodeOut{host: h})
}

func (e *Engine) decodeNow(pages []Output, out decodeOut, status []uint32) (Timings, error) {
	p, err := e.startDecode(pages, out)
	if err != nil {
		return Timings{}, err
	}
	return p.Wait(status)
}

// startDecode queues a decode batch: chunk k (decodeChunks) is laid out in
// the staging buffer by the host and then, in stream k mod 2,
// copied to the device, decoded and, for a batch copied out, copied back;
// the host lays out chunk k+1 while the device works on chunk k.
func (e *Engine) startDecode(pages []Output, out decodeOut) (*DecodePending, error) {
	if e.closed {
		return nil, ErrClosed
	}
	if e.dec.pending != nil {
		e.dec.pending.Wait(nil) // its error is its own Wait's
	}
	n := len(pages)
	p := &DecodePending{e: e, n: n, out: out}
	if n == 0 {
		p.done = true
		return p, nil
	}
	e.makeRoom()
	d := e.dev
	d.mu.RLock()
	err := e.prepare()
	if err == nil && out.host != nil {
		err = out.host.register(d)
	}
	p.gen = d.gen
	if err == nil {
		err = e.queueDecode(p, pages)
	}
	d.mu.RUnlock()
	if err != nil {
		e.drain()
		p.err, p.done = e.recover(p.gen, err), true
		return nil, p.err
	}
	e.dec.pending = p
	if out.host != nil {
		out.host.decoding = p
	}
	return p, nil
}

// queueDecode grows the buffers and queues the batch's chunks; d.mu is
// held for reading.
func (e *Engine) queueDecode(p *DecodePending, pages []Output) error {
	fault, err := e.takeFault()
	if err != nil {
		return err
	}
	n := len(pages)
	b := layoutBatch(pages, e.scratchOffsets(n))
	chunks := len(b.sizes)
	if err := e.dec.grow(e, b.size, n, p.out.copy, decodeMarks*chunks); err != nil {
		return err
	}
	dc := &e.dec
	for i := range dc.status.Bytes[:4*n] {
		dc.status.Bytes[i] = 0xff // noStatus: no status the kernel writes
	}
	if err := dc.begin.Record(dc.in); err != nil {
		return err
	}
	start := time.Now()
	err = b.fill(dc.staging.Bytes, pages, func(k int, piece []byte, lo int) error {
		if k == chunks-1 {
			p.t.Stage = time.Since(start)
		}
		cn := b.sizes[k]
		in := dc.dIn + cudart.DevicePtr(b.pieces[k])
		out := dc.dOut + cudart.DevicePtr(lo*PageSize)
		block := cudart.Dim{X: DecodeThreads}
		statusAt := uint64(dc.status.Device) + uint64(4*lo)
		copied, started, ended := dc.marks[decodeMarks*k], dc.marks[decodeMarks*k+1], dc.marks[decodeMarks*k+2]
		steps := []func() error{
			func() error { return dc.in.CopyHtoD(in, piece) },
			func() error { return copied.Record(dc.in) },
			func() error { return dc.run.Wait(copied) },
			func() error { return started.Record(dc.run) },
			func() error {
				if trapped, err := e.injectLaunchFault(fault, dc.run, &statusAt, &block); trapped {
					return err
				}
				return dc.run.Launch(e.dev.decode, cudart.Dim{X: DecodeBlocks(cn)}, block, 0,
					uint64(in), uint64(in)+uint64(b.layouts[k].payload), uint64(out), statusAt, uint64(cn))
			},
			func() error { return ended.Record(dc.run) },
			func() error { return dc.out.Wait(ended) },
			func() error {
				switch {
				case p.out.host != nil:
					return dc.out.CopyDtoH(pageBytes(p.out.host.Pages[lo:lo+cn]), out)
				case p.out.copy:
					return dc.out.CopyDtoH(dc.landing.Bytes[lo*PageSize:(lo+cn)*PageSize], out)
				}
				return nil
			},
		}
		err := runSteps(steps)
		fault = NoFault // injected into the first chunk only
		return err
	})
	if err != nil {
		return err
	}
	p.marks = decodeMarks * chunks
	return dc.end.Record(dc.out)
}

// decodeMarks is the events a decode chunk records: its copy in done, its
// kernel's start and end.
const decodeMarks = 3

// scratchOffsets is room for the payload offsets of a batch of n pages.
func (e *Engine) scratchOffsets(n int) []uint32 {
	if len(e.dec.offsets) < n {
		e.dec.offsets = make([]uint32, n)
	}
	return e.dec.offsets[:n]
}

// Wait waits for the batch, fills status[:n] (when status is not nil) and,
// for a batch copied out, copies its decoded pages into the caller's. A
// CUDA failure is returned wrapping ErrFault (RT-9).
func (p *DecodePending) Wait(status []uint32) (Timings, error) {
	e := p.e
	if !p.done {
		p.done = true
		p.err = p.finish()
		if e.dec.pending == p {
			e.dec.pending = nil
		}
		if h := p.out.host; h != nil && h.decoding == p {
			h.decoding = nil
		}
	}
	if p.err != nil {
		return p.t, p.err
	}
	if status != nil {
		copy(status[:p.n], p.stat)
	}
	return p.t, nil
}

// finish waits for the device and takes the batch's statuses and pages.
func (p *DecodePending) finish() error {
	e := p.e
	d := e.dev
	d.mu.RLock()
	err := p.collect()
	d.mu.RUnlock()
	if err != nil {
		e.drain()
		return e.recover(p.gen, err)
	}
	return nil
}

// collect is finish's part under the device's lock.
func (p *DecodePending) collect() error {
	e, dc := p.e, &p.e.dec
	if e.slots == nil || e.gen != p.gen || e.dev.gen != p.gen {
		return fmt.Errorf("%w: the context was rebuilt while the decode batch was on the device", ErrFault)
	}
	if err := dc.end.Synchronize(); err != nil {
		return err
	}
	var err error
	if p.t.Total, err = dc.begin.Elapsed(dc.end); err != nil {
		return err
	}
	for k := 0; k < p.marks; k += decodeMarks {
		dt, err := dc.marks[k+1].Elapsed(dc.marks[k+2])
		if err != nil {
			return err
		}
		p.t.Kernel += dt
	}
	words := unsafe.Slice((*uint32)(unsafe.Pointer(&dc.status.Bytes[0])), p.n)
	p.stat = append([]uint32(nil), words...)
	for i, w := range p.stat {
		if w == noStatus {
			return fmt.Errorf("%w: page %d has no status after the decode kernels ended", ErrFault, i)
		}
	}
	if h := p.out.host; h != nil {
		for i, w := range p.stat {
			if w != DecodeOK {
				clear(h.Pages[i][:]) // the DMA copied the device's page, which the kernel left as it was
			}
		}
	}
	if p.out.copy {
		start := time.Now()
		landing := dc.landing.Bytes
		parallel(p.n, 512, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if p.stat[i] == DecodeOK {
					copy(p.out.pages[i][:], landing[i*PageSize:(i+1)*PageSize])
				}
			}
		})
		p.t.Assemble = time.Since(start)
	}
	return nil
}

// grow makes the decoder's buffers hold a batch: in bytes of staging, n
// pages of status and of device output, with landing of pinned landing,
// and marks events of the chunks' marks; d.mu is held for reading. A
// buffer is replaced by a larger one, with room to spare, only when it is
// too small.
func (dc *decoder) grow(e *Engine, in, n int, landing bool, marks int) error {
	ctx := e.dev.ctx
	var err error
	if dc.in == nil {
		for _, s := range []**cudart.Stream{&dc.in, &dc.run, &dc.out} {
			if *s, err = ctx.NewStream(); err != nil {
				return err
			}
		}
		for _, ev := range []**cudart.Event{&dc.begin, &dc.end} {
			if *ev, err = ctx.NewEvent(); err != nil {
				return err
			}
		}
	}
	for len(dc.marks) < marks {
		ev, err := ctx.NewEvent()
		if err != nil {
			return err
		}
		dc.marks = append(dc.marks, ev)
	}
	roomy := func(need int) int { return need + need/4 }
	free := func(p cudart.DevicePtr) {
		if p != 0 {
			ctx.Free(p)
		}
	}
	if in > dc.inCap {
		dc.staging.Free()
		free(dc.dIn)
		dc.staging, dc.dIn, dc.inCap = nil, 0, 0
		size := roomy(in)
		if dc.staging, err = ctx.HostAlloc(size); err != nil {
			return err
		}
		if dc.dIn, err = ctx.Alloc(size); err != nil {
			return err
		}
		dc.inCap = size
	}
	if n > dc.statusCap {
		dc.status.Free()
		dc.status, dc.statusCap = nil, 0
		size := roomy(n)
		if dc.status, err = ctx.HostAlloc(4 * size); err != nil {
			return err
		}
		dc.statusCap = size
	}
	if n > dc.outCap {
		free(dc.dOut)
		dc.dOut, dc.outCap = 0, 0
		size := roomy(n)
		if dc.dOut, err = ctx.Alloc(size * PageSize); err != nil {
			return err
		}
		dc.outCap = size
	}
	if landing && n > dc.landingCap {
		dc.landing.Free()
		dc.landing, dc.landingCap = nil, 0
		size := roomy(n)
		if dc.landing, err = ctx.HostAlloc(size * PageSize); err != nil {
			return err
		}
		dc.landingCap = size
	}
	return nil
}

// release frees the decoder's buffers, streams and events in ctx; what a
// destroyed context held is gone already (live is false).
func (dc *decoder) release(ctx *cudart.Context, live bool) {
	if live {
		dc.staging.Free()
		dc.landing.Free()
		dc.status.Free()
		for _, p := range []cudart.DevicePtr{dc.dIn, dc.dOut} {
			if p != 0 {
				ctx.Free(p)
			}
		}
		for _, s := range []*cudart.Stream{dc.in, dc.run, dc.out} {
			s.Destroy()
		}
		for _, ev := range append([]*cudart.Event{dc.begin, dc.end}, dc.marks...) {
			ev.Destroy()
		}
	}
	pending := dc.pending
	*dc = decoder{pending: pending}
}

// noStatus fills the status words before a batch: the kernel writes no
// such word (its codes are below 5), so one left after the batch is a page
// it never decoded.
const noStatus = 0xffffffff

// errDecodeHost reports a decode into a HostPages that has a batch on its
// way.
var errDecodeHost = errors.New("gpuimpl: the HostPages has a decode batch that Wait has not taken")
