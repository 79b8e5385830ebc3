//go:build cuda

package gpuimpl

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/lz4warp/lz4warp/internal/cudart"
)

// Devices lists the CUDA devices from their own attributes (RT-1).
func Devices() ([]Device, error) {
	infos, err := cudart.Devices()
	if err != nil {
		return nil, err
	}
	devs := make([]Device, len(infos))
	for i, d := range infos {
		devs[i] = Device{Index: d.Ordinal, Name: d.Name, TotalMemory: d.TotalMemory,
			L2CacheSize: d.L2CacheSize, Major: d.Major, Minor: d.Minor}
	}
	return devs, nil
}

// deviceState is the one context of a device that every Engine on it
// shares, with the page kernel JIT-compiled into it once (RT-5).
type deviceState struct {
	// mu is held for reading by every batch and for writing by a rebuild,
	// so that no batch runs in a context being destroyed.
	mu    sync.RWMutex
	index int
	info  cudart.DeviceInfo
	sm    int
	ctx   *cudart.Context // nil after a failed rebuild
	fn    *cudart.Function
	// offsets and gather are the D2H kernels of GPU-8.
	offsets, gather *cudart.Function
	trap            *cudart.Function // loaded when a test first injects a launch failure
	gen             int              // counts rebuilds; buffers of an older generation are gone
	refs            int
	lost            error // the sticky fault that made the device unusable, if any
}

var (
	devicesMu sync.Mutex
	devices   = map[int]*deviceState{}
	ptxTexts  sync.Map // [2]string{KernelPTX(sm), GatherPTX(sm)} by sm
)

// kernelTexts are the page and gather modules for sm, generated once.
func kernelTexts(sm int) [2]string {
	if t, ok := ptxTexts.Load(sm); ok {
		return t.([2]string)
	}
	t, _ := ptxTexts.LoadOrStore(sm, [2]string{KernelPTX(sm), GatherPTX(sm)})
	return t.([2]string)
}

// acquireDevice returns the device's shared state, creating its context
// and loading the kernel on first use.
func acquireDevice(index int) (*deviceState, error) {
	devicesMu.Lock()
	defer devicesMu.Unlock()
	if d, ok := devices[index]; ok {
		d.refs++
		return d, nil
	}
	info, err := cudart.Device(index)
	if err != nil {
		return nil, err
	}
	sm := KernelTarget(info.Major, info.Minor)
	if sm == 0 {
		return nil, fmt.Errorf("%w: device %d (%s) has compute capability %d.%d, the kernel needs 7.0",
			ErrNotAvailable, index, info.Name, info.Major, info.Minor)
	}
	d := &deviceState{index: index, info: info, sm: sm, refs: 1}
	if err := d.load(); err != nil {
		return nil, err
	}
	devices[index] = d
	return d, nil
}

// load creates the context and JIT-compiles the kernels into it.
func (d *deviceState) load() error {
	ctx, err := cudart.NewContext(d.index)
	if err != nil {
		return err
	}
	var mods [2]*cudart.Module
	var fns [3]*cudart.Function
	for i, f := range []struct {
		module int
		name   string
	}{{0, KernelName}, {1, OffsetsName}, {1, GatherName}} {
		var err error
		if mods[f.module] == nil {
			mods[f.module], err = ctx.LoadPTX(kernelTexts(d.sm)[f.module])
		}
		if err == nil {
			fns[i], err = mods[f.module].Function(f.name)
		}
		if err != nil {
			ctx.Close()
			return fmt.Errorf("gpuimpl: loading the sm_%d %s on %s: %w", d.sm, f.name, d.info.Name, err)
		}
	}
	d.ctx, d.fn, d.offsets, d.gather, d.trap = ctx, fns[0], fns[1], fns[2], nil
	return nil
}

// rebuild replaces the context after a fault in generation gen; when
// another engine has already rebuilt it, it does nothing. After a sticky
// fault the device is lost instead: the driver fails every later call of
// the process, cuCtxCreate included, with the same error (RT-4).
func (d *deviceState) rebuild(gen int, cause error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lost != nil {
		return d.lost
	}
	var ce *cudart.Error
	if errors.As(cause, &ce) && ce.Code.Sticky() {
		d.lost = fmt.Errorf("%w: %w", ErrDeviceLost, cause)
		return d.lost
	}
	if d.gen != gen && d.ctx != nil {
		return nil
	}
	if d.ctx != nil {
		d.ctx.Close() // a poisoned context reports its error again; it is gone either way
	}
	d.ctx, d.fn, d.offsets, d.gather, d.trap = nil, nil, nil, nil, nil
	d.gen++
	return d.load()
}

func releaseDevice(d *deviceState) error {
	devicesMu.Lock()
	defer devicesMu.Unlock()
	d.refs--
	if d.refs > 0 {
		return nil
	}
	delete(devices, d.index)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ctx == nil {
		return nil
	}
	return d.ctx.Close()
}

// Engine compresses page batches on one GPU through a ring of slots
// (RT-6). An Engine runs one batch at a time; engines on the same device
// share its context.
type Engine struct {
	opts   Options
	dev    *deviceState
	gen    int     // the generation the slots were allocated in
	slots  []*slot // nil until allocated, and after a fault
	tail   *cudart.Stream
	begin  *cudart.Event
	end    *cudart.Event
	inject Fault
	closed bool
}

// slot is one ring slot: pinned host buffers, device buffers, a stream and
// the events that delimit its stages.
type slot struct {
	stream  *cudart.Stream
	src     *cudart.HostBuffer // BatchPages pages
	meta    *cudart.HostBuffer // BatchPages meta words, mapped
	dst     *cudart.HostBuffer // the packed payloads, at most BatchPages slots
	total   *cudart.HostBuffer // the packed payloads' size, mapped
	dSrc    cudart.DevicePtr
	dMeta   cudart.DevicePtr
	dDst    cudart.DevicePtr // BatchPages output slots
	dOffset cudart.DevicePtr // BatchPages packed offsets
	dPacked cudart.DevicePtr // the packed payloads
	ev      [4]*cudart.Event // before H2D, before the kernel, after it, after D2H
	counted *cudart.Event    // after the offsets kernel: total is known
	busy    bool
	chunk
}

// chunk is the part of a batch a slot has in flight: pages[lo:lo+n], the
// pinned host memory it is copied from and its meta words and packed
// payloads come back into (the slot's own buffers, or the caller's
// HostPages), with the device address of hMeta, and the size of the packed
// payloads once the offsets kernel has run.
type chunk struct {
	lo, n             int
	hSrc, hMeta, hDst []byte
	hMetaDev          uint64
	packed            int
}

// ErrClosed reports the use of a closed Engine.
var ErrClosed = errors.New("gpuimpl: engine closed")

// Open creates (or shares) the device's context, JIT-compiles the kernel
// once per context and allocates the ring (RT-5).
func Open(opts Options) (*Engine, error) {
	if opts.BatchPages < 1 || opts.RingSlots < 1 {
		return nil, fmt.Errorf("gpuimpl: BatchPages %d and RingSlots %d must be at least 1", opts.BatchPages, opts.RingSlots)
	}
	if opts.BatchPages > 1<<24/PagesPerBlock {
		return nil, fmt.Errorf("gpuimpl: BatchPages %d is too large", opts.BatchPages)
	}
	d, err := acquireDevice(opts.DeviceIndex)
	if err != nil {
		return nil, err
	}
	if d.lost != nil {
		releaseDevice(d)
		return nil, d.lost
	}
	e := &Engine{opts: opts, dev: d}
	d.mu.RLock()
	err = e.allocate()
	d.mu.RUnlock()
	if err != nil {
		e.release()
		releaseDevice(d)
		return nil, err
	}
	return e, nil
}

// Device is the engine's device.
func (e *Engine) Device() Device {
	i := e.dev.info
	return Device{Index: i.Ordinal, Name: i.Name, TotalMemory: i.TotalMemory, L2CacheSize: i.L2CacheSize, Major: i.Major, Minor: i.Minor}
}

// Target is the PTX target the engine's kernel was compiled from.
func (e *Engine) Target() int { return e.dev.sm }

// allocate makes the ring in the current context; d.mu is held for reading.
func (e *Engine) allocate() error {
	ctx := e.dev.ctx
	if ctx == nil {
		return errors.New("gpuimpl: no context")
	}
	e.gen = e.dev.gen
	nslots := e.opts.RingSlots
	if !e.opts.AsyncDMA {
		nslots = 1 // in order: one slot at a time
	}
	var err error
	if e.tail, err = ctx.NewStream(); err != nil {
		return err
	}
	if e.begin, err = ctx.NewEvent(); err != nil {
		return err
	}
	if e.end, err = ctx.NewEvent(); err != nil {
		return err
	}
	b := e.opts.BatchPages
	for range nslots {
		s := &slot{}
		e.slots = append(e.slots, s)
		if s.stream, err = ctx.NewStream(); err != nil {
			return err
		}
		if s.src, err = ctx.HostAlloc(b * PageSize); err != nil {
			return err
		}
		if s.meta, err = ctx.HostAlloc(b * 4); err != nil {
			return err
		}
		if s.dst, err = ctx.HostAlloc(b * OutSlot); err != nil {
			return err
		}
		if s.total, err = ctx.HostAlloc(4); err != nil {
			return err
		}
		if s.dSrc, err = ctx.Alloc(b * PageSize); err != nil {
			return err
		}
		if s.dMeta, err = ctx.Alloc(b * 4); err != nil {
			return err
		}
		if s.dDst, err = ctx.Alloc(b * OutSlot); err != nil {
			return err
		}
		if s.dOffset, err = ctx.Alloc(b * 4); err != nil {
			return err
		}
		if s.dPacked, err = ctx.Alloc(b * OutSlot); err != nil {
			return err
		}
		if s.counted, err = ctx.NewEvent(); err != nil {
			return err
		}
		for i := range s.ev {
			if s.ev[i], err = ctx.NewEvent(); err != nil {
				return err
			}
		}
	}
	return nil
}

// release frees the ring; what a destroyed context held is already gone.
func (e *Engine) release() {
	ctx := e.dev.ctx
	for _, s := range e.slots {
		if ctx != nil && e.gen == e.dev.gen {
			s.src.Free()
			s.meta.Free()
			s.dst.Free()
			s.total.Free()
			for _, p := range []cudart.DevicePtr{s.dSrc, s.dMeta, s.dDst, s.dOffset, s.dPacked} {
				ctx.Free(p)
			}
			for _, ev := range append(s.ev[:], s.counted) {
				ev.Destroy()
			}
			s.stream.Destroy()
		}
	}
	if ctx != nil && e.gen == e.dev.gen {
		e.begin.Destroy()
		e.end.Destroy()
		e.tail.Destroy()
	}
	e.slots, e.tail, e.begin, e.end = nil, nil, nil, nil
}

// InjectFault makes the next Compress call provoke f (RT-9).
func (e *Engine) InjectFault(f Fault) { e.inject = f }

// Compress compresses pages on the GPU. A CUDA failure during the batch is
// returned wrapping ErrFault; the context is then rebuilt for the next
// batch, and this batch's output is void (RT-9).
func (e *Engine) Compress(pages [][PageSize]byte) ([]Output, Timings, error) {
	return e.compress(pages, nil)
}

// CompressHost compresses h.Pages[:n] like Compress, but copies them to the
// device straight from h and the outputs straight back into h, and returns
// outputs that point into h and are kept in it (RT-13): they stay valid
// until h is used again.
func (e *Engine) CompressHost(h *HostPages, n int) ([]Output, Timings, error) {
	if h.owner != e || h.mem == nil {
		return nil, Timings{}, errHostPages
	}
	if n < 0 || n > len(h.Pages) {
		return nil, Timings{}, fmt.Errorf("gpuimpl: %d pages of a HostPages of %d", n, len(h.Pages))
	}
	return e.compress(h.Pages[:n], h)
}

func (e *Engine) compress(pages [][PageSize]byte, host *HostPages) ([]Output, Timings, error) {
	if e.closed {
		return nil, Timings{}, ErrClosed
	}
	var out []Output
	if host != nil {
		out = host.out[:len(pages)]
	} else {
		out = make([]Output, len(pages))
	}
	if len(pages) == 0 {
		return out, Timings{}, nil
	}
	d := e.dev
	d.mu.RLock()
	var t Timings
	err := e.prepare()
	if err == nil && host != nil {
		err = host.register()
	}
	gen := d.gen
	if err == nil {
		t, err = e.run(pages, host, out)
	}
	d.mu.RUnlock()
	if err == nil {
		return out, t, nil
	}
	d.mu.RLock()
	e.release()
	d.mu.RUnlock()
	if rerr := d.rebuild(gen, err); rerr != nil {
		if errors.Is(rerr, ErrDeviceLost) {
			return nil, Timings{}, fmt.Errorf("%w: %w", ErrFault, rerr)
		}
		return nil, Timings{}, fmt.Errorf("%w: %w (rebuilding the context failed: %v)", ErrFault, err, rerr)
	}
	return nil, Timings{}, fmt.Errorf("%w: %w", ErrFault, err)
}

// prepare makes sure the ring exists in the current context: after another
// engine's rebuild, or after a failed one, it allocates it again.
func (e *Engine) prepare() error {
	if e.dev.lost != nil {
		return e.dev.lost
	}
	if e.slots != nil && e.gen == e.dev.gen && e.dev.ctx != nil {
		return nil
	}
	if e.dev.ctx == nil {
		e.dev.mu.RUnlock()
		err := e.dev.rebuild(e.dev.gen, nil)
		e.dev.mu.RLock()
		if err != nil {
			return err
		}
	}
	e.release()
	return e.allocate()
}

// run streams the batch through the ring (RT-6, RT-7). With AsyncDMA each
// slot has its own stream: while slot k's kernel runs, slot k+1's pages
// are staged and copied in and slot k-1's results copied out. Without it,
// one slot runs its stages in order and the host waits for each chunk.
// With host, pages are host.Pages and nothing is staged (RT-13).
func (e *Engine) run(pages [][PageSize]byte, host *HostPages, out []Output) (Timings, error) {
	var t Timings
	b := chunkPages(len(pages), e.opts.BatchPages, len(e.slots), e.opts.AsyncDMA)
	chunks := (len(pages) + b - 1) / b
	fault := e.inject
	e.inject = NoFault
	if fault == FaultOutOfMemory {
		if _, err := e.dev.ctx.Alloc(1 << 50); err != nil {
			return t, err
		}
		return t, errors.New("gpuimpl: an allocation of 1 PiB succeeded")
	}
	// A chunk's D2H copy is issued once the host knows its size, lag
	// chunks later, so that the wait for that size never holds up the
	// next H2D copy (RT-6).
	lag := min(2, len(e.slots)-1)
	var waiting []*slot
	for c := range chunks {
		s := e.slots[c%len(e.slots)]
		var prev chunk // the slot's previous chunk, assembled after this one is issued
		if s.busy {
			if err := e.wait(s, &t); err != nil {
				return t, err
			}
			prev = s.chunk
			if host == nil {
				// The staging buffers are about to be overwritten.
				if err := e.assemble(prev, pages, host, out, &t); err != nil {
					return t, err
				}
				prev.n = 0
			}
		}
		lo, n := c*b, min(b, len(pages)-c*b)
		s.chunk = chunk{lo: lo, n: n}
		if host != nil {
			s.hSrc = pageBytes(pages[lo : lo+n])
			s.hMeta, s.hDst = host.meta[4*lo:4*(lo+n)], host.slots[OutSlot*lo:OutSlot*(lo+n)]
			s.hMetaDev = host.dev + offset(host.mem, s.hMeta)
		} else {
			s.hSrc, s.hMeta, s.hDst = s.src.Bytes[:n*PageSize], s.meta.Bytes[:4*n], s.dst.Bytes[:OutSlot*n]
			s.hMetaDev = uint64(s.meta.Device)
			staged := time.Now()
			parallelCopy(s.hSrc, pageBytes(pages[lo:lo+n]))
			t.Stage += time.Since(staged)
		}
		if c == 0 {
			if err := e.begin.Record(s.stream); err != nil {
				return t, err
			}
		}
		if err := e.issue(s, fault); err != nil {
			return t, err
		}
		fault = NoFault
		waiting = append(waiting, s)
		for len(waiting) > lag {
			if err := e.copyOut(waiting[0]); err != nil {
				return t, err
			}
			waiting = waiting[1:]
		}
		// With HostPages every chunk has its own host memory: the
		// previous chunk is assembled while the device works on this one,
		// rather than holding up its copy.
		if prev.n > 0 {
			if err := e.assemble(prev, pages, host, out, &t); err != nil {
				return t, err
			}
		}
		if !e.opts.AsyncDMA {
			if err := e.finish(s, pages, host, out, &t); err != nil {
				return t, err
			}
		}
	}
	// The chunks in flight: copied out once counted and assembled once
	// back, each as soon as it is ready, so that the host's work on one
	// overlaps the device's on the next rather than following it all.
	var copying []*slot
	for i := range e.slots {
		s := e.slots[(chunks+i)%len(e.slots)] // issue order
		if s.busy && !slices.Contains(waiting, s) {
			copying = append(copying, s)
		}
	}
	ended := false
	for !ended || len(copying) > 0 {
		if len(waiting) == 0 && !ended {
			if err := e.recordEnd(copying); err != nil {
				return t, err
			}
			ended = true
		}
		ready := false
		if len(waiting) > 0 {
			done, err := waiting[0].counted.Done()
			if err != nil {
				return t, err
			}
			if done {
				if err := e.copyOut(waiting[0]); err != nil {
					return t, err
				}
				copying, waiting, ready = append(copying, waiting[0]), waiting[1:], true
			}
		}
		if len(copying) > 0 {
			done, err := copying[0].ev[3].Done()
			if err != nil {
				return t, err
			}
			if done {
				if err := e.finish(copying[0], pages, host, out, &t); err != nil {
					return t, err
				}
				copying, ready = copying[1:], true
			}
		}
		if !ready {
			runtime.Gosched()
		}
	}
	if err := e.end.Synchronize(); err != nil {
		return t, err
	}
	total, err := e.begin.Elapsed(e.end)
	t.Total = total
	return t, err
}

// recordEnd records e.end after the D2H stages of the slots still copying.
func (e *Engine) recordEnd(copying []*slot) error {
	for _, s := range copying {
		if err := e.tail.Wait(s.ev[3]); err != nil {
			return err
		}
	}
	return e.end.Record(e.tail)
}

// issue queues one chunk's H2D copy, page kernel and the D2H kernels of
// GPU-8 in its slot's stream, with events between the stages; copyOut
// queues the rest.
func (e *Engine) issue(s *slot, fault Fault) error {
	st := s.stream
	s.busy = true
	meta := uint64(s.dMeta)
	if fault == FaultIllegalAddress {
		meta = 1 << 46 // no allocation is there
	}
	block := cudart.Dim{X: ThreadsPerBlock}
	if fault == FaultInvalidLaunch {
		block.X = 2048 // above every device's limit of 1,024
	}
	grid := cudart.Dim{X: Blocks(s.n)}
	steps := []func() error{
		func() error { return s.ev[0].Record(st) },
		func() error { return st.CopyHtoD(s.dSrc, s.hSrc) },
		func() error { return s.ev[1].Record(st) },
		func() error {
			if fault == FaultLaunchFailure {
				trap, err := e.trapKernel()
				if err != nil {
					return err
				}
				return st.Launch(trap, cudart.Dim{X: 1}, cudart.Dim{X: 32}, 0)
			}
			return st.Launch(e.dev.fn, grid, block, 0, uint64(s.dSrc), uint64(s.dDst), meta, uint64(s.n))
		},
		func() error { return s.ev[2].Record(st) },
		func() error {
			return st.Launch(e.dev.offsets, cudart.Dim{X: 1}, cudart.Dim{X: OffsetsThreads}, 0,
				uint64(s.dMeta), uint64(s.dOffset), s.hMetaDev, uint64(s.total.Device), uint64(s.n))
		},
		func() error { return s.counted.Record(st) },
		func() error {
			return st.Launch(e.dev.gather, grid, cudart.Dim{X: ThreadsPerBlock}, 0,
				uint64(s.dDst), uint64(s.dMeta), uint64(s.dOffset), uint64(s.dPacked), uint64(s.n))
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// copyOut waits until the offsets kernel has counted a slot's packed
// payloads and queues the copy of exactly those bytes to the host.
func (e *Engine) copyOut(s *slot) error {
	if err := s.counted.Synchronize(); err != nil {
		return err
	}
	s.packed = int(binary.LittleEndian.Uint32(s.total.Bytes))
	if s.packed > len(s.hDst) {
		return fmt.Errorf("%w: the packed payloads of %d pages take %d bytes, more than their %d-byte slots",
			ErrFault, s.n, s.packed, len(s.hDst))
	}
	if err := s.stream.CopyDtoH(s.hDst[:s.packed], s.dPacked); err != nil {
		return err
	}
	return s.ev[3].Record(s.stream)
}

// finish waits for a slot's chunk and assembles its pages' outputs.
func (e *Engine) finish(s *slot, pages [][PageSize]byte, host *HostPages, out []Output, t *Timings) error {
	if err := e.wait(s, t); err != nil {
		return err
	}
	return e.assemble(s.chunk, pages, host, out, t)
}

// wait waits for a slot's chunk and adds its stage times.
func (e *Engine) wait(s *slot, t *Timings) error {
	if err := s.ev[3].Synchronize(); err != nil {
		return err
	}
	s.busy = false
	for i, dst := range []*time.Duration{&t.H2D, &t.Kernel, &t.D2H} {
		d, err := s.ev[i].Elapsed(s.ev[i+1])
		if err != nil {
			return err
		}
		*dst += d
	}
	return nil
}

// assemble builds a finished chunk's outputs: copies of them, or views of
// host's memory (RT-8).
func (e *Engine) assemble(c chunk, pages [][PageSize]byte, host *HostPages, out []Output, t *Timings) error {
	start := time.Now()
	err := assemble(out[c.lo:c.lo+c.n], pages[c.lo:c.lo+c.n], c.hMeta, c.hDst[:c.packed], host == nil)
	t.Assemble += time.Since(start)
	return err
}

// trapPTX is a kernel that faults on purpose, for FaultLaunchFailure.
const trapPTX = `.version 7.0
.target sm_70
.address_size 64

.visible .entry lz4warp_trap()
{
	trap;
	ret;
}
`

func (e *Engine) trapKernel() (*cudart.Function, error) {
	if e.dev.trap != nil {
		return e.dev.trap, nil
	}
	mod, err := e.dev.ctx.LoadPTX(trapPTX)
	if err != nil {
		return nil, err
	}
	fn, err := mod.Function("lz4warp_trap")
	if err != nil {
		return nil, err
	}
	e.dev.trap = fn
	return fn, nil
}

// Close releases the engine's ring, and the device's context when no other
// engine uses it.
func (e *Engine) Close() error {
	if e.closed {
		return nil
	}
	e.closed = true
	e.dev.mu.RLock()
	e.release()
	e.dev.mu.RUnlock()
	return releaseDevice(e.dev)
}
