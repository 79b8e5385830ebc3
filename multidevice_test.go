package lz4warp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lz4warp/lz4warp/gpuimpl"
	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/reference"
)

// Checks MD-1: Devices may not hold a negative index or one twice, and
// AllDevices, Devices and a DeviceIndex other than 0 exclude one another;
// each error wraps ErrInvalidConfig and names the field.
func TestValidateDevices(t *testing.T) {
	for _, c := range []struct {
		name  string
		edit  func(*Config)
		field string
	}{
		{"negative", func(c *Config) { c.Devices = []int{0, -1} }, "Devices[1]"},
		{"duplicate", func(c *Config) { c.Devices = []int{2, 0, 2} }, "device 2 twice"},
		{"all and a list", func(c *Config) { c.AllDevices, c.Devices = true, []int{0} }, "AllDevices"},
		{"all and an index", func(c *Config) { c.AllDevices, c.DeviceIndex = true, 1 }, "AllDevices"},
		{"a list and an index", func(c *Config) { c.Devices, c.DeviceIndex = []int{0}, 1 }, "DeviceIndex"},
	} {
		cfg := DefaultConfig()
		c.edit(&cfg)
		err := cfg.Validate()
		require.ErrorIs(t, err, ErrInvalidConfig, c.name)
		assert.Contains(t, err.Error(), c.field, c.name)
		_, err = NewCompressor(cfg)
		assert.ErrorIs(t, err, ErrInvalidConfig, "NewCompressor validates: %s", c.name)
	}
	for _, edit := range []func(*Config){
		func(c *Config) { c.Devices = []int{3, 1, 0} },
		func(c *Config) { c.Devices = []int{0} },
		func(c *Config) { c.AllDevices = true },
		func(c *Config) { c.DeviceIndex = 5 },
	} {
		cfg := DefaultConfig()
		edit(&cfg)
		assert.NoError(t, cfg.Validate(), "%+v", cfg)
	}
}

// Checks MD-1: the devices a configuration asks for, among a machine's:
// every supported one for AllDevices, else Devices in their order, else
// DeviceIndex; a missing or unsupported device is an error that names it.
func TestDeviceIndexes(t *testing.T) {
	cuda := func(i, major int) DeviceInfo {
		return DeviceInfo{Index: i, Name: fmt.Sprintf("gpu%d", i), ComputeCapability: [2]int{major, 0}}
	}
	machine := []DeviceInfo{cuda(0, 9), cuda(1, 6), cuda(2, 8), cuda(3, 9)}
	for _, c := range []struct {
		cfg  Config
		want []int
		err  string
	}{
		{Config{}, []int{0}, ""},
		{Config{DeviceIndex: 2}, []int{2}, ""},
		{Config{Devices: []int{3, 0, 2}}, []int{3, 0, 2}, ""},
		{Config{AllDevices: true}, []int{0, 2, 3}, ""},
		{Config{DeviceIndex: 4}, nil, "device 4: the machine has 4 CUDA devices"},
		{Config{Devices: []int{0, 1}}, nil, "device 1 (gpu1) has compute capability 6.0"},
		{Config{Devices: []int{0, 9}}, nil, "device 9"},
	} {
		got, err := deviceIndexes(c.cfg, machine)
		if c.err != "" {
			assert.ErrorContains(t, err, c.err, "%+v", c.cfg)
			continue
		}
		require.NoError(t, err, "%+v", c.cfg)
		assert.Equal(t, c.want, got, "%+v", c.cfg)
	}
	_, err := deviceIndexes(Config{AllDevices: true}, []DeviceInfo{cuda(0, 6)})
	assert.ErrorContains(t, err, "none of 1 CUDA devices is supported")
	_, err = deviceIndexes(Config{AllDevices: true}, nil)
	assert.Error(t, err)
}

// fakeEngine is a gpuEngine that compresses with the CPU codec, for
// the pool's tests: it records the first page of each batch it gets,
// fails the next call with fault when one is set, and holds a started
// batch until its Wait.
type fakeEngine struct {
	mu        sync.Mutex // guards what the test reads while the pool runs
	queues    int        // the most pages Start queues
	delay     time.Duration
	fault     error // the next call's error
	faultN    int   // calls to fail with fault, 1 when 0
	faultAt   int   // with faultOnly, fail only batches that start at this page
	faultOnly bool
	firsts    []int // the first page's number, of each batch
	decoded   []int // the first page's number, of each decode batch
	calls     int
	closed    bool
	running   int // calls of this engine at once: the pool runs one at a time
}

func (e *fakeEngine) enter() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.running++
	if e.running > 1 {
		return errors.New("fake: two calls at once")
	}
	return nil
}

func (e *fakeEngine) leave() {
	e.mu.Lock()
	e.running--
	e.mu.Unlock()
}

func (e *fakeEngine) Compress(pages []Page, _ *gpuimpl.HostPages) ([]gpuimpl.Output, gpuimpl.Timings, error) {
	if err := e.enter(); err != nil {
		return nil, gpuimpl.Timings{}, err
	}
	defer e.leave()
	return e.compress(pages)
}

func (e *fakeEngine) compress(pages []Page) ([]gpuimpl.Output, gpuimpl.Timings, error) {
	first := -1
	if len(pages) > 0 {
		first = pageNumber(&pages[0])
	}
	if err := e.call(first, &e.firsts); err != nil {
		return nil, gpuimpl.Timings{}, err
	}
	time.Sleep(e.delay)
	out := make([]gpuimpl.Output, len(pages))
	for i, p := range compressParallel(pages) {
		out[i] = gpuimpl.Output{Kind: uint8(p.Kind), Data: p.Data}
	}
	return out, gpuimpl.Timings{Kernel: time.Duration(len(pages))}, nil
}

// call counts a call whose batch starts with page number first (-1 for an
// empty batch), records first in seen, and returns the call's error: the
// fault set for it, or that the engine is closed.
func (e *fakeEngine) call(first int, seen *[]int) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.calls++
	if first >= 0 {
		*seen = append(*seen, first)
	}
	fault := e.fault
	if e.faultOnly && first != e.faultAt {
		fault = nil
	}
	if fault != nil {
		if e.faultN--; e.faultN <= 0 {
			e.fault = nil
		}
	}
	switch {
	case e.closed:
		return errors.New("fake: engine closed")
	case fault != nil:
		return fault
	}
	return nil
}

// Decompress decodes with the CPU decoder; a page it refuses gets the
// status that sends it to the CPU for its verdict. The batch's first page
// number is read from the decoded page, the compressed one having none.
func (e *fakeEngine) Decompress(pages []gpuimpl.Output, dst [][PageSize]byte, status []uint32) (gpuimpl.Timings, error) {
	if err := e.enter(); err != nil {
		return gpuimpl.Timings{}, err
	}
	defer e.leave()
	for i, o := range pages {
		if fastlz4.DecodePage((*Page)(&dst[i]), reference.Kind(o.Kind), o.Data) != nil {
			status[i] = gpuimpl.DecodeBadPayload << 24
		}
	}
	first := -1
	if len(pages) > 0 {
		first = pageNumber((*Page)(&dst[0]))
	}
	return gpuimpl.Timings{}, e.call(first, &e.decoded)
}

func (e *fakeEngine) DecompressHost([]gpuimpl.Output, *gpuimpl.HostPages, []uint32) (gpuimpl.Timings, error) {
	return gpuimpl.Timings{}, errors.New("fake: no page-locked memory")
}

func (e *fakeEngine) StartDecompressHost([]gpuimpl.Output, *gpuimpl.HostPages) (*gpuimpl.DecodePending, error) {
	return nil, errors.New("fake: no page-locked memory")
}

func (e *fakeEngine) Queues(n int) bool { return n <= e.queues }

func (e *fakeEngine) Start(pages []Page, _ *gpuimpl.HostPages) (gpuWaiter, error) {
	if err := e.enter(); err != nil {
		return nil, err
	}
	defer e.leave()
	return &fakeWait{e: e, pages: pages}, nil
}

func (e *fakeEngine) InjectFault(gpuimpl.Fault) {}

func (e *fakeEngine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	return nil
}

// setFault fails the engine's next n calls with err.
func (e *fakeEngine) setFault(err error, n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.fault, e.faultN = err, n
}

func (e *fakeEngine) seen() []int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]int(nil), e.firsts...)
}

// fakeWait compresses a started batch in Wait.
type fakeWait struct {
	e     *fakeEngine
	pages []Page
}

func (w *fakeWait) Done() bool { return true }

func (w *fakeWait) Wait() ([]gpuimpl.Output, gpuimpl.Timings, error) {
	if err := w.e.enter(); err != nil {
		return nil, gpuimpl.Timings{}, err
	}
	defer w.e.leave()
	return w.e.compress(w.pages)
}

// numberedPages are n pages, each starting with its number from first on
// and then text, random or same-filled bytes, so that outputs differ per
// page and the fakes can tell which pages they got.
func numberedPages(first, n int) []Page {
	pages := make([]Page, n)
	rng := rand.New(rand.NewPCG(uint64(first), uint64(n)))
	for i := range pages {
		p := &pages[i]
		switch i % 3 {
		case 1:
			for j := 8; j+8 <= PageSize; j += 8 {
				binary.LittleEndian.PutUint64(p[j:], rng.Uint64())
			}
		case 2:
			copy(p[8:], bytes.Repeat([]byte(fmt.Sprintf("page %d ", first+i)), PageSize/8))
		}
		binary.LittleEndian.PutUint64(p[:], uint64(first+i))
	}
	return pages
}

func pageNumber(p *Page) int { return int(binary.LittleEndian.Uint64(p[:])) }

// fakePool is a pool of n fake engines that queue up to queues pages.
func fakePool(n, queues int) (*devicePool, []*fakeEngine) {
	fakes := make([]*fakeEngine, n)
	engines := make([]gpuEngine, n)
	index := make([]int, n)
	for i := range fakes {
		fakes[i] = &fakeEngine{queues: queues}
		engines[i], index[i] = fakes[i], 10+i
	}
	p := newDevicePool(index, engines)
	p.newHost = func(int) (*gpuimpl.HostPages, error) { return nil, gpuimpl.ErrNotAvailable }
	return p, fakes
}

// fakeCompressor is a Compressor of the default configuration whose GPUs
// are a pool of n fake engines.
func fakeCompressor(n int) (*Compressor, *devicePool, []*fakeEngine) {
	p, fakes := fakePool(n, 1<<20)
	c := newCompressor(DefaultConfig())
	c.gpu, c.devices = p, p
	c.gpuOn.Store(true)
	return c, p, fakes
}

// requireSameBytes checks every page against the CPU codec, whose bytes
// are the reference's (API-16): the fakes compress with it, and so does
// the CPU fallback.
func requireSameBytes(t *testing.T, pages []Page, got []CompressedPage) {
	t.Helper()
	require.Len(t, got, len(pages))
	for i, want := range compressParallel(pages) {
		if got[i].Kind != want.Kind || !bytes.Equal(got[i].Data, want.Data) {
			t.Fatalf("page %d: kind %v, %d bytes; want %v, %d bytes", i, got[i].Kind, len(got[i].Data), want.Kind, len(want.Data))
		}
	}
}

// Checks MD-2: a stream of started batches goes to the least-loaded
// device, whole, the first in the pool's order among equals; a device's
// load is the pages it was given and has not returned.
func TestPoolStartsOnLeastLoaded(t *testing.T) {
	p, fakes := fakePool(3, 1<<20)
	start := func(first, n int) *poolPending {
		q, err := p.start(numberedPages(first, n), nil)
		require.NoError(t, err)
		return q
	}
	a := start(0, 3000)     // all idle: device 0
	b := start(10000, 1000) // device 1
	c := start(20000, 2000) // device 2
	d := start(30000, 500)  // loads 3000, 1000, 2000: device 1
	_, err := b.Wait()      // device 1 down to 500
	require.NoError(t, err)
	e := start(40000, 100) // loads 3000, 500, 2000: device 1
	for _, q := range []*poolPending{a, c, d, e} {
		res, err := q.Wait()
		require.NoError(t, err)
		requireSameBytes(t, q.pages, res.pages)
	}
	assert.Equal(t, []int{0}, fakes[0].seen())
	assert.Equal(t, []int{10000, 30000, 40000}, fakes[1].seen())
	assert.Equal(t, []int{20000}, fakes[2].seen())
	st := p.stats()
	assert.Equal(t, []uint64{3000, 1600, 2000}, []uint64{st[0].PagesCompressed, st[1].PagesCompressed, st[2].PagesCompressed})
	assert.Equal(t, []int{10, 11, 12}, []int{st[0].Index, st[1].Index, st[2].Index})
	for _, d := range p.devs {
		assert.Zero(t, d.load, "every page returned")
	}
}

// Checks MD-3: a batch is cut into contiguous parts in page order, one per
// live device but none of fewer than splitPages pages (one part for a
// small batch), their sizes within one page of each other, the first part
// to the least-loaded device; the joined outputs are in page order.
func TestPoolSplits(t *testing.T) {
	for _, c := range []struct {
		devices, pages, parts int
	}{
		{1, 100000, 1}, {4, 1000, 1}, {4, splitPages, 1}, {4, 2*splitPages - 1, 1}, {4, 2 * splitPages, 2},
		{4, 3*splitPages + 5, 3}, {4, 30000, 4}, {2, 30000, 2}, {8, 30001, 8}, {3, 0, 1},
	} {
		p, _ := fakePool(c.devices, 1<<20)
		parts := p.split(c.pages)
		require.Len(t, parts, c.parts, "%+v", c)
		lo := 0
		for i, pt := range parts {
			assert.Equal(t, lo, pt.lo, "%+v: part %d starts where the one before ends", c, i)
			size := pt.hi - pt.lo
			assert.LessOrEqual(t, c.pages/c.parts, size, "%+v", c)
			assert.LessOrEqual(t, size, (c.pages+c.parts-1)/c.parts, "%+v", c)
			assert.Equal(t, size, pt.dev.load, "%+v: the part is reserved on its device", c)
			lo = pt.hi
		}
		assert.Equal(t, c.pages, lo, "%+v: the parts cover the batch", c)
	}
	// Loaded devices come last: device 0 has 5,000 pages on its way.
	p, _ := fakePool(3, 1<<20)
	p.devs[0].load = 5000
	parts := p.split(3 * splitPages)
	assert.Equal(t, []*poolDevice{p.devs[1], p.devs[2], p.devs[0]}, []*poolDevice{parts[0].dev, parts[1].dev, parts[2].dev})
	p.devs[0].load = 0

	pages := numberedPages(0, 4*splitPages+3)
	p, fakes := fakePool(3, 1<<20)
	res, err := p.compress(pages, nil)
	require.NoError(t, err)
	requireSameBytes(t, pages, res.pages)
	assert.Zero(t, res.cpuPages)
	n := len(pages)
	for i, f := range fakes {
		assert.Equal(t, []int{n * i / 3}, f.seen(), "device %d's part", i)
	}
	assert.Equal(t, time.Duration(n), res.timings.Kernel, "the parts' timings are summed")
}

// Checks MD-5, API-15: a part that faults on one device is compressed on
// the least-loaded device not yet tried, then on the CPU when every device
// faulted; nothing is lost, and each device counts its fallbacks. A sticky
// fault drops the device: it is closed and gets no more batches.
func TestPoolFaultRedistributes(t *testing.T) {
	fault := fmt.Errorf("%w: injected", gpuimpl.ErrFault)
	sticky := fmt.Errorf("%w: %w: injected", gpuimpl.ErrFault, gpuimpl.ErrDeviceLost)
	pages := numberedPages(0, 3*splitPages)

	p, fakes := fakePool(3, 1<<20)
	fakes[1].setFault(fault, 1)
	res, err := p.compress(pages, nil)
	require.NoError(t, err)
	requireSameBytes(t, pages, res.pages)
	assert.Zero(t, res.cpuPages, "another device took the part")
	st := p.stats()
	assert.Equal(t, uint64(1), st[1].Fallbacks)
	assert.Equal(t, uint64(3*splitPages), st[0].PagesCompressed+st[2].PagesCompressed, "devices 0 and 2 took device 1's part")
	assert.Zero(t, st[1].PagesCompressed)
	assert.Nil(t, p.lost())

	fakes[0].setFault(sticky, 1)
	res, err = p.compress(pages, nil)
	require.NoError(t, err)
	requireSameBytes(t, pages, res.pages)
	assert.True(t, fakes[0].closed, "a device lost to a sticky fault is closed")
	st = p.stats()
	assert.True(t, st[0].Dropped)
	assert.Equal(t, uint64(1), st[0].Fallbacks)
	before := fakes[0].calls
	res, err = p.compress(pages, nil)
	require.NoError(t, err)
	requireSameBytes(t, pages, res.pages)
	assert.Equal(t, before, fakes[0].calls, "a dropped device gets no batch")

	// Every device faults: the CPU compresses the part.
	p, fakes = fakePool(2, 1<<20)
	for _, f := range fakes {
		f.setFault(fault, 1000)
	}
	res, err = p.compress(pages, nil)
	require.NoError(t, err)
	requireSameBytes(t, pages, res.pages)
	assert.Equal(t, len(pages), res.cpuPages)
	for i, s := range p.stats() {
		assert.Equal(t, uint64(2), s.Fallbacks, "device %d: its part and the other's", i)
	}

	// A started batch that faults is compressed again at its Wait.
	p, fakes = fakePool(2, 1<<20)
	fakes[0].setFault(sticky, 1)
	q, err := p.start(pages, nil)
	require.NoError(t, err)
	res, err = q.Wait()
	require.NoError(t, err)
	requireSameBytes(t, pages, res.pages)
	assert.Zero(t, res.cpuPages)
	assert.Equal(t, []int{0}, fakes[1].seen())
	again, err := q.Wait()
	require.NoError(t, err)
	assert.Equal(t, res, again, "a second Wait returns the same")

	// Every device lost: lost says why, and the CPU takes the batches.
	fakes[1].setFault(sticky, 1)
	res, err = p.compress(pages, nil)
	require.NoError(t, err)
	requireSameBytes(t, pages, res.pages)
	assert.ErrorIs(t, p.lost(), gpuimpl.ErrDeviceLost)
	q, err = p.start(pages, nil)
	require.NoError(t, err)
	res, err = q.Wait()
	require.NoError(t, err)
	assert.Equal(t, len(pages), res.cpuPages)
	requireSameBytes(t, pages, res.pages)
}

// Checks MD-5: an error that is not a fault is the caller's, from a device
// still in use; from a dropped device any error sends the pages elsewhere.
func TestPoolReturnsOtherErrors(t *testing.T) {
	p, fakes := fakePool(2, 1<<20)
	bad := errors.New("bad buffer")
	fakes[0].setFault(bad, 1)
	_, err := p.compress(numberedPages(0, 10), nil)
	assert.ErrorIs(t, err, bad)
	assert.Zero(t, p.devs[0].load)
	// Device 0 is dropped after the pool gave it a batch: the error of its
	// closed engine sends the batch to device 1.
	pages := numberedPages(0, 10)
	d := p.next(len(pages), nil)
	require.Same(t, p.devs[0], d)
	p.devs[0].lost, fakes[0].closed = errors.New("dropped"), true
	r := p.runPart(d, pages, nil, nil)
	require.NoError(t, r.err)
	assert.Equal(t, []int{0}, fakes[1].seen())
	assert.Equal(t, uint64(1), p.stats()[0].Fallbacks)
}

// Checks MD-2, MD-3: a batch that the devices do not queue is compressed
// by start at once, split as compress splits it.
func TestPoolStartLargeBatch(t *testing.T) {
	p, fakes := fakePool(2, 1000)
	pages := numberedPages(0, 2*splitPages)
	q, err := p.start(pages, nil)
	require.NoError(t, err)
	assert.Nil(t, q.w, "compressed at once")
	res, err := q.Wait()
	require.NoError(t, err)
	requireSameBytes(t, pages, res.pages)
	assert.Equal(t, []int{0}, fakes[0].seen())
	assert.Equal(t, []int{splitPages}, fakes[1].seen())
}

// Checks MD-2, MD-5, MD-6: batches from many goroutines at once, started
// and synchronous, with faults on the way, all come back with the
// reference's bytes, each engine runs one call at a time, and the
// devices' and the CPU's pages add up to the batches' (run with -race).
func TestPoolConcurrent(t *testing.T) {
	p, fakes := fakePool(4, 3000)
	for _, f := range fakes {
		f.delay = 50 * time.Microsecond
	}
	fault := fmt.Errorf("%w: injected", gpuimpl.ErrFault)
	var wg sync.WaitGroup
	var mu sync.Mutex
	total, cpu := 0, 0
	for g := range 6 {
		wg.Go(func() {
			for i := range 4 {
				n := []int{1000, 2500, 4500, 7000}[(g+i)%4]
				pages := numberedPages(1000000*g+10000*i, n)
				if (g+i)%5 == 0 {
					fakes[(g+i)%4].setFault(fault, 1)
				}
				var res gpuBatch
				var err error
				if i%2 == 0 {
					res, err = p.compress(pages, nil)
				} else {
					var q *poolPending
					if q, err = p.start(pages, nil); err == nil {
						res, err = q.Wait()
					}
				}
				if err != nil {
					t.Error(err)
					return
				}
				requireSameBytes(t, pages, res.pages)
				mu.Lock()
				total, cpu = total+n, cpu+res.cpuPages
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	sum := uint64(cpu)
	for _, s := range p.stats() {
		sum += s.PagesCompressed
		assert.Positive(t, s.BusyTime)
		assert.Positive(t, s.Batches)
	}
	assert.Equal(t, uint64(total), sum)
	for _, d := range p.devs {
		assert.Zero(t, d.load)
	}
}

// Checks MD-6: a device's throughput is its pages' bytes over its busy
// time, 0 without time.
func TestDeviceStatsThroughput(t *testing.T) {
	assert.Equal(t, 0.0, DeviceStats{PagesCompressed: 10}.ThroughputGBps())
	assert.InDelta(t, 4.096, DeviceStats{PagesCompressed: 1e6, BusyTime: time.Second}.ThroughputGBps(), 1e-12)
}

// Checks MD-3: the outputs of parts that lie one after the other in one
// array are viewed as one slice; others are not.
func TestAdjacentOutputs(t *testing.T) {
	all := make([]gpuimpl.Output, 10)
	for i := range all {
		all[i].Kind = uint8(i)
	}
	out, ok := adjacent([]partResult{{out: all[:3]}, {out: all[3:7]}, {out: all[7:]}})
	require.True(t, ok)
	assert.Len(t, out, 10)
	assert.Same(t, &all[9], &out[9])
	_, ok = adjacent([]partResult{{out: all[:3]}, {out: all[4:]}})
	assert.False(t, ok, "a gap")
	_, ok = adjacent([]partResult{{out: all[3:]}, {out: all[:3]}})
	assert.False(t, ok, "out of order")
	_, ok = adjacent([]partResult{{out: all[:3]}, {onCPU: true}})
	assert.False(t, ok, "a part on the CPU")
}

// Checks MD-5, MD-6, API-15: through a Compressor, a batch split over fake
// devices where one part fell to the CPU is a simd batch that GPUFallbacks
// counts once; Stats lists every device with its fallbacks; once every
// device is dropped the Compressor stops using them and GPUError says why.
func TestCompressorOverFakeDevices(t *testing.T) {
	c, _, fakes := fakeCompressor(2)
	pages := numberedPages(0, 2*splitPages)
	res, err := c.CompressBatch(pages)
	require.NoError(t, err)
	assert.Equal(t, BackendGPU, res.Backend)
	requireSameBytes(t, pages, res.Pages)

	fault := fmt.Errorf("%w: injected", gpuimpl.ErrFault)
	// Device 1's part faults on both devices; device 0's own part does not.
	fakes[0].setFault(fault, 1)
	fakes[0].faultOnly, fakes[0].faultAt = true, splitPages
	fakes[1].setFault(fault, 1)
	res, err = c.CompressBatch(pages)
	require.NoError(t, err)
	assert.Equal(t, BackendSIMD, res.Backend, "a part went to the CPU")
	requireSameBytes(t, pages, res.Pages)
	s := c.Stats()
	assert.Equal(t, uint64(1), s.GPUFallbacks)
	require.Len(t, s.Devices, 2)
	assert.Equal(t, []uint64{1, 1}, []uint64{s.Devices[0].Fallbacks, s.Devices[1].Fallbacks})
	assert.Equal(t, []uint64{2 * splitPages, splitPages}, []uint64{s.Devices[0].PagesCompressed, s.Devices[1].PagesCompressed},
		"each device's part of the first batch, and device 0's own part of the second")
	assert.Equal(t, uint64(2*len(pages)), s.PagesCompressed)

	sticky := fmt.Errorf("%w: %w: injected", gpuimpl.ErrFault, gpuimpl.ErrDeviceLost)
	fakes[0].faultOnly = false
	fakes[0].setFault(sticky, 1)
	fakes[1].setFault(sticky, 1)
	res, err = c.CompressBatch(pages)
	require.NoError(t, err)
	requireSameBytes(t, pages, res.Pages)
	assert.Nil(t, c.gpu, "every device dropped")
	assert.ErrorIs(t, c.GPUError(), ErrGPUNotAvailable)
	assert.ErrorIs(t, c.GPUError(), gpuimpl.ErrDeviceLost)
	res, err = c.CompressBatch(pages)
	require.NoError(t, err)
	assert.Equal(t, BackendSIMD, res.Backend)
	s = c.Stats()
	assert.True(t, s.Devices[0].Dropped && s.Devices[1].Dropped, "Stats still lists the dropped devices")
	require.NoError(t, c.Close())
}

// Checks MD-5, MD-2: when a sticky fault drops a device, the other batches
// it had on their way are compressed elsewhere at their Wait, and later
// batches avoid it.
func TestPoolDropWithBatchesOnTheirWay(t *testing.T) {
	p, fakes := fakePool(3, 1<<20)
	sticky := fmt.Errorf("%w: %w: injected", gpuimpl.ErrFault, gpuimpl.ErrDeviceLost)
	var started []*poolPending
	for i := range 6 { // two on each device
		q, err := p.start(numberedPages(10000*i, 1000), nil)
		require.NoError(t, err)
		started = append(started, q)
	}
	require.Same(t, p.devs[1], started[1].d)
	require.Same(t, p.devs[1], started[4].d)
	fakes[1].setFault(sticky, 1)
	for _, q := range started {
		res, err := q.Wait()
		require.NoError(t, err)
		requireSameBytes(t, q.pages, res.pages)
		assert.Zero(t, res.cpuPages)
	}
	s := p.stats()
	assert.True(t, s[1].Dropped)
	assert.Equal(t, uint64(2), s[1].Fallbacks, "the faulted batch and the one after it")
	assert.Zero(t, s[1].PagesCompressed)
	assert.Equal(t, uint64(6000), s[0].PagesCompressed+s[2].PagesCompressed)
	q, err := p.start(numberedPages(90000, 10), nil)
	require.NoError(t, err)
	assert.NotSame(t, p.devs[1], q.d)
	_, err = q.Wait()
	require.NoError(t, err)
}

// Checks MD-10: a large decode batch is cut into parts for the devices as
// MD-3 cuts a compression batch, each part decoded on its device; a part
// that faults is decoded on another device, and where every device faulted
// the batch is left to the CPU (no statuses). Decoding counts in a device's
// load while it runs, so that concurrent decode batches spread, and in
// nothing after it.
func TestPoolDecodeSplits(t *testing.T) {
	pages := numberedPages(0, 4*splitPages+3)
	compressed := compressParallel(pages)
	n := len(pages)
	p, fakes := fakePool(3, 1<<20)
	dst := make([]Page, n)
	status, err := p.decompress(compressed, dst, nil)
	require.NoError(t, err)
	require.Len(t, status, n)
	for i := range pages {
		require.Zero(t, status[i], "page %d", i)
		require.Equal(t, pages[i], dst[i], "page %d", i)
	}
	for i, f := range fakes {
		assert.Equal(t, []int{n * i / 3}, f.decoded, "device %d's part", i)
	}
	for i, d := range p.devs {
		assert.Zero(t, d.decoding+d.load, "device %d's load after the batch", i)
		assert.Zero(t, d.stats.PagesCompressed, "device %d: decoding is not compression", i)
		assert.Equal(t, uint64(n*(i+1)/3-n*i/3), d.stats.PagesDecoded, "device %d's decoded pages", i)
	}

	// A fault on device 1: its part goes to another device.
	fault := fmt.Errorf("%w: injected", gpuimpl.ErrFault)
	p, fakes = fakePool(3, 1<<20)
	fakes[1].setFault(fault, 1)
	clear(dst)
	status, err = p.decompress(compressed, dst, nil)
	require.NoError(t, err)
	require.NotNil(t, status, "a device was left for the part")
	for i := range pages {
		require.Equal(t, pages[i], dst[i], "page %d", i)
	}
	assert.Equal(t, uint64(1), p.devs[1].stats.Fallbacks)
	assert.Len(t, append(fakes[0].decoded, fakes[2].decoded...), 3, "the faulted part was decoded again elsewhere")

	// Every device faults: no statuses, the CPU's turn.
	p, fakes = fakePool(2, 1<<20)
	for _, f := range fakes {
		f.setFault(fault, 10)
	}
	status, err = p.decompress(compressed, dst, nil)
	require.NoError(t, err)
	assert.Nil(t, status)

	// Concurrent decode batches spread over the devices.
	p, _ = fakePool(2, 1<<20)
	a := p.decodeDevice(nil, 1000)
	b := p.decodeDevice(nil, 1000)
	assert.NotSame(t, a, b, "the second batch goes to the device not decoding")
	p.decoded(a, 1000, nil)
	p.decoded(b, 1000, nil)
	assert.Equal(t, []uint64{1000, 1000}, []uint64{p.devs[0].stats.PagesDecoded, p.devs[1].stats.PagesDecoded})
}
