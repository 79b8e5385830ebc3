package lz4warp

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lz4warp/lz4warp/gpuimpl"
	"github.com/lz4warp/lz4warp/internal/cudart"
	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/gputest"
	"github.com/lz4warp/lz4warp/internal/intlist"
)

// supportedDevices are the indexes of the machine's supported GPUs; tb
// skips without a usable GPU (gputest.Require).
func supportedDevices(tb testing.TB) []int {
	tb.Helper()
	gputest.Require(tb)
	devs, err := Devices()
	if err != nil {
		tb.Fatal(err)
	}
	var idx []int
	for _, d := range devs {
		if d.IsSupported() {
			idx = append(idx, d.Index)
		}
	}
	return idx
}

// multiDeviceCompressor is a GPU Compressor on every supported device,
// closed when the test ends; the test skips with fewer than two.
func multiDeviceCompressor(t *testing.T, batchSize int) (*Compressor, []int) {
	t.Helper()
	idx := supportedDevices(t)
	if len(idx) < 2 {
		t.Skipf("%d supported GPUs; these tests need 2 or more", len(idx))
	}
	cfg := DefaultConfig()
	cfg.AllDevices, cfg.BatchSize = true, batchSize
	c, err := NewGPUBatchCompressor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if got := len(c.Stats().Devices); got != len(idx) {
		t.Fatalf("AllDevices opened %d devices of %d", got, len(idx))
	}
	return c, idx
}

// backendOf is res's backend, for messages; res is nil after an error.
func backendOf(res *BatchResult) string {
	if res == nil {
		return "none"
	}
	return res.Backend.String()
}

// pinnedBuffer is a page-locked buffer of c holding pages, closed when the
// test ends.
func pinnedBuffer(t *testing.T, c *Compressor, pages []Page) *PageBuffer {
	t.Helper()
	buf, err := c.NewPageBuffer(len(pages))
	if err != nil || !buf.Pinned() {
		t.Fatalf("NewPageBuffer: pinned %v, %v", buf != nil && buf.Pinned(), err)
	}
	t.Cleanup(func() { buf.Close() })
	copy(buf.Pages(), pages)
	return buf
}

// Checks MD-7, MD-1, MD-3, MD-2, MD-4, MD-6: each device alone, and every
// device together, gives every page (generated, and the text, binaries and
// memory of the machine where found) the reference's bytes: single-device
// Compressors by Devices, then one on AllDevices with split batches from Go
// memory and from a page-locked buffer (the payloads of raw pages being
// the buffer's own pages, where each device wrote them), and streams of
// buffers; every device takes pages.
func TestMultiDeviceConformance(t *testing.T) {
	c, idx := multiDeviceCompressor(t, 4096)
	pages := mixedPages(len(idx)*3*splitPages+101, 2026)
	for _, name := range []string{dataset.Text, dataset.Binaries, dataset.Coredump} {
		set, err := dataset.Load(name, 8192)
		if err != nil {
			t.Logf("%s: %v", name, err)
			continue
		}
		pages = append(pages, set...)
	}
	t.Logf("%d pages, on each of %d devices alone and on all of them", len(pages), len(idx))
	for _, i := range idx {
		cfg := DefaultConfig()
		cfg.Devices, cfg.BatchSize = []int{i}, 4096
		one, err := NewGPUBatchCompressor(cfg)
		if err != nil {
			t.Fatalf("device %d: %v", i, err)
		}
		res, err := one.CompressBatch(pages)
		if err != nil || res.Backend != BackendGPU {
			t.Fatalf("device %d: backend %v, %v", i, backendOf(res), err)
		}
		checkAgainstReference(t, pages, res.Pages)
		buf, err := one.NewPageBuffer(len(pages))
		if err != nil || !buf.Pinned() {
			t.Fatalf("device %d: NewPageBuffer: %v", i, err)
		}
		copy(buf.Pages(), pages)
		if res, err = one.CompressBuffer(buf, len(pages)); err != nil || res.Backend != BackendGPU {
			t.Fatalf("device %d, buffer: backend %v, %v", i, backendOf(res), err)
		}
		checkAgainstReference(t, pages, res.Pages)
		buf.Close()
		if s := one.Stats().Devices; len(s) != 1 || s[0].Index != i || s[0].PagesCompressed != uint64(2*len(pages)) {
			t.Errorf("device %d alone: %+v", i, s)
		}
		one.Close()
	}

	res, err := c.CompressBatch(pages)
	if err != nil || res.Backend != BackendGPU {
		t.Fatalf("all devices: backend %v, %v", backendOf(res), err)
	}
	checkAgainstReference(t, pages, res.Pages)
	// From Go memory the batch goes through the staging buffers, whose
	// chunks each go whole to the least-loaded device (MD-3, API-23): every
	// device takes some, and together they take every page once.
	total := uint64(0)
	for i, s := range c.Stats().Devices {
		total += s.PagesCompressed
		if s.Index != idx[i] || s.PagesCompressed == 0 || s.Batches == 0 {
			t.Errorf("device %d's chunks of a staged batch: %+v", idx[i], s)
		}
	}
	if total != uint64(len(pages)) {
		t.Errorf("the devices compressed %d pages of a %d-page batch", total, len(pages))
	}

	buf := pinnedBuffer(t, c, pages)
	for round := range 2 { // the second finds every device's address of the buffer known
		res, err = c.CompressBuffer(buf, len(pages))
		if err != nil || res.Backend != BackendGPU {
			t.Fatalf("buffer, round %d: backend %v, %v", round, backendOf(res), err)
		}
		checkAgainstReference(t, pages, res.Pages)
		for i, p := range res.Pages {
			if p.Kind == KindRaw && &p.Data[0] != &buf.Pages()[i][0] {
				t.Fatalf("raw page %d's payload is a copy, not the buffer's page", i)
			}
		}
	}

	// Streams: 3 buffers per device in turn, batches of 3,000 pages.
	const stream = 3000
	var bufs []*PageBuffer
	var sets [][]Page
	for k := range 3 * len(idx) {
		sets = append(sets, mixedPages(stream, uint64(k)))
		bufs = append(bufs, pinnedBuffer(t, c, sets[k]))
	}
	before := c.Stats().Devices
	pending := make([]*PendingBatch, len(bufs))
	for round := range 4 {
		for k, b := range bufs {
			if pending[k] != nil {
				res, err := pending[k].Wait()
				if err != nil || res.Backend != BackendGPU {
					t.Fatalf("stream, round %d, buffer %d: backend %v, %v", round, k, backendOf(res), err)
				}
				checkAgainstReference(t, sets[k], res.Pages)
			}
			if pending[k], err = c.CompressBufferAsync(b, stream); err != nil {
				t.Fatal(err)
			}
		}
	}
	for k, p := range pending {
		res, err := p.Wait()
		if err != nil {
			t.Fatal(err)
		}
		checkAgainstReference(t, sets[k], res.Pages)
	}
	for i, s := range c.Stats().Devices {
		if s.Batches == before[i].Batches {
			t.Errorf("device %d took no batch of the stream: %+v", idx[i], s)
		}
		t.Logf("device %d: %d pages, %d batches, %.1f GB/s over %v busy", s.Index, s.PagesCompressed, s.Batches, s.ThroughputGBps(), s.BusyTime)
	}
}

// Checks MD-10, API-25: on every device together, a large decode batch
// into a page-locked buffer and into Go memory is split over the devices
// and gives the original pages, and a stream of DecompressBufferAsync
// batches spreads over them; every device decodes pages.
func TestMultiDeviceDecode(t *testing.T) {
	c, idx := multiDeviceCompressor(t, 4096)
	pages := mixedPages(len(idx)*3*splitPages+101, 2027)
	res, err := c.CompressBatchOn(BackendSIMD, pages)
	if err != nil {
		t.Fatal(err)
	}
	buf, err := c.NewPageBuffer(len(pages))
	if err != nil || !buf.Pinned() {
		t.Fatalf("NewPageBuffer: %v", err)
	}
	defer buf.Close()
	// Each split batch gives every device a part, none the whole.
	split := func(what string, decode func() error, got []Page) {
		t.Helper()
		before := c.Stats().Devices
		if err := decode(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		samePages(t, what, got, pages)
		for i, s := range c.Stats().Devices {
			if d := s.PagesDecoded - before[i].PagesDecoded; d == 0 || d >= uint64(len(pages)) {
				t.Errorf("%s: device %d decoded %d of the batch's %d pages", what, idx[i], d, len(pages))
			}
		}
	}
	split("DecompressBuffer on the GPU", func() error { return c.DecompressBufferOn(buf, res.Pages) }, buf.Pages()[:len(pages)])
	got := make([]Page, len(pages))
	split("DecompressBatchOn(gpu)", func() error { return c.DecompressBatchOn(BackendGPU, res.Pages, got) }, got)

	// A stream: 2 buffers per device, decoded asynchronously in turn.
	const stream = 3000
	var bufs []*PageBuffer
	for range 2 * len(idx) {
		b, err := c.NewPageBuffer(stream)
		if err != nil || !b.Pinned() {
			t.Fatalf("NewPageBuffer: %v", err)
		}
		defer b.Close()
		bufs = append(bufs, b)
	}
	before := c.Stats().Devices
	pending := make([]*PendingDecode, len(bufs))
	for k, b := range bufs {
		if pending[k], err = c.decompressBufferAsync(b, res.Pages[k*stream/2:k*stream/2+stream], BackendGPU); err != nil {
			t.Fatal(err)
		}
	}
	for k, p := range pending {
		if err := p.Wait(); err != nil {
			t.Fatal(err)
		}
		samePages(t, fmt.Sprintf("stream buffer %d", k), bufs[k].Pages()[:stream], pages[k*stream/2:k*stream/2+stream])
	}
	for i, s := range c.Stats().Devices {
		if s.PagesDecoded == before[i].PagesDecoded {
			t.Errorf("device %d decoded no batch of the stream", idx[i])
		}
	}
}

// samePages fails t at the first page of got that differs from want.
func samePages(t *testing.T, what string, got, want []Page) {
	t.Helper()
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: page %d differs from the original", what, i)
		}
	}
}

// Checks MD-5, MD-4, API-15: a fault that is not sticky on one device
// sends its part, or its started batch, to another device: the batch comes
// back complete from the GPUs, the device counts a fallback, GPUFallbacks
// stays 0, and the device takes batches again afterwards (its context
// rebuilt, the buffer's address there looked up again).
func TestMultiDeviceFault(t *testing.T) {
	c, idx := multiDeviceCompressor(t, 2048)
	pages := mixedPages(len(idx)*2*splitPages, 31)
	buf := pinnedBuffer(t, c, pages)
	for round, f := range []gpuimpl.Fault{gpuimpl.FaultOutOfMemory, gpuimpl.FaultInvalidLaunch} {
		c.gpu.injectFault(0, f)
		var res *BatchResult
		var err error
		if round == 0 {
			res, err = c.CompressBatch(pages)
		} else {
			res, err = c.CompressBuffer(buf, len(pages))
		}
		if err != nil || res.Backend != BackendGPU {
			t.Fatalf("%v: backend %v, %v; want another GPU to take the part", f, backendOf(res), err)
		}
		checkAgainstReference(t, pages, res.Pages)
		s := c.Stats()
		if s.Devices[0].Fallbacks != uint64(round+1) || s.GPUFallbacks != 0 {
			t.Fatalf("%v: device %d's fallbacks %d, GPUFallbacks %d", f, idx[0], s.Devices[0].Fallbacks, s.GPUFallbacks)
		}
		before := s.Devices[0].PagesCompressed
		if res, err = c.CompressBuffer(buf, len(pages)); err != nil || res.Backend != BackendGPU {
			t.Fatalf("%v: the batch after: %v, %v", f, backendOf(res), err)
		}
		checkAgainstReference(t, pages, res.Pages)
		if c.Stats().Devices[0].PagesCompressed == before {
			t.Errorf("%v: device %d took no part after its fault", f, idx[0])
		}
	}
	// A started batch: with every device idle it goes to the first one.
	c.gpu.injectFault(0, gpuimpl.FaultInvalidLaunch)
	p, err := c.CompressBufferAsync(buf, 3000)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Wait()
	if err != nil || res.Backend != BackendGPU {
		t.Fatalf("started batch: backend %v, %v", backendOf(res), err)
	}
	checkAgainstReference(t, pages[:3000], res.Pages)
	if s := c.Stats(); s.Devices[0].Fallbacks != 3 || s.GPUFallbacks != 0 {
		t.Errorf("started batch: device fallbacks %d, GPUFallbacks %d", s.Devices[0].Fallbacks, s.GPUFallbacks)
	}
}

// Checks MD-5, RT-4: a sticky fault on one device loses no page and drops
// that device. Whether the other devices survive it (RT-4 found one device's
// sticky fault poisoning the process for that device) is logged: if they do,
// later batches run on them; if not, they are dropped too and the CPU takes
// the batches, GPUError saying why. In a child process, which the fault
// leaves unable to use its GPU.
func TestMultiDeviceStickyFault(t *testing.T) {
	if os.Getenv(gputest.ChildEnv) == "" && len(supportedDevices(t)) < 2 {
		t.Skip("fewer than 2 supported GPUs")
	}
	if !gputest.InChild(t, nil) {
		return
	}
	c, idx := multiDeviceCompressor(t, 2048)
	pages := mixedPages(len(idx)*2*splitPages, 77)
	c.gpu.injectFault(0, gpuimpl.FaultIllegalAddress)
	res, err := c.CompressBatch(pages)
	if err != nil {
		t.Fatal(err)
	}
	checkAgainstReference(t, pages, res.Pages)
	s := c.Stats()
	if !s.Devices[0].Dropped {
		t.Fatalf("device %d not dropped after a sticky fault: %+v", idx[0], s.Devices[0])
	}
	survivors := 0
	for _, d := range s.Devices[1:] {
		if !d.Dropped {
			survivors++
		}
	}
	t.Logf("sticky fault on device %d: batch on %v; %d of %d other devices still in use", idx[0], res.Backend, survivors, len(idx)-1)
	before := s.Devices[0].PagesCompressed
	res, err = c.CompressBatch(pages)
	if err != nil {
		t.Fatal(err)
	}
	checkAgainstReference(t, pages, res.Pages)
	s = c.Stats()
	if s.Devices[0].PagesCompressed != before {
		t.Errorf("the dropped device took pages")
	}
	switch {
	case survivors > 0 && res.Backend != BackendGPU:
		t.Errorf("with %d devices left, the next batch ran on %v", survivors, res.Backend)
	case survivors == 0 && (res.Backend != BackendSIMD || !errors.Is(c.GPUError(), gpuimpl.ErrDeviceLost)):
		t.Errorf("every device dropped: backend %v, GPUError %v", res.Backend, c.GPUError())
	}
}

// The multi-device benchmarks (MD-9):
//   - BenchmarkMultiDevice/gpu<k>/<dataset>/<batch>: a stream of batches of
//     <batch> pages through CompressBufferAsync on a Compressor of the first
//     <k> supported devices, with LZ4WARP_BENCH_BUFFERS (default 4)
//     page-locked buffers per device in turn; each device's throughput over
//     its busy time as dev<i>-GB/s. k from LZ4WARP_BENCH_DEVICES (default
//     1,2,4, those the machine has), batches from -batches where given as
//     LZ4WARP_BENCH_MULTI (default 10000,30000), data sets from
//     LZ4WARP_BENCH_SETS (default all);
//   - BenchmarkHostLimits/h2d-all<k> and d2h-all<k>: 64 MiB copies between
//     driver-pinned host memory and each of k devices at once, MB/s the
//     aggregate; BenchmarkHostLimits/memmove-2GiB: 2 GiB copied between two
//     host buffers by one goroutine per core (MB/s counts the bytes copied
//     once, each read and written).

// benchList is an environment variable's list of positive integers, or def.
func benchList(b *testing.B, name string, def []int) []int {
	ns, err := intlist.Parse(os.Getenv(name))
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	if len(ns) == 0 {
		return def
	}
	return ns
}

// deviceCounts are LZ4WARP_BENCH_DEVICES's counts that the machine has.
func deviceCounts(b *testing.B, have int) []int {
	counts := slices.DeleteFunc(benchList(b, "LZ4WARP_BENCH_DEVICES", []int{1, 2, 4}), func(k int) bool { return k > have })
	if len(counts) == 0 {
		b.Skipf("%d supported GPUs", have)
	}
	return counts
}

// Checks MD-9: streams on 1, 2 and 4 devices in one run.
func BenchmarkMultiDevice(b *testing.B) {
	idx := supportedDevices(b)
	sizes := benchList(b, "LZ4WARP_BENCH_MULTI", []int{10000, 30000})
	sets := dataset.Names()
	if s := os.Getenv("LZ4WARP_BENCH_SETS"); s != "" {
		sets = splitComma(s)
	}
	perDevice := benchEnv("LZ4WARP_BENCH_BUFFERS", 4)
	for _, k := range deviceCounts(b, len(idx)) {
		cfg := DefaultConfig()
		cfg.Devices = idx[:k]
		cfg.BatchSize = benchEnv("LZ4WARP_BENCH_SLOT", 8192)
		cfg.RingBufferSlots = benchEnv("LZ4WARP_BENCH_SLOTS", cfg.RingBufferSlots)
		c, err := NewGPUBatchCompressor(cfg)
		if err != nil {
			b.Fatal(err)
		}
		for _, size := range sizes {
			bufs := make([]*PageBuffer, k*perDevice)
			for i := range bufs {
				if bufs[i], err = c.NewPageBuffer(size); err != nil || !bufs[i].Pinned() {
					b.Fatalf("buffer %d of %d pages: pinned %v, %v", i, size, bufs[i] != nil && bufs[i].Pinned(), err)
				}
			}
			for _, name := range sets {
				b.Run(fmt.Sprintf("gpu%d/%s/%d", k, name, size), func(b *testing.B) {
					pages := tiledBatch(b, name, size)
					for _, buf := range bufs {
						copy(buf.Pages(), pages)
					}
					benchStream(b, c, bufs, size)
				})
			}
			for _, buf := range bufs {
				buf.Close()
			}
		}
		c.Close()
	}
}

// benchStream times a stream of batches of size pages through bufs in
// turn, as BenchmarkEndToEndAsync does, after two untimed rounds (which
// look up every buffer's address on every device), and reports each
// device's throughput over its busy time in the timed part.
func benchStream(b *testing.B, c *Compressor, bufs []*PageBuffer, size int) {
	streamAsync(b, c, bufs, size, 2*len(bufs))
	before := c.Stats().Devices
	b.SetBytes(int64(size) * PageSize)
	b.ResetTimer()
	stored := streamAsync(b, c, bufs, size, b.N)
	b.StopTimer()
	for i, d := range c.Stats().Devices {
		busy := d.BusyTime - before[i].BusyTime
		if busy > 0 {
			b.ReportMetric(float64(d.PagesCompressed-before[i].PagesCompressed)*PageSize/busy.Seconds()/1e9, fmt.Sprintf("dev%d-GB/s", d.Index))
		}
	}
	b.ReportMetric(float64(size*PageSize)/float64(stored), "ratio")
}

func splitComma(s string) []string {
	return slices.DeleteFunc(strings.Split(s, ","), func(f string) bool { return f == "" })
}

// hostCopyDevice is one device's side of BenchmarkHostLimits' copies.
type hostCopyDevice struct {
	ctx    *cudart.Context
	host   *cudart.HostBuffer
	dev    cudart.DevicePtr
	stream *cudart.Stream
}

// Checks MD-9: the host's limits, measured beside the streams.
func BenchmarkHostLimits(b *testing.B) {
	idx := supportedDevices(b)
	const size = 64 << 20
	var devs []*hostCopyDevice
	defer func() {
		for _, d := range devs {
			d.ctx.Close()
		}
	}()
	for _, i := range idx {
		ctx, err := cudart.NewContext(i)
		if err != nil {
			b.Fatal(err)
		}
		d := &hostCopyDevice{ctx: ctx}
		devs = append(devs, d)
		if d.host, err = ctx.HostAlloc(size); err != nil {
			b.Fatal(err)
		}
		for j := range d.host.Bytes {
			d.host.Bytes[j] = byte(j)
		}
		if d.dev, err = ctx.Alloc(size); err != nil {
			b.Fatal(err)
		}
		if d.stream, err = ctx.NewStream(); err != nil {
			b.Fatal(err)
		}
	}
	for _, dir := range []string{"h2d", "d2h"} {
		for _, k := range deviceCounts(b, len(idx)) {
			b.Run(fmt.Sprintf("%s-all%d", dir, k), func(b *testing.B) {
				copyAll := func() {
					for _, d := range devs[:k] {
						var err error
						if dir == "h2d" {
							err = d.stream.CopyHtoD(d.dev, d.host.Bytes)
						} else {
							err = d.stream.CopyDtoH(d.host.Bytes, d.dev)
						}
						if err != nil {
							b.Fatal(err)
						}
					}
					for _, d := range devs[:k] {
						if err := d.stream.Synchronize(); err != nil {
							b.Fatal(err)
						}
					}
				}
				copyAll() // warm-up
				b.SetBytes(int64(k) * size)
				b.ResetTimer()
				for b.Loop() {
					copyAll()
				}
			})
		}
	}
	b.Run("memmove-2GiB", func(b *testing.B) {
		const n = 2 << 30
		src, dst := make([]byte, n), make([]byte, n)
		for i := 0; i < n; i += 4096 {
			src[i], dst[i] = 1, 1 // every page mapped before the timed loop
		}
		b.SetBytes(n)
		b.ResetTimer()
		for b.Loop() {
			workers := runtime.GOMAXPROCS(0)
			var wg sync.WaitGroup
			for w := range workers {
				lo, hi := n*w/workers, n*(w+1)/workers
				wg.Go(func() { copy(dst[lo:hi], src[lo:hi]) })
			}
			wg.Wait()
		}
		b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "threads")
	})
}
