package gpuimpl

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/lz4warp/lz4warp/internal/cudart"
)

// Devices lists the CUDA devices from their own attributes (RT-1). Where
// the driver cannot be used it returns cudart's error saying why (RT-16).
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
	// fn and stream are the page kernel and its stream variant (GPU-9).
	fn, stream *cudart.Function
	// resident is how many blocks of either the device holds at once: the
	// most a launch needs (Grid, GPU-10).
	resident int
	// offsets and gather are the D2H kernels of GPU-8.
	offsets, gather *cudart.Function
	decode          *cudart.Function // the decode kernel (GPU-11)
	trap            *cudart.Function // loaded when a test first injects a launch failure
	trapMu          sync.Mutex       // guards trap among the holders of mu's read lock
	gen             int              // counts rebuilds; buffers of an older generation are gone
	refs            int
	lost            error // the sticky fault that made the device unusable, if any
}

var (
	devicesMu sync.Mutex
	devices   = map[int]*deviceState{}
	ptxTexts  sync.Map // [3]string{KernelPTX(sm), GatherPTX(sm), DecodePTX(sm)} by sm
)

// kernelTexts are the page, gather and decode modules for sm, generated
// once.
func kernelTexts(sm int) [3]string {
	if t, ok := ptxTexts.Load(sm); ok {
		return t.([3]string)
	}
	t, _ := ptxTexts.LoadOrStore(sm, [3]string{KernelPTX(sm), GatherPTX(sm), DecodePTX(sm)})
	return t.([3]string)
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
	var mods [3]*cudart.Module
	var fns [5]*cudart.Function
	for i, f := range []struct {
		module int
		name   string
	}{{0, KernelName}, {0, StreamKernelName}, {1, OffsetsName}, {1, GatherName}, {2, DecodeKernelName}} {
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
	resident := 0
	for _, fn := range fns[:2] {
		perSM, err := fn.MaxActiveBlocksPerSM(ThreadsPerBlock)
		if err != nil {
			ctx.Close()
			return fmt.Errorf("gpuimpl: the occupancy of %s on %s: %w", fn.Name, d.info.Name, err)
		}
		if r := perSM * d.info.SMs; resident == 0 || r < resident {
			resident = r
		}
	}
	d.ctx, d.fn, d.stream, d.offsets, d.gather, d.decode, d.trap = ctx, fns[0], fns[1], fns[2], fns[3], fns[4], nil
	d.resident = resident
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
	d.ctx, d.fn, d.stream, d.offsets, d.gather, d.decode, d.trap = nil, nil, nil, nil, nil, nil, nil
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
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lost != nil {
		// A lost device stays lost for the rest of the process (RT-4):
		// its state stays, so that a later Open fails at once the same
		// way instead of asking the driver for a context again.
		if d.ctx != nil {
			d.ctx.Close() // reports the sticky error again; the context is gone either way
			d.ctx = nil
		}
		return nil
	}
	delete(devices, d.index)
	if d.ctx == nil {
		return nil
	}
	return d.ctx.Close()
}

// directPages is the largest CompressHost batch that, with AsyncDMA, the
// page kernel reads and writes through the HostPages' mapping (RT-14)
// instead of the copies of the ring: on the H100, direct batches were
// faster up to 10,000 pages, one at a time level with the copies or faster
// at 20,000 and 30,000 and slower from 60,000, and in streams of batches 4
// to 9% faster at 20,000 and 30,000 (results/gpu-notebook.md).
// Tests and benchmarks set it to choose.
var directPages = 32768

// Engine compresses page batches on one GPU through a ring of slots
// (RT-6). An Engine runs one batch at a time; engines on the same device
// share its context.
type Engine struct {
	opts   Options
	dev    *deviceState
	gen    int     // the generation the slots were allocated in
	slots  []*slot // nil until allocated, and after a fault
	in     *cudart.Stream
	tail   *cudart.Stream
	stages []stageEvents // 2 per slot: chunk k uses stages[k mod len]
	begin  *cudart.Event
	end    *cudart.Event
	// The direct batches started and not yet waited for (RT-15), oldest
	// first, and the begin and end events that each one holds, one pair
	// per slot; nextSlot is the slot of the next direct batch's first chunk.
	pending  []*Pending
	pairs    []*eventPair
	nextSlot int
	inject   Fault
	closed   bool
	dec      decoder // the decode batches' state (RT-17)
	// onChunk, when set, gets each finished chunk's first page, length and
	// stage events, which stay valid until the next batch; onHost the
	// host's steps, each with its chunk and the time since run began.
	onChunk func(lo, n int, ev stageEvents)
	onHost  func(step string, k int, at time.Duration)
}

// slot is one ring slot: pinned host buffers, device buffers and the
// stream of its kernels and D2H copies.
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
	dRecs   cudart.DevicePtr // BatchPages record areas of RecSlot bytes (GPU-1)
	// dSched is the page counter of the slot's launches (GPU-10), 0
	// between them: its stream runs one launch at a time.
	dSched cudart.DevicePtr
}

// The events of a chunk's stages, in the order the device reaches them.
const (
	evLoad    = iota // before the H2D copy, in the engine's copy-in stream
	evLoaded         // after it
	evLaunch         // before the page kernel, in the slot's stream
	evKernel         // after it
	evCounted        // after the offsets kernel: the packed size is known
	evCopied         // after the D2H copy
	numStageEvents
)

type stageEvents [numStageEvents]*cudart.Event

// chunk is a part of a batch on its way through a slot: pages[lo:lo+n],
// the pinned host memory it is copied from and its meta words and packed
// payloads come back into (the slot's own buffers, or the caller's
// HostPages), with the device address of hMeta, and the size of the packed
// payloads once the offsets kernel has run.
type chunk struct {
	lo, n             int
	hSrc, hMeta, hDst []byte
	hMetaDev          uint64
	packed            int
	slot              *slot
	ev                stageEvents
}

// ErrClosed reports the use of a closed Engine.
var ErrClosed = errors.New("gpuimpl: engine closed")

// Open creates (or shares) the device's context, JIT-compiles the kernel
// once per context and allocates the ring (RT-5).
func Open(opts Options) (*Engine, error) {
	if opts.BatchPages < 1 || opts.RingSlots < 1 {
		return nil, fmt.Errorf("gpuimpl: BatchPages %d and RingSlots %d must be at least 1", opts.BatchPages, opts.RingSlots)
	}
	if opts.BatchPages > MaxBatchPages {
		return nil, fmt.Errorf("gpuimpl: BatchPages %d is more than %d", opts.BatchPages, MaxBatchPages)
	}
	if err := cudart.Init(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotAvailable, err)
	}
	d, err := acquireDevice(opts.DeviceIndex)
	if err != nil {
		return nil, err
	}
	e := &Engine{opts: opts, dev: d}
	d.mu.RLock()
	if err = d.lost; err == nil {
		err = e.allocate()
	}
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
	if e.in, err = ctx.NewStream(); err != nil {
		return err
	}
	if e.tail, err = ctx.NewStream(); err != nil {
		return err
	}
	e.stages = make([]stageEvents, 2*nslots)
	for i := range e.stages {
		for j := range e.stages[i] {
			if e.stages[i][j], err = ctx.NewEvent(); err != nil {
				return err
			}
		}
	}
	if e.begin, err = ctx.NewEvent(); err != nil {
		return err
	}
	if e.end, err = ctx.NewEvent(); err != nil {
		return err
	}
	e.pairs = make([]*eventPair, nslots)
	for i := range e.pairs {
		e.pairs[i] = &eventPair{}
		if e.pairs[i].begin, err = ctx.NewEvent(); err != nil {
			return err
		}
		if e.pairs[i].end, err = ctx.NewEvent(); err != nil {
			return err
		}
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
		if s.dRecs, err = ctx.Alloc(b * RecSlot); err != nil {
			return err
		}
		if s.dSched, err = ctx.Alloc(SchedBytes); err != nil {
			return err
		}
		if err := ctx.Memset(s.dSched, 0, SchedBytes); err != nil {
			return err
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
			for _, p := range []cudart.DevicePtr{s.dSrc, s.dMeta, s.dDst, s.dOffset, s.dPacked, s.dRecs, s.dSched} {
				ctx.Free(p)
			}
			s.stream.Destroy()
		}
	}
	e.dec.release(ctx, ctx != nil && e.gen == e.dev.gen)
	if ctx != nil && e.gen == e.dev.gen {
		for _, st := range e.stages {
			for _, ev := range st {
				ev.Destroy()
			}
		}
		e.begin.Destroy()
		e.end.Destroy()
		for _, p := range e.pairs {
			if p != nil {
				p.begin.Destroy()
				p.end.Destroy()
			}
		}
		e.in.Destroy()
		e.tail.Destroy()
	}
	e.slots, e.stages, e.in, e.tail, e.begin, e.end, e.pairs = nil, nil, nil, nil, nil, nil, nil
}

// takeFault takes the fault injected for the next batch: out of memory is
// provoked here, the others at the batch's launch (launchPages).
func (e *Engine) takeFault() (Fault, error) {
	fault := e.inject
	e.inject = NoFault
	if fault != FaultOutOfMemory {
		return fault, nil
	}
	if _, err := e.dev.ctx.Alloc(1 << 50); err != nil {
		return fault, err
	}
	return fault, errors.New("gpuimpl: an allocation of 1 PiB succeeded")
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
// device straight from h and the outputs straight back into h (or, up to
// directPages pages, has the kernel read and write them there, RT-14), and
// returns outputs that point into h and are kept in it (RT-13): they stay
// valid until h is used again.
func (e *Engine) CompressHost(h *HostPages, n int) ([]Output, Timings, error) {
	if err := e.checkHost(h, n); err != nil {
		return nil, Timings{}, err
	}
	return e.compress(h.Pages[:n], h)
}

// checkHost checks that a batch of n pages of h may start.
func (e *Engine) checkHost(h *HostPages, n int) error {
	switch {
	case !h.usableBy(e):
		return errHostPages
	case n < 0 || n > len(h.Pages):
		return fmt.Errorf("gpuimpl: %d pages of a HostPages of %d", n, len(h.Pages))
	case h.pending != nil:
		return errors.New("gpuimpl: the HostPages has a batch that Wait has not taken")
	case h.decoding != nil:
		return errDecodeHost
	}
	return nil
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
	e.makeRoom()
	d := e.dev
	d.mu.RLock()
	var t Timings
	err := e.prepare()
	if err == nil && host != nil {
		err = host.register(d)
	}
	gen := d.gen
	if err == nil {
		t, err = e.run(pages, host, out)
	}
	d.mu.RUnlock()
	if err == nil {
		return out, t, nil
	}
	e.drain() // the batches started before it end before the ring goes
	return nil, Timings{}, e.recover(gen, err)
}

// makeRoom takes the oldest started batches until a direct batch may
// start: one event pair per batch on its way (RT-15).
func (e *Engine) makeRoom() {
	for len(e.pending) > 0 && len(e.pending) >= len(e.pairs) {
		e.pending[0].take() // its error is its Wait's
	}
}

// drain takes every batch on its way; their errors are their Waits'.
func (e *Engine) drain() {
	for len(e.pending) > 0 {
		e.pending[0].take()
	}
}

// recover handles the error of a batch run in context generation gen: it
// releases the ring and rebuilds the context (RT-4), and returns err
// wrapped in ErrFault.
func (e *Engine) recover(gen int, err error) error {
	d := e.dev
	d.mu.RLock()
	e.release()
	d.mu.RUnlock()
	if rerr := d.rebuild(gen, err); rerr != nil {
		if errors.Is(rerr, ErrDeviceLost) {
			return fmt.Errorf("%w: %w", ErrFault, rerr)
		}
		return fmt.Errorf("%w: %w (rebuilding the context failed: %v)", ErrFault, err, rerr)
	}
	return fmt.Errorf("%w: %w", ErrFault, err)
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
		gen := e.dev.gen // read under the lock: another engine may rebuild once it is released
		e.dev.mu.RUnlock()
		err := e.dev.rebuild(gen, nil)
		e.dev.mu.RLock()
		if err != nil {
			return err
		}
	}
	e.release()
	return e.allocate()
}

// run streams the batch through the ring (RT-6, RT-7). Chunk k goes
// through slot k mod slots. Its H2D copy runs in the engine's copy-in
// stream as soon as the slot's previous chunk's kernel is done with the
// slot's input; its kernels run in the slot's stream after the previous
// chunk's D2H copy. So the H2D copies, which bound the pipeline, follow one
// another without waiting for the host or for a slot's whole round. The
// host never blocks on the device: it polls the chunks' events and takes
// each chunk's next step as soon as it may. With host, pages are
// host.Pages and nothing is staged (RT-13). Without AsyncDMA, one slot
// runs each chunk's stages in order, the next chunk after it.
func (e *Engine) run(pages [][PageSize]byte, host *HostPages, out []Output) (Timings, error) {
	var t Timings
	fault, err := e.takeFault()
	if err != nil {
		return t, err
	}
	if host != nil && e.direct(len(pages)) {
		return e.runDirect(pages, host, out, fault)
	}
	nslots := len(e.slots)
	trace := e.tracer()
	// The batch's chunks so far; those below launched have their kernels
	// queued, below copied their D2H copy, below finished their outputs.
	var chunks []*chunk
	launched, copied, finished := 0, 0, 0
	lo, ended := 0, false
	for !ended || finished < copied {
		progress := false
		if copied < launched {
			c := chunks[copied]
			done, err := c.ev[evCounted].Done()
			if err != nil {
				return t, err
			}
			if done {
				trace("counted", copied)
				if err := e.copyOut(c); err != nil {
					return t, err
				}
				trace("copy-out queued", copied)
				copied, progress = copied+1, true
				if lo == len(pages) && copied == len(chunks) {
					// The last copy is queued: the end event goes
					// after it now, not after the host's work below.
					if err := e.recordEnd(chunks[finished:]); err != nil {
						return t, err
					}
					ended = true
					trace("end recorded", len(chunks))
				}
				if host != nil {
					// Views of host's memory: the meta words are there
					// and the payloads' place is known, so the outputs
					// are assembled while the copy fills them.
					if err := e.assemble(c, pages, host, out, &t); err != nil {
						return t, err
					}
					trace("assembled", copied-1)
				}
			}
		}
		if finished < copied {
			c := chunks[finished]
			done, err := c.ev[evCopied].Done()
			if err != nil {
				return t, err
			}
			if done {
				trace("copied", finished)
				if err := e.finish(c, pages, host, out, &t); err != nil {
					return t, err
				}
				trace("finished", finished)
				finished, progress = finished+1, true
			}
		}
		// A chunk's kernels follow the D2H copy of the slot's previous
		// chunk, and, where that chunk's outputs are in the slot's host
		// buffers, their assembly.
		if k := launched; k < len(chunks) && (k < nslots || copied > k-nslots && (host != nil || finished > k-nslots)) {
			if err := e.launch(chunks[k], fault); err != nil {
				return t, err
			}
			fault = NoFault
			trace("launched", launched)
			launched, progress = launched+1, true
		}
		if k := len(chunks); lo < len(pages) && e.mayLoad(chunks, k, launched, finished, host == nil) {
			n := chunkPages(len(pages)-lo, e.opts.BatchPages, nslots, e.opts.AsyncDMA)
			c := &chunk{lo: lo, n: n, slot: e.slots[k%nslots], ev: e.stages[k%len(e.stages)]}
			if err := e.load(c, pages, host, chunks, k, &t); err != nil {
				return t, err
			}
			chunks = append(chunks, c)
			trace("loaded", k)
			lo, progress = lo+n, true
		}
		if !progress {
			runtime.Gosched()
		}
	}
	trace("all finished", len(chunks))
	if err := e.end.Synchronize(); err != nil {
		return t, err
	}
	trace("end synchronized", len(chunks))
	total, err := e.begin.Elapsed(e.end)
	t.Total = total
	return t, err
}

// mayLoad reports whether chunk k may be loaded: after the slot's previous
// chunk's kernel is queued (the H2D copy waits for it on the device), once
// the chunk that last used its events is finished, with staging once the
// slot's previous H2D copy is done, and without AsyncDMA once the previous
// chunk is finished.
func (e *Engine) mayLoad(chunks []*chunk, k, launched, finished int, staged bool) bool {
	nslots := len(e.slots)
	switch {
	case !e.opts.AsyncDMA:
		return finished == k
	case k >= nslots && launched <= k-nslots, k >= len(e.stages) && finished <= k-len(e.stages):
		return false
	case staged && k >= nslots && finished <= k-nslots:
		done, err := chunks[k-nslots].ev[evLoaded].Done()
		return done || err != nil // an error shows at the next poll of that chunk
	}
	return true
}

// load stages chunk c (the batch's k-th) and queues its H2D copy in the
// copy-in stream, after the kernel of the slot's previous chunk.
func (e *Engine) load(c *chunk, pages [][PageSize]byte, host *HostPages, chunks []*chunk, k int, t *Timings) error {
	s := c.slot
	lo, n := c.lo, c.n
	if host != nil {
		c.hSrc = pageBytes(pages[lo : lo+n])
		c.hMeta, c.hDst = host.meta[4*lo:4*(lo+n)], host.slots[OutSlot*lo:OutSlot*(lo+n)]
		c.hMetaDev = host.dev + offset(host.mem, c.hMeta)
	} else {
		c.hSrc, c.hMeta, c.hDst = s.src.Bytes[:n*PageSize], s.meta.Bytes[:4*n], s.dst.Bytes[:OutSlot*n]
		c.hMetaDev = uint64(s.meta.Device)
		staged := time.Now()
		parallelCopy(c.hSrc, pageBytes(pages[lo:lo+n]))
		t.Stage += time.Since(staged)
	}
	steps := []func() error{
		func() error {
			if k == 0 {
				return e.begin.Record(e.in)
			}
			if k >= len(e.slots) {
				return e.in.Wait(chunks[k-len(e.slots)].ev[evKernel])
			}
			return nil
		},
		func() error { return c.ev[evLoad].Record(e.in) },
		func() error { return e.in.CopyHtoD(s.dSrc, c.hSrc) },
		func() error { return c.ev[evLoaded].Record(e.in) },
	}
	return runSteps(steps)
}

// runSteps calls steps in order until one fails.
func runSteps(steps []func() error) error {
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// recordEnd records e.end after the D2H copies of the chunks not finished.
func (e *Engine) recordEnd(chunks []*chunk) error {
	for _, c := range chunks {
		if err := e.tail.Wait(c.ev[evCopied]); err != nil {
			return err
		}
	}
	return e.end.Record(e.tail)
}

// tracer returns the function that passes the host's steps to onHost, if
// set, with the time since the call.
func (e *Engine) tracer() func(step string, k int) {
	began := time.Now()
	return func(step string, k int) {
		if e.onHost != nil {
			e.onHost(step, k, time.Since(began))
		}
	}
}

// launch queues, in the slot's stream after the chunk's H2D copy, the page
// kernel and the D2H kernels of GPU-8; copyOut queues the rest.
func (e *Engine) launch(c *chunk, fault Fault) error {
	s := c.slot
	st := s.stream
	grid := cudart.Dim{X: Blocks(c.n)}
	steps := []func() error{
		func() error { return st.Wait(c.ev[evLoaded]) },
		func() error { return c.ev[evLaunch].Record(st) },
		func() error {
			return e.launchPages(s, fault, c.n, uint64(s.dSrc), uint64(s.dDst), uint64(s.dMeta), 0)
		},
		func() error { return c.ev[evKernel].Record(st) },
		func() error {
			return st.Launch(e.dev.offsets, cudart.Dim{X: 1}, cudart.Dim{X: OffsetsThreads}, 0,
				uint64(s.dMeta), uint64(s.dOffset), c.hMetaDev, uint64(s.total.Device), uint64(c.n))
		},
		func() error { return c.ev[evCounted].Record(st) },
		func() error {
			return st.Launch(e.dev.gather, grid, cudart.Dim{X: ThreadsPerBlock}, 0,
				uint64(s.dDst), uint64(s.dMeta), uint64(s.dOffset), uint64(s.dPacked), uint64(c.n))
		},
	}
	return runSteps(steps)
}

// launchPages queues the page kernel (GPU-1) on n pages in slot s's stream,
// with its record areas and page counter, or the fault f in its place
// (RT-9).
func (e *Engine) launchPages(s *slot, f Fault, n int, src, dst, meta, hostDst uint64) error {
	st := s.stream
	block := cudart.Dim{X: ThreadsPerBlock}
	if trapped, err := e.injectLaunchFault(f, st, &meta, &block); trapped {
		return err
	}
	fn := e.dev.fn
	if hostDst != 0 {
		fn = e.dev.stream // the pages cross PCIe as it reads them (RT-14)
	}
	return st.Launch(fn, cudart.Dim{X: Grid(n, e.dev.resident)}, block, 0, src, dst, meta, uint64(n), hostDst,
		uint64(s.dRecs), uint64(s.dSched))
}

// direct reports whether a HostPages batch of n pages is a direct batch
// (RT-14).
func (e *Engine) direct(n int) bool { return n <= directPages && e.opts.AsyncDMA }

// Queues reports whether StartHost queues a batch of n pages and returns
// before the device is done with it (a direct batch, RT-15), rather than
// compressing it at once.
func (e *Engine) Queues(n int) bool { return n > 0 && e.direct(n) }

// runDirect compresses host.Pages[:len(pages)] with the page kernel
// reading the pages and writing the payloads and meta words through
// host's mapping (RT-14): startDirect queues the batch and finishDirect
// takes its outputs.
func (e *Engine) runDirect(pages [][PageSize]byte, host *HostPages, out []Output, fault Fault) (Timings, error) {
	trace := e.tracer()
	pair, err := e.startDirect(pages, host, fault, trace)
	if err != nil {
		return Timings{}, err
	}
	defer pair.free()
	return e.finishDirect(pages, host, out, pair, trace)
}

// eventPair marks a direct batch's span on the device: begin before its
// first kernel, end after its last (on the tail stream). A pair belongs to
// one batch from startDirect until its outputs are taken.
type eventPair struct {
	begin, end *cudart.Event
	busy       bool
}

func (p *eventPair) free() { p.busy = false }

// startDirect queues a direct batch: chunks of at most BatchPages pages go
// to the slots' streams in turn, from nextSlot on, all at once, with no
// copy and no other kernel, between the events of a free pair (the caller
// makes sure one is free). The kernels of a batch started earlier in the
// same slot run first; those in other slots overlap them (RT-15).
func (e *Engine) startDirect(pages [][PageSize]byte, host *HostPages, fault Fault, trace func(string, int)) (*eventPair, error) {
	var pair *eventPair
	for _, p := range e.pairs {
		if !p.busy {
			pair = p
			break
		}
	}
	if pair == nil {
		return nil, errors.New("gpuimpl: every event pair is in use") // unreachable: callers make room first
	}
	n := len(pages)
	meta := host.meta[:4*n]
	clear(meta)
	at := func(b []byte) uint64 { return host.dev + offset(host.mem, b) }
	first := e.nextSlot
	if err := pair.begin.Record(e.slots[first].stream); err != nil {
		return nil, err
	}
	last := make([]bool, len(e.slots)) // the slots that have a kernel
	for lo, k := 0, first; lo < n; k++ {
		cn := min(n-lo, e.opts.BatchPages)
		i := k % len(e.slots)
		s := e.slots[i]
		err := e.launchPages(s, fault, cn, at(pageBytes(pages[lo:lo+cn])), uint64(s.dDst),
			at(meta[4*lo:]), at(host.slots[OutSlot*lo:]))
		if err != nil {
			return nil, err
		}
		fault, last[i] = NoFault, true
		trace("launched", k-first)
		lo += cn
		e.nextSlot = (k + 1) % len(e.slots)
	}
	// The end event follows every slot's last kernel of the batch: the
	// slot's first stage events, which no chunk of a direct batch uses,
	// mark them (a wait takes the mark as it is when it is queued).
	for i, s := range e.slots {
		if !last[i] {
			continue
		}
		ev := e.stages[i][evKernel]
		if err := ev.Record(s.stream); err != nil {
			return nil, err
		}
		if err := e.tail.Wait(ev); err != nil {
			return nil, err
		}
	}
	if err := pair.end.Record(e.tail); err != nil {
		return nil, err
	}
	trace("end recorded", 0)
	pair.busy = true
	return pair, nil
}

// finishDirect takes the outputs of a batch that startDirect queued as
// each page's meta word arrives, in page order, while later pages are
// still on the device. The kernel writes a page's payload before its meta
// word, and no meta word is 0, so a word that is not 0 is complete. A
// fault shows as the end event's error, or as a page still without its
// word once the kernels are done.
func (e *Engine) finishDirect(pages [][PageSize]byte, host *HostPages, out []Output, pair *eventPair, trace func(string, int)) (Timings, error) {
	var t Timings
	n := len(pages)
	meta := host.meta[:4*n]
	words := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(meta))), n)
	runs := 0
	for i := 0; i < n; {
		if atomic.LoadUint32(&words[i]) == 0 {
			done, err := pair.end.Done()
			if err != nil {
				return t, err
			}
			if done && atomic.LoadUint32(&words[i]) == 0 {
				return t, fmt.Errorf("%w: page %d has no meta word after the kernels ended", ErrFault, i)
			}
			continue
		}
		// The pages ready from i on, at once.
		j := i + 1
		for j < n && atomic.LoadUint32(&words[j]) != 0 {
			j++
		}
		start := time.Now()
		err := assembleSlots(out[i:j], pages[i:j], meta[4*i:4*j], host.slots[OutSlot*i:OutSlot*j], i)
		t.Assemble += time.Since(start)
		if err != nil {
			return t, err
		}
		i, runs = j, runs+1
	}
	trace("assembled in runs", runs)
	if err := pair.end.Synchronize(); err != nil {
		return t, err
	}
	trace("end synchronized", n)
	total, err := pair.begin.Elapsed(pair.end)
	t.Kernel, t.Total = total, total
	return t, err
}

// Pending is a direct batch that StartHost queued and whose outputs Wait
// takes (RT-15), or a batch that StartHost ran at once.
type Pending struct {
	e     *Engine
	host  *HostPages
	pages [][PageSize]byte
	pair  *eventPair // nil once the outputs are taken
	gen   int
	out   []Output
	t     Timings
	err   error
}

// StartHost starts compressing h.Pages[:n] like CompressHost and returns
// without waiting for the device, so that the host can prepare or start
// other batches while this one runs (RT-15). A direct batch (RT-14) is
// queued; any other batch is compressed at once. Wait gives the outputs.
// Until then h and its pages must not change, and h takes no other batch.
// At most RingSlots batches are on their way: one more waits for the
// oldest first.
func (e *Engine) StartHost(h *HostPages, n int) (*Pending, error) {
	if err := e.checkHost(h, n); err != nil {
		return nil, err
	}
	p := &Pending{e: e, host: h, pages: h.Pages[:n]}
	h.pending = p
	if n == 0 || !e.direct(n) || e.closed {
		p.out, p.t, p.err = e.compress(p.pages, h)
		return p, nil
	}
	e.makeRoom()
	d := e.dev
	d.mu.RLock()
	err := e.prepare()
	if err == nil {
		err = h.register(d)
	}
	p.gen = d.gen
	var fault Fault
	if err == nil {
		fault, err = e.takeFault()
	}
	if err == nil {
		p.pair, err = e.startDirect(p.pages, h, fault, e.tracer())
	}
	d.mu.RUnlock()
	if err != nil {
		e.drain() // the batches started before it end before the ring goes
		p.err = e.recover(p.gen, err)
		return p, nil
	}
	e.pending = append(e.pending, p)
	return p, nil
}

// Wait returns the batch's outputs, which point into its HostPages, as
// CompressHost does, and frees the HostPages for another batch. Later
// calls return the same.
func (p *Pending) Wait() ([]Output, Timings, error) {
	err := p.take()
	if p.host.pending == p {
		p.host.pending = nil
	}
	if err != nil {
		return nil, p.t, err
	}
	return p.out, p.t, nil
}

// Done reports whether Wait would return without waiting for the device:
// the batch's outputs are taken, or its kernels have ended, or its context
// is gone (Wait then reports the fault). Like every call on the engine it
// runs alone on it, but it never blocks, so that a caller can wait for a
// batch without holding the engine, and hold it only for Wait's assembly.
func (p *Pending) Done() bool {
	e := p.e
	if p.pair == nil {
		return true
	}
	d := e.dev
	d.mu.RLock()
	defer d.mu.RUnlock()
	if e.slots == nil || e.gen != p.gen || d.gen != p.gen {
		return true
	}
	done, err := p.pair.end.Done()
	return done || err != nil
}

// take waits for the batch and takes its outputs, once; they stay in its
// HostPages, which takes no other batch until Wait returns them.
func (p *Pending) take() error {
	e := p.e
	if p.pair != nil {
		d := e.dev
		d.mu.RLock()
		ran := false
		if e.slots == nil || e.gen != p.gen || d.gen != p.gen {
			// The context was rebuilt after another batch's fault:
			// this batch's kernels went with it.
			p.err = fmt.Errorf("%w: the context was rebuilt while the batch was on the device", ErrFault)
		} else {
			p.out, ran = p.host.out[:len(p.pages)], true
			p.t, p.err = e.finishDirect(p.pages, p.host, p.out, p.pair, e.tracer())
			p.pair.free()
		}
		d.mu.RUnlock()
		p.pair = nil
		e.pending = slices.DeleteFunc(e.pending, func(q *Pending) bool { return q == p })
		if ran && p.err != nil {
			e.drain() // the batches after it end before the ring goes
			p.out, p.err = nil, e.recover(p.gen, p.err)
		}
	}
	return p.err
}

// copyOut reads the packed size of a chunk whose offsets kernel has
// counted it and queues the copy of exactly those bytes to the host.
func (e *Engine) copyOut(c *chunk) error {
	s := c.slot
	c.packed = int(binary.LittleEndian.Uint32(s.total.Bytes))
	if c.packed > len(c.hDst) {
		return fmt.Errorf("%w: the packed payloads of %d pages take %d bytes, more than their %d-byte slots",
			ErrFault, c.n, c.packed, len(c.hDst))
	}
	if err := s.stream.CopyDtoH(c.hDst[:c.packed], s.dPacked); err != nil {
		return err
	}
	return c.ev[evCopied].Record(s.stream)
}

// finish adds a copied chunk's stage times and, without host, assembles
// its pages' outputs.
func (e *Engine) finish(c *chunk, pages [][PageSize]byte, host *HostPages, out []Output, t *Timings) error {
	for _, st := range []struct {
		from, to int
		sum      *time.Duration
	}{{evLoad, evLoaded, &t.H2D}, {evLaunch, evKernel, &t.Kernel}, {evKernel, evCopied, &t.D2H}} {
		d, err := c.ev[st.from].Elapsed(c.ev[st.to])
		if err != nil {
			return err
		}
		*st.sum += d
	}
	if e.onChunk != nil {
		e.onChunk(c.lo, c.n, c.ev)
	}
	if host != nil {
		return nil
	}
	return e.assemble(c, pages, host, out, t)
}

// assemble makes the outputs of chunk c's pages from its meta words and
// packed payloads (RT-8): copies of them without host, views of host's
// memory with it.
func (e *Engine) assemble(c *chunk, pages [][PageSize]byte, host *HostPages, out []Output, t *Timings) error {
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

// injectLaunchFault makes the launch that f replaces fail (RT-9): it points
// addr, an address the kernel writes through, where no allocation is, or
// asks for a block larger than any device allows, or launches a kernel that
// traps on st in the kernel's place, which it reports as trapped.
func (e *Engine) injectLaunchFault(f Fault, st *cudart.Stream, addr *uint64, block *cudart.Dim) (trapped bool, err error) {
	switch f {
	case FaultIllegalAddress:
		*addr = 1 << 46 // no allocation is there
	case FaultInvalidLaunch:
		block.X = 2048 // above every device's limit of 1,024
	case FaultLaunchFailure:
		trap, err := e.trapKernel()
		if err != nil {
			return true, err
		}
		return true, st.Launch(trap, cudart.Dim{X: 1}, cudart.Dim{X: 32}, 0)
	}
	return false, nil
}

func (e *Engine) trapKernel() (*cudart.Function, error) {
	// Engines that share the device hold its lock for reading here.
	e.dev.trapMu.Lock()
	defer e.dev.trapMu.Unlock()
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
	e.drain() // no kernel writes into a HostPages after Close
	if e.dec.pending != nil {
		e.dec.pending.Wait(nil) // its error is its own Wait's
	}
	e.closed = true
	e.dev.mu.RLock()
	e.release()
	e.dev.mu.RUnlock()
	return releaseDevice(e.dev)
}
