package lz4warp

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/lz4warp/lz4warp/gpuimpl"
)

// A Compressor's GPUs (spec/multi-device.md): one gpuimpl.Engine per device,
// each with its own context, module, ring and streams, behind a devicePool
// that sends each batch to the least-loaded device, splits a large
// synchronous batch across them, and redoes a faulted batch elsewhere.

// validateDevices is Validate's part for Devices and AllDevices (MD-1).
func (c Config) validateDevices() error {
	switch {
	case c.AllDevices && len(c.Devices) > 0:
		return fmt.Errorf("%w: AllDevices with Devices %v: choose one", ErrInvalidConfig, c.Devices)
	case c.AllDevices && c.DeviceIndex != 0:
		return fmt.Errorf("%w: AllDevices with DeviceIndex %d: choose one", ErrInvalidConfig, c.DeviceIndex)
	case len(c.Devices) > 0 && c.DeviceIndex != 0:
		return fmt.Errorf("%w: Devices %v with DeviceIndex %d: Devices alone chooses", ErrInvalidConfig, c.Devices, c.DeviceIndex)
	}
	for i, d := range c.Devices {
		if d < 0 {
			return fmt.Errorf("%w: Devices[%d] is %d, negative", ErrInvalidConfig, i, d)
		}
		if j := slices.Index(c.Devices[:i], d); j >= 0 {
			return fmt.Errorf("%w: Devices lists device %d twice, at %d and %d", ErrInvalidConfig, d, j, i)
		}
	}
	return nil
}

// deviceIndexes are the CUDA devices cfg asks for among devs, the
// machine's: every supported one for AllDevices, else Devices, else
// DeviceIndex. A device that is missing or unsupported is an error (MD-1).
func deviceIndexes(cfg Config, devs []DeviceInfo) ([]int, error) {
	if cfg.AllDevices {
		var idx []int
		for _, d := range devs {
			if d.IsSupported() {
				idx = append(idx, d.Index)
			}
		}
		if idx == nil {
			return nil, fmt.Errorf("AllDevices: none of %d CUDA devices is supported", len(devs))
		}
		return idx, nil
	}
	idx := cfg.Devices
	if len(idx) == 0 {
		idx = []int{cfg.DeviceIndex}
	}
	for _, i := range idx {
		j := slices.IndexFunc(devs, func(d DeviceInfo) bool { return d.Index == i })
		switch {
		case j < 0:
			return nil, fmt.Errorf("device %d: the machine has %d CUDA devices", i, len(devs))
		case !devs[j].IsSupported():
			cc := devs[j].ComputeCapability
			return nil, fmt.Errorf("device %d (%s) has compute capability %d.%d, the kernel needs %d.0",
				i, devs[j].Name, cc[0], cc[1], MinComputeMajor)
		}
	}
	return slices.Clone(idx), nil
}

// DeviceStats accumulates over a Compressor's lifetime for one of its GPUs
// (MD-6).
type DeviceStats struct {
	Index           int           // the CUDA device
	PagesCompressed uint64        // pages the device compressed
	PagesDecoded    uint64        // pages the device decoded, those with errors included (MD-10)
	Batches         uint64        // batches, or parts of split batches (MD-3), it compressed
	BusyTime        time.Duration // wall time during which it had pages to compress
	Fallbacks       uint64        // batches or parts that faulted on it and were compressed again elsewhere (MD-5)
	Dropped         bool          // a sticky fault made the Compressor stop using it (MD-5)
}

// ThroughputGBps is PagesCompressed × 4096 bytes over BusyTime in 10⁹
// bytes per second, 0 when no time was spent (MD-6).
func (d DeviceStats) ThroughputGBps() float64 {
	if d.BusyTime <= 0 {
		return 0
	}
	return float64(d.PagesCompressed) * PageSize / d.BusyTime.Seconds() / 1e9
}

// gpuEngine is one device's engine as devicePool drives it: a
// *gpuimpl.Engine (cudaEngine), or a fake in tests. It runs one call at a
// time, Wait of what Start returned included.
type gpuEngine interface {
	// Compress compresses pages; with host, they are host.Pages.
	Compress(pages []Page, host *gpuimpl.HostPages) ([]gpuimpl.Output, gpuimpl.Timings, error)
	// Queues reports whether Start returns before a batch of n pages
	// is compressed.
	Queues(n int) bool
	// Start starts compressing host.Pages, which are pages.
	Start(pages []Page, host *gpuimpl.HostPages) (gpuWaiter, error)
	// Decompress, DecompressHost and StartDecompressHost decode (GPU-11,
	// RT-17).
	Decompress(pages []gpuimpl.Output, dst [][PageSize]byte, status []uint32) (gpuimpl.Timings, error)
	DecompressHost(pages []gpuimpl.Output, h *gpuimpl.HostPages, status []uint32) (gpuimpl.Timings, error)
	StartDecompressHost(pages []gpuimpl.Output, h *gpuimpl.HostPages) (*gpuimpl.DecodePending, error)
	InjectFault(gpuimpl.Fault)
	Close() error
}

// gpuWaiter is a batch that gpuEngine.Start started.
type gpuWaiter interface {
	// Done reports, without blocking, whether Wait would return without
	// waiting for the device.
	Done() bool
	Wait() ([]gpuimpl.Output, gpuimpl.Timings, error)
}

// cudaEngine is a gpuimpl.Engine as a gpuEngine.
type cudaEngine struct{ *gpuimpl.Engine }

func (e cudaEngine) Compress(pages []Page, host *gpuimpl.HostPages) ([]gpuimpl.Output, gpuimpl.Timings, error) {
	if host != nil {
		return e.CompressHost(host, len(pages))
	}
	return e.Engine.Compress(pages)
}

func (e cudaEngine) Start(pages []Page, host *gpuimpl.HostPages) (gpuWaiter, error) {
	p, err := e.StartHost(host, len(pages))
	if err != nil {
		return nil, err
	}
	return p, nil
}

// openPool opens an engine on every device cfg asks for (MD-1), and the
// Pinner that page-locks PageBuffers for all of them where there are
// several (MD-4).
func openPool(cfg Config) (*devicePool, error) {
	infos, err := Devices()
	if err != nil {
		return nil, err
	}
	idx, err := deviceIndexes(cfg, infos)
	if err != nil {
		return nil, err
	}
	var engines []*gpuimpl.Engine
	closeAll := func() {
		for _, e := range engines {
			e.Close()
		}
	}
	for _, i := range idx {
		e, err := gpuimpl.Open(gpuimpl.Options{
			DeviceIndex: i, BatchPages: cfg.BatchSize, RingSlots: cfg.RingBufferSlots, AsyncDMA: cfg.AsyncDMA,
		})
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("device %d: %w", i, err)
		}
		engines = append(engines, e)
	}
	wrapped := make([]gpuEngine, len(engines))
	for i, e := range engines {
		wrapped[i] = cudaEngine{e}
	}
	p := newDevicePool(idx, wrapped)
	if len(engines) == 1 {
		d := p.devs[0]
		p.newHost = func(n int) (*gpuimpl.HostPages, error) {
			d.run.Lock() // the engine runs one call at a time
			defer d.run.Unlock()
			return engines[0].NewHostPages(n)
		}
		return p, nil
	}
	pin, err := gpuimpl.NewPinner(idx[0])
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("device %d: a context to page-lock buffers in: %w", idx[0], err)
	}
	p.newHost = func(n int) (*gpuimpl.HostPages, error) { return pin.NewHostPages(n, engines) }
	p.closeHost = pin.Close
	return p, nil
}

// splitPages is the fewest pages a device gets of a batch split across
// devices (MD-3): about one wave of the page kernel on an H100, below
// which a device's batch is mostly its fixed costs.
const splitPages = 2048

// devicePool runs batches on a Compressor's GPUs (spec/multi-device.md).
// It is safe for concurrent use.
type devicePool struct {
	mu        sync.Mutex // guards each device's load, stats and lost
	devs      []*poolDevice
	newHost   func(n int) (*gpuimpl.HostPages, error) // page-locked memory for every device's engine
	closeHost func() error                            // after the engines, where newHost needs it
}

// poolDevice is one GPU of a devicePool.
type poolDevice struct {
	engine gpuEngine
	run    sync.Mutex // held around every call of engine
	// Guarded by devicePool.mu:
	load      int       // pages given to the device and not yet returned
	decoding  int       // pages the device is decoding (MD-10)
	busySince time.Time // when load last rose from 0
	stats     DeviceStats
	lost      error // the sticky fault after which the device was dropped
}

func newDevicePool(index []int, engines []gpuEngine) *devicePool {
	p := &devicePool{}
	for i, e := range engines {
		p.devs = append(p.devs, &poolDevice{engine: e, stats: DeviceStats{Index: index[i]}})
	}
	return p
}

// byLoad returns the live devices not in skip, least-loaded first, in the
// pool's order among equals (MD-2); p.mu is held.
func (p *devicePool) byLoad(skip []*poolDevice) []*poolDevice {
	var live []*poolDevice
	for _, d := range p.devs {
		if d.lost == nil && !slices.Contains(skip, d) {
			live = append(live, d)
		}
	}
	slices.SortStableFunc(live, func(a, b *poolDevice) int { return cmp.Compare(a.load+a.decoding, b.load+b.decoding) })
	return live
}

// reserve gives the device n pages; devicePool.mu is held.
func (d *poolDevice) reserve(n int) {
	if d.load == 0 {
		d.busySince = time.Now()
	}
	d.load += n
}

// next reserves n pages on the least-loaded live device not in skip, and
// returns it; nil when there is none.
func (p *devicePool) next(n int, skip []*poolDevice) *poolDevice {
	p.mu.Lock()
	defer p.mu.Unlock()
	live := p.byLoad(skip)
	if len(live) == 0 {
		return nil
	}
	live[0].reserve(n)
	return live[0]
}

// part is a device's share of a batch: its pages lo to hi-1.
type part struct {
	lo, hi int
	dev    *poolDevice
}

// split cuts a batch of n pages into contiguous parts, in page order, for
// the least-loaded live devices, and reserves them: one part per device,
// but no part of fewer than splitPages pages unless the batch is one part
// (MD-3). It returns nil when no device is live.
func (p *devicePool) split(n int) []part {
	return p.cut(n, (*poolDevice).reserve)
}

// cut is split, giving each part to its device with give; devicePool.mu is
// held around give.
func (p *devicePool) cut(n int, give func(d *poolDevice, n int)) []part {
	p.mu.Lock()
	defer p.mu.Unlock()
	live := p.byLoad(nil)
	if len(live) == 0 {
		return nil
	}
	k := max(1, min(len(live), n/splitPages))
	parts := make([]part, k)
	for i := range parts {
		parts[i] = part{lo: n * i / k, hi: n * (i + 1) / k, dev: live[i]}
		give(live[i], parts[i].hi-parts[i].lo)
	}
	return parts
}

// finish returns the n pages that d had, after a call that ended with err,
// and accounts for it. It reports whether the pages are to be compressed
// elsewhere: after a fault, or any error once the device is dropped, which
// a sticky fault does here (MD-5).
func (p *devicePool) finish(d *poolDevice, n int, err error) (redo bool) {
	p.mu.Lock()
	d.load -= n
	if d.load == 0 {
		d.stats.BusyTime += time.Since(d.busySince)
	}
	if err == nil {
		d.stats.PagesCompressed += uint64(n)
		d.stats.Batches++
	}
	p.mu.Unlock()
	return p.fault(d, err)
}

// fault accounts for a call on d that ended with err, and reports whether
// its pages are to be done elsewhere: after a fault, or any error once the
// device is dropped, which a sticky fault does here (MD-5).
func (p *devicePool) fault(d *poolDevice, err error) (redo bool) {
	if err == nil {
		return false
	}
	p.mu.Lock()
	redo = errors.Is(err, gpuimpl.ErrFault) || d.lost != nil
	drop := false
	if redo {
		d.stats.Fallbacks++
		if errors.Is(err, gpuimpl.ErrDeviceLost) && d.lost == nil {
			d.lost, d.stats.Dropped, drop = err, true, true
		}
	}
	p.mu.Unlock()
	if drop {
		d.run.Lock()
		d.engine.Close() // the batches on its way end first; their Waits redo them
		d.run.Unlock()
	}
	return redo
}

// partResult is a part's outputs: the GPU's, or the CPU's.
type partResult struct {
	out   []gpuimpl.Output
	cpu   []CompressedPage
	onCPU bool
	t     gpuimpl.Timings
	err   error
}

// runPart compresses pages (host's, when host is not nil) on d, which has
// them reserved; after a fault, on the least-loaded live device not yet
// tried, and on the CPU when none is left (MD-5).
func (p *devicePool) runPart(d *poolDevice, pages []Page, host *gpuimpl.HostPages, tried []*poolDevice) partResult {
	for d != nil {
		d.run.Lock()
		out, t, err := d.engine.Compress(pages, host)
		d.run.Unlock()
		if !p.finish(d, len(pages), err) {
			return partResult{out: out, t: t, err: err}
		}
		tried = append(tried, d)
		d = p.next(len(pages), tried)
	}
	return partResult{cpu: compressParallel(pages), onCPU: true}
}

// redo compresses pages that failed on device failed elsewhere (MD-5).
func (p *devicePool) redo(pages []Page, host *gpuimpl.HostPages, failed *poolDevice) partResult {
	tried := []*poolDevice{failed}
	return p.runPart(p.next(len(pages), tried), pages, host, tried)
}

// gpuBatch is what the pool made of a batch: its pages, the timings summed
// over its devices, and how many of its pages the CPU compressed after
// faults (API-15, MD-5).
type gpuBatch struct {
	pages    []CompressedPage
	timings  gpuimpl.Timings
	cpuPages int
}

// compress compresses pages (host's, when host is not nil), split across
// the least-loaded devices when it is large (MD-3), each part on its own
// goroutine.
func (p *devicePool) compress(pages []Page, host *gpuimpl.HostPages) (gpuBatch, error) {
	parts := p.split(len(pages))
	if parts == nil {
		return whole(pages, host, p.runPart(nil, pages, nil, nil))
	}
	res := make([]partResult, len(parts))
	run := func(i int) {
		pt := parts[i]
		res[i] = p.runPart(pt.dev, pages[pt.lo:pt.hi], host.Range(pt.lo, pt.hi), nil)
	}
	eachPart(len(parts), run)
	return joinParts(pages, host, parts, res)
}

// eachPart calls run(i) for parts 0 to n-1, each on its own goroutine when
// there are several, and waits for them.
func eachPart(n int, run func(i int)) {
	if n == 1 {
		run(0)
		return
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { run(i) })
	}
	wg.Wait()
}

// joinParts makes one batch of its parts' results, in page order. The GPU's
// outputs of a host batch lie in host, one after the other, and are viewed
// in place; otherwise they are copied into one slice.
func joinParts(pages []Page, host *gpuimpl.HostPages, parts []part, res []partResult) (gpuBatch, error) {
	var b gpuBatch
	for _, r := range res {
		if r.err != nil {
			return gpuBatch{}, r.err
		}
		if r.onCPU {
			b.cpuPages += len(r.cpu)
		}
		b.timings = addTimings(b.timings, r.t)
	}
	if len(res) == 1 && !res[0].onCPU {
		b.pages = compressedPages(res[0].out)
		return b, nil
	}
	if host != nil {
		if out, ok := adjacent(res); ok {
			b.pages = compressedPages(out)
			return b, nil
		}
	}
	b.pages = make([]CompressedPage, len(pages))
	for i, r := range res {
		dst := b.pages[parts[i].lo:parts[i].hi]
		if r.onCPU {
			copy(dst, r.cpu)
		} else {
			copy(dst, compressedPages(r.out))
		}
	}
	return b, nil
}

// whole makes a batch of one part's result.
func whole(pages []Page, host *gpuimpl.HostPages, r partResult) (gpuBatch, error) {
	return joinParts(pages, host, []part{{hi: len(pages)}}, []partResult{r})
}

// adjacent returns the GPU's outputs of every part as one slice when each
// part's lie right after the part before's. They must all lie in one array
// (a HostPages' outputs, which its Ranges divide): separate allocations
// that happen to be neighbours are no slice.
func adjacent(res []partResult) ([]gpuimpl.Output, bool) {
	base := uintptr(unsafe.Pointer(unsafe.SliceData(res[0].out)))
	n := 0
	for _, r := range res {
		if r.onCPU || len(r.out) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(r.out))) != base+uintptr(n)*unsafe.Sizeof(gpuimpl.Output{}) {
			return nil, false
		}
		n += len(r.out)
	}
	return unsafe.Slice(unsafe.SliceData(res[0].out), n), true
}

func addTimings(a, b gpuimpl.Timings) gpuimpl.Timings {
	return gpuimpl.Timings{
		H2D: a.H2D + b.H2D, Kernel: a.Kernel + b.Kernel, D2H: a.D2H + b.D2H, Total: a.Total + b.Total,
		Stage: a.Stage + b.Stage, Assemble: a.Assemble + b.Assemble,
	}
}

// poolPending is a batch that devicePool.start gave to one device.
type poolPending struct {
	p     *devicePool
	d     *poolDevice
	pages []Page
	host  *gpuimpl.HostPages
	w     gpuWaiter // nil once Wait has taken it
	res   gpuBatch
	err   error
}

// start starts compressing host.Pages, which are pages, on the
// least-loaded device, whole (MD-2), and returns without waiting for it. A
// batch the device would not queue is compressed at once, split as
// compress splits it.
func (p *devicePool) start(pages []Page, host *gpuimpl.HostPages) (*poolPending, error) {
	q := &poolPending{p: p, pages: pages, host: host}
	n := len(pages)
	var d *poolDevice
	if p.devs[0].engine.Queues(n) { // the engines share their options
		d = p.next(n, nil)
	}
	if d == nil {
		q.res, q.err = p.compress(pages, host)
		return q, nil
	}
	d.run.Lock()
	w, err := d.engine.Start(pages, host)
	d.run.Unlock()
	if err != nil {
		if !p.finish(d, n, err) {
			return nil, err
		}
		q.res, q.err = whole(pages, host, p.redo(pages, host, d))
		return q, nil
	}
	q.d, q.w = d, w
	return q, nil
}

// Wait returns the batch: the device's outputs, or after a fault those of
// another device or the CPU (MD-5). Later calls return the same.
func (q *poolPending) Wait() (gpuBatch, error) {
	if q.w == nil {
		return q.res, q.err
	}
	d, n := q.d, len(q.pages)
	out, t, err := q.await()
	q.w = nil
	r := partResult{out: out, t: t, err: err}
	if q.p.finish(d, n, err) {
		r = q.p.redo(q.pages, q.host, d)
	}
	q.res, q.err = whole(q.pages, q.host, r)
	return q.res, q.err
}

// await waits for the device to finish the batch without holding the
// device, so that other goroutines start and take batches on it meanwhile,
// then holds it only for the engine's Wait, which takes the outputs
// (RT-15). The device is polled, every 10 µs at first and then every
// 100 µs at most.
func (q *poolPending) await() ([]gpuimpl.Output, gpuimpl.Timings, error) {
	d := q.d
	for pause := 10 * time.Microsecond; ; pause = min(2*pause, 100*time.Microsecond) {
		d.run.Lock()
		if q.w.Done() {
			defer d.run.Unlock()
			return q.w.Wait()
		}
		d.run.Unlock()
		time.Sleep(pause)
	}
}

// injectFault makes the next batch on the pool's i-th device provoke f.
func (p *devicePool) injectFault(i int, f gpuimpl.Fault) {
	d := p.devs[i]
	d.run.Lock()
	defer d.run.Unlock()
	d.engine.InjectFault(f)
}

// stats are the devices' statistics, in the pool's order.
func (p *devicePool) stats() []DeviceStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := make([]DeviceStats, len(p.devs))
	for i, d := range p.devs {
		s[i] = d.stats
		if d.load > 0 {
			s[i].BusyTime += time.Since(d.busySince)
		}
	}
	return s
}

// lost returns the sticky fault of the last device dropped once every
// device is, and nil while one is live.
func (p *devicePool) lost() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var err error
	for _, d := range p.devs {
		if d.lost == nil {
			return nil
		}
		err = d.lost
	}
	return err
}

// close closes every engine not dropped, then what page-locks buffers.
func (p *devicePool) close() error {
	var errs []error
	for _, d := range p.devs {
		p.mu.Lock()
		lost := d.lost
		p.mu.Unlock()
		if lost == nil {
			d.run.Lock()
			errs = append(errs, d.engine.Close())
			d.run.Unlock()
		}
	}
	if p.closeHost != nil {
		errs = append(errs, p.closeHost())
	}
	return errors.Join(errs...)
}
