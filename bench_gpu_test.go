package lz4warp

import (
	"fmt"
	"github.com/lz4warp/lz4warp/internal/gputest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/lz4warp/lz4warp/gpuimpl"
	"github.com/lz4warp/lz4warp/internal/cudart"
	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/intlist"
)

// The GPU benchmarks (results/gpu-notebook.md records their figures):
//   - BenchmarkEndToEnd/{simd,gpu,gpubuf}/<dataset>/<batch>: exactly <batch>
//     pages (a set's pages repeated when it holds fewer) compressed by the
//     16-core CPU backend, end to end through a GPU Compressor's
//     CompressBatch (staging, H2D, kernel, D2H, assembly), and through its
//     CompressBuffer from a page-locked PageBuffer filled before the timed
//     loop (H2D, kernel, D2H), in the same run; the GPU also reports the sum
//     of its kernel events as kernel-GB/s. The GPU backend is also added to
//     bench_test.go's BenchmarkCompressBatch;
//   - BenchmarkGPUKernel/gpu/<dataset>/<batch>: the whole batch in one
//     launch with nothing overlapping it, kernel-GB/s from its events;
//   - BenchmarkPinnedH2D/64MiB: one pinned 64 MiB host-to-device copy.
// LZ4WARP_BENCH_SLOT sets the GPU's pages per launch (default 8,192) and
// LZ4WARP_BENCH_SLOTS its ring slots (default 4).

func init() {
	extraBenchBackends = append(extraBenchBackends, benchBackend{name: "gpu", compress: gpuBenchCompress})
}

// benchEnv is a positive integer from the environment, or def.
func benchEnv(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

var gpuBench struct {
	sync.Mutex
	c     *Compressor
	b     *testing.B
	bytes float64
	t     gpuimpl.Timings // sums over the current benchmark's batches
}

// gpuBenchCompressor opens the GPU Compressor the benchmarks share, before
// any timed loop.
func gpuBenchCompressor(b *testing.B) *Compressor {
	gputest.Require(b)
	gpuBench.Lock()
	defer gpuBench.Unlock()
	if gpuBench.c == nil {
		cfg := DefaultConfig()
		cfg.BatchSize = benchEnv("LZ4WARP_BENCH_SLOT", 8192)
		cfg.RingBufferSlots = benchEnv("LZ4WARP_BENCH_SLOTS", cfg.RingBufferSlots)
		c, err := NewGPUBatchCompressor(cfg)
		if err != nil {
			b.Fatal(err)
		}
		gpuBench.c = c
	}
	return gpuBench.c
}

// gpuBenchCompress runs one batch on the shared GPU Compressor: through
// CompressBatch from GPUMinBatch pages on, below it (where SelectBackend
// picks the CPU) through its engine directly, to find the crossover. It
// reports the kernel's and the host's shares as GB/s.
func gpuBenchCompress(b *testing.B, pages []Page) []CompressedPage {
	return gpuBenchRun(b, pages, nil)
}

// gpuBenchRun is gpuBenchCompress, from buf's first len(pages) pages
// through CompressBuffer when buf is not nil.
func gpuBenchRun(b *testing.B, pages []Page, buf *PageBuffer) []CompressedPage {
	c := gpuBenchCompressor(b)
	gpuBench.Lock()
	defer gpuBench.Unlock()
	if gpuBench.b != b {
		gpuBench.b, gpuBench.bytes, gpuBench.t = b, 0, gpuimpl.Timings{}
	}
	var out []CompressedPage
	var t gpuimpl.Timings
	if len(pages) >= GPUMinBatch {
		var res *BatchResult
		var err error
		if buf != nil {
			res, err = c.CompressBuffer(buf, len(pages))
		} else {
			res, err = c.CompressBatch(pages)
		}
		if err != nil {
			b.Fatal(err)
		}
		if res.Backend != BackendGPU {
			b.Fatalf("%d pages went to the %v backend", len(pages), res.Backend)
		}
		out = res.Pages
		t = c.lastTimings
	} else {
		var host *gpuimpl.HostPages
		if buf != nil {
			host = buf.host
		}
		gb, err := c.gpu.compress(pages, host)
		if err != nil || gb.cpuPages > 0 {
			b.Fatalf("%v, %d pages on the CPU", err, gb.cpuPages)
		}
		out, t = gb.pages, gb.timings
	}
	gpuBench.bytes += float64(len(pages) * PageSize)
	gpuBench.t.Kernel += t.Kernel
	gpuBench.t.Total += t.Total
	gpuBench.t.Stage += t.Stage
	gpuBench.t.Assemble += t.Assemble
	reportShares(b, gpuBench.bytes, gpuBench.t)
	return out
}

// reportShares reports bytes over the kernel's and the host's times, and
// over the device's time from the first copy to the last (RT-7).
func reportShares(b *testing.B, bytes float64, t gpuimpl.Timings) {
	b.ReportMetric(bytes/t.Kernel.Seconds()/1e9, "kernel-GB/s")
	if t.Total > 0 {
		b.ReportMetric(bytes/t.Total.Seconds()/1e9, "device-GB/s")
	}
	if t.Stage > 0 {
		b.ReportMetric(bytes/t.Stage.Seconds()/1e9, "stage-GB/s")
	}
	b.ReportMetric(bytes/t.Assemble.Seconds()/1e9, "assemble-GB/s")
}

func BenchmarkEndToEnd(b *testing.B) {
	cpu := func(_ *testing.B, pages []Page) []CompressedPage { return compressParallel(pages) }
	for _, be := range []benchBackend{{name: "simd", compress: cpu}, {name: "gpu", compress: gpuBenchCompress}, {name: "gpubuf"}} {
		for _, name := range dataset.Names() {
			for _, size := range batchSizes(b) {
				b.Run(fmt.Sprintf("%s/%s/%d", be.name, name, size), func(b *testing.B) {
					pages := tiledBatch(b, name, size)
					compress := be.compress
					if be.name != "simd" {
						gpuBenchCompressor(b)
					}
					if be.name == "gpubuf" {
						buf := gpuBenchBuffer(b, pages)
						compress = func(b *testing.B, pages []Page) []CompressedPage { return gpuBenchRun(b, pages, buf) }
					}
					b.SetBytes(int64(len(pages)) * PageSize)
					var out []CompressedPage
					for b.Loop() {
						out = compress(b, pages)
					}
					stored := 0
					for _, p := range out {
						stored += len(p.Data)
					}
					b.ReportMetric(float64(len(pages)*PageSize)/float64(stored), "ratio")
				})
			}
		}
	}
}

// BenchmarkEndToEndAsync times a stream of batches of one size through
// CompressBufferAsync (API-19) on the shared GPU Compressor, with k
// page-locked buffers in turn (gpuasync<k>/<dataset>/<batch>): a buffer's
// batch starts once the Wait of its batch before has returned, so up to k
// batches are on their way, or RingBufferSlots (LZ4WARP_BENCH_SLOTS) where
// that is fewer; LZ4WARP_BENCH_INFLIGHT lists the k (default 2,4,8). Every
// batch's Wait is inside the timed loop.
func BenchmarkEndToEndAsync(b *testing.B) {
	gputest.Require(b)
	for _, k := range benchInflight(b) {
		for _, name := range dataset.Names() {
			for _, size := range batchSizes(b) {
				b.Run(fmt.Sprintf("gpuasync%d/%s/%d", k, name, size), func(b *testing.B) {
					if size < GPUMinBatch {
						b.Skipf("SelectBackend gives %d pages to the CPU", size)
					}
					pages := tiledBatch(b, name, size)
					c := gpuBenchCompressor(b)
					bufs := make([]*PageBuffer, k)
					for i := range bufs {
						bufs[i] = gpuBenchBuffer(b, pages)
						if _, err := c.CompressBuffer(bufs[i], size); err != nil { // registers it before the timed loop
							b.Fatal(err)
						}
					}
					b.SetBytes(int64(size) * PageSize)
					b.ResetTimer()
					stored := streamAsync(b, c, bufs, size, b.N)
					b.StopTimer()
					b.ReportMetric(float64(size*PageSize)/float64(stored), "ratio")
				})
			}
		}
	}
}

// benchInflight is LZ4WARP_BENCH_INFLIGHT's list of positive integers, or
// 2, 4 and 8.
func benchInflight(b *testing.B) []int {
	ks, err := intlist.Parse(os.Getenv("LZ4WARP_BENCH_INFLIGHT"))
	if err != nil {
		b.Fatalf("LZ4WARP_BENCH_INFLIGHT: %v", err)
	}
	if len(ks) == 0 {
		return []int{2, 4, 8}
	}
	return ks
}

// gpuBenchBuffer is a page-locked buffer of the shared GPU Compressor
// holding pages, closed when the benchmark ends.
func gpuBenchBuffer(b *testing.B, pages []Page) *PageBuffer {
	buf, err := gpuBench.c.NewPageBuffer(len(pages))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { buf.Close() })
	if !buf.Pinned() {
		b.Fatal("the PageBuffer is not page-locked")
	}
	copy(buf.Pages(), pages)
	return buf
}

func BenchmarkGPUKernel(b *testing.B) {
	gputest.Require(b)
	for _, name := range dataset.Names() {
		for _, size := range batchSizes(b) {
			b.Run(fmt.Sprintf("gpu/%s/%d", name, size), func(b *testing.B) {
				pages := tiledBatch(b, name, size)
				e, err := gpuimpl.Open(gpuimpl.Options{BatchPages: len(pages), RingSlots: 1})
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close()
				b.SetBytes(int64(len(pages)) * PageSize)
				var kernel, h2d, d2h, stage, assemble []time.Duration
				for b.Loop() {
					_, t, err := e.Compress(pages)
					if err != nil {
						b.Fatal(err)
					}
					kernel, h2d, d2h = append(kernel, t.Kernel), append(h2d, t.H2D), append(d2h, t.D2H)
					stage, assemble = append(stage, t.Stage), append(assemble, t.Assemble)
				}
				bytes := float64(len(pages) * PageSize)
				b.ReportMetric(bytes/median(h2d).Seconds()/1e9, "h2d-GB/s")
				b.ReportMetric(bytes/median(d2h).Seconds()/1e9, "d2h-in-GB/s")
				reportShares(b, bytes, gpuimpl.Timings{Kernel: median(kernel), Stage: median(stage), Assemble: median(assemble)})
			})
		}
	}
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkPinnedH2D measures one 64 MiB host-to-device copy from memory
// allocated page-locked by the driver (64MiB), and from Go memory and from
// memory mapped with transparent huge pages, both page-locked with
// cuMemHostRegister as PageBuffer does (64MiB-registered,
// 64MiB-registered-thp), and the same 64 MiB of Go memory in back-to-back
// copies of the sizes of the engine's chunks (64MiB-registered-in-*); and
// one 64 MiB device-to-host copy into the driver's pinned memory
// (64MiB-to-host, d2h-GB/s), the direction decoded pages take, and into
// the registered Go memory and huge pages (64MiB-registered-to-host,
// 64MiB-registered-thp-to-host), as into a PageBuffer.
func BenchmarkPinnedH2D(b *testing.B) {
	gputest.Require(b)
	const size = 64 << 20
	c, err := cudart.NewContext(0)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	host, err := c.HostAlloc(size)
	if err != nil {
		b.Fatal(err)
	}
	goMem := make([]byte, size)
	if _, err := c.Register(goMem); err != nil {
		b.Fatal(err)
	}
	thp, err := syscall.Mmap(-1, 0, size+2<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	if err != nil {
		b.Fatal(err)
	}
	thp = thp[-int(uintptr(unsafe.Pointer(&thp[0])))&(2<<20-1):][:size]
	if err := syscall.Madvise(thp, 14 /* MADV_HUGEPAGE */); err != nil {
		b.Logf("madvise: %v", err)
	}
	if _, err := c.Register(thp); err != nil {
		b.Fatal(err)
	}
	dev, err := c.Alloc(size)
	if err != nil {
		b.Fatal(err)
	}
	s, _ := c.NewStream()
	start, _ := c.NewEvent()
	end, _ := c.NewEvent()
	for _, src := range []struct {
		name  string
		mem   []byte
		piece int // the copy's size: the 64 MiB go in back-to-back copies of piece bytes
	}{
		{"64MiB", host.Bytes, size}, {"64MiB-registered", goMem, size}, {"64MiB-registered-thp", thp, size},
		// As the engine's chunks go: copies of 8,192, 2,048 and 512 pages.
		{"64MiB-registered-in-32MiB-copies", goMem, 32 << 20},
		{"64MiB-registered-in-8MiB-copies", goMem, 8 << 20},
		{"64MiB-registered-in-2MiB-copies", goMem, 2 << 20},
		{"64MiB-to-host", host.Bytes, size},
		{"64MiB-registered-to-host", goMem, size}, {"64MiB-registered-thp-to-host", thp, size},
	} {
		toHost := strings.HasSuffix(src.name, "to-host")
		b.Run(src.name, func(b *testing.B) {
			for i := range src.mem {
				src.mem[i] = byte(i)
			}
			copyOnce := func() time.Duration {
				if err := start.Record(s); err != nil {
					b.Fatal(err)
				}
				for off := 0; off < size; off += src.piece {
					cp := func() error { return s.CopyHtoD(dev+cudart.DevicePtr(off), src.mem[off:off+src.piece]) }
					if toHost {
						cp = func() error { return s.CopyDtoH(src.mem[off:off+src.piece], dev+cudart.DevicePtr(off)) }
					}
					if err := cp(); err != nil {
						b.Fatal(err)
					}
				}
				if err := end.Record(s); err != nil {
					b.Fatal(err)
				}
				if err := end.Synchronize(); err != nil {
					b.Fatal(err)
				}
				d, err := start.Elapsed(end)
				if err != nil {
					b.Fatal(err)
				}
				return d
			}
			copyOnce() // warm-up: the first copies map the buffers
			copyOnce()
			const perIteration = 8
			b.SetBytes(size * perIteration)
			var times []time.Duration
			for b.Loop() {
				for range perIteration {
					times = append(times, copyOnce())
				}
			}
			metric := "h2d-GB/s"
			if toHost {
				metric = "d2h-GB/s"
			}
			b.ReportMetric(size/median(times).Seconds()/1e9, metric)
		})
	}
}

// BenchmarkPinnedDuplex measures a 64 MiB host-to-device copy while a
// device-to-host copy of d2h-MiB runs in another stream, both between
// driver-allocated pinned memory and the device: how much the D2H stage of
// the pipeline costs the H2D copies that bound it (RT-6).
func BenchmarkPinnedDuplex(b *testing.B) {
	gputest.Require(b)
	const size = 64 << 20
	c, err := cudart.NewContext(0)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	var bufs [2]*cudart.HostBuffer
	var devs [2]cudart.DevicePtr
	var streams [2]*cudart.Stream
	var ends [2]*cudart.Event
	for i := range 2 {
		if bufs[i], err = c.HostAlloc(size); err != nil {
			b.Fatal(err)
		}
		if devs[i], err = c.Alloc(size); err != nil {
			b.Fatal(err)
		}
		if streams[i], err = c.NewStream(); err != nil {
			b.Fatal(err)
		}
		if ends[i], err = c.NewEvent(); err != nil {
			b.Fatal(err)
		}
	}
	start, err := c.NewEvent()
	if err != nil {
		b.Fatal(err)
	}
	for _, mib := range []int{0, 16, 32, 64} {
		b.Run(fmt.Sprintf("h2d64MiB-d2h%dMiB", mib), func(b *testing.B) {
			d2hBytes := mib << 20
			steps := func(out *[2]time.Duration) error {
				up, down := streams[0], streams[1]
				for _, step := range []func() error{
					func() error { return start.Record(up) },
					func() error { return down.Wait(start) },
					func() error { return up.CopyHtoD(devs[0], bufs[0].Bytes) },
					func() error { return down.CopyDtoH(bufs[1].Bytes[:d2hBytes], devs[1]) },
					func() error { return ends[0].Record(up) },
					func() error { return ends[1].Record(down) },
					ends[0].Synchronize,
					ends[1].Synchronize,
				} {
					if err := step(); err != nil {
						return err
					}
				}
				for i := range 2 {
					d, err := start.Elapsed(ends[i])
					if err != nil {
						return err
					}
					out[i] = d
				}
				return nil
			}
			var warm [2]time.Duration
			if err := steps(&warm); err != nil {
				b.Fatal(err)
			}
			var h2d, d2h []time.Duration
			b.SetBytes(size + int64(d2hBytes))
			for b.Loop() {
				var t [2]time.Duration
				if err := steps(&t); err != nil {
					b.Fatal(err)
				}
				h2d, d2h = append(h2d, t[0]), append(d2h, t[1])
			}
			b.ReportMetric(size/median(h2d).Seconds()/1e9, "h2d-GB/s")
			if d2hBytes > 0 {
				b.ReportMetric(float64(d2hBytes)/median(d2h).Seconds()/1e9, "d2h-GB/s")
			}
		})
	}
}

// streamAsync compresses n batches of size pages through bufs in turn with
// CompressBufferAsync, each buffer's batch started once the Wait of its
// batch before has returned, waits for the last ones, and returns the
// stored bytes of the last batch waited for. Every batch must run on the
// GPU.
func streamAsync(b *testing.B, c *Compressor, bufs []*PageBuffer, size, n int) (stored int) {
	started := make([]*PendingBatch, len(bufs))
	wait := func(p *PendingBatch) {
		if p == nil {
			return
		}
		res, err := p.Wait()
		if err != nil {
			b.Fatal(err)
		}
		if res.Backend != BackendGPU {
			b.Fatalf("%d pages went to the %v backend", size, res.Backend)
		}
		stored = 0
		for _, p := range res.Pages {
			stored += len(p.Data)
		}
	}
	for i := range n {
		j := i % len(bufs)
		wait(started[j])
		p, err := c.CompressBufferAsync(bufs[j], size)
		if err != nil {
			b.Fatal(err)
		}
		started[j] = p
	}
	for _, p := range started {
		wait(p)
	}
	return stored
}
