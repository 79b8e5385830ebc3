package lz4warp

import (
	"flag"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/lz4warp/lz4warp/internal/cudart"
	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/gputest"
	"github.com/lz4warp/lz4warp/internal/intlist"
)

// The benchmarks of CompressBatch on the GPU from Go memory (API-23), every
// way in the same run, on the GPU Compressor the GPU benchmarks share
// (LZ4WARP_BENCH_SLOT pages per launch, default 8,192):
//
//   - BenchmarkFromGo/<way>/<dataset>/<batch>: exactly <batch> pages of
//     ordinary Go memory through CompressBatch, by way of the staging
//     buffers of -fromgo.stage pages each (staged-<pages>) or of the
//     engine's ring (ring), and the same pages from a page-locked
//     PageBuffer through CompressBuffer (gpubuf), the engine's speed that
//     CompressBatch is measured against; copyin-<pages> times the staging
//     copies alone, no GPU, the host's share; into-<pages> is staged
//     through CompressBatchInto with one reused result; batches of -batches
//     pages;
//   - BenchmarkFromGoParallel/staged/<dataset>/<batch>-x<g>: g goroutines
//     (-fromgo.goroutines) calling CompressBatch on the one Compressor, each
//     on its own copy of the batch; the bytes are all of theirs;
//   - BenchmarkRegister/<MiB>: page-locking Go memory for one call and
//     unlocking it (cuMemHostRegister, cuMemHostUnregister), the cost a
//     batch would pay to let the GPU read its pages where they are.
//
// For example, on the GPU machine:
//
//	lz4warp.test -test.run '^$' -test.bench 'FromGo|Register' -test.benchtime 20x \
//	    -batches 10000,30000,100000
var (
	fromGoStages     = flag.String("fromgo.stage", "4096,8192", "comma-separated staging buffer sizes (pages) of BenchmarkFromGo")
	fromGoGoroutines = flag.String("fromgo.goroutines", "1,2,4", "comma-separated goroutine counts of BenchmarkFromGoParallel")
)

// useFromGo sets the way CompressBatch feeds the GPU and the staging
// buffers' size for the rest of the benchmark, and drops the staging
// buffers made for another size.
func useFromGo(b *testing.B, c *Compressor, mode string, pages int) {
	prevMode, prevPages := fromGoMode, stagePages
	set := func(mode string, pages int) {
		c.gpuMu.Lock()
		defer c.gpuMu.Unlock()
		fromGoMode, stagePages = mode, pages
		c.dropStaging()
	}
	set(mode, pages)
	b.Cleanup(func() { set(prevMode, prevPages) })
}

func BenchmarkFromGo(b *testing.B) {
	stages, err := intlist.Parse(*fromGoStages)
	if err != nil {
		b.Fatalf("-fromgo.stage: %v", err)
	}
	ways := []string{"gpubuf", "ring"}
	var wayStage []int
	for _, s := range stages {
		ways = append(ways, fmt.Sprintf("staged-%d", s), fmt.Sprintf("copyin-%d", s), fmt.Sprintf("into-%d", s))
		wayStage = append(wayStage, s, s, s)
	}
	for _, name := range dataset.Names() {
		for _, size := range batchSizes(b) {
			for i, way := range ways {
				b.Run(fmt.Sprintf("%s/%s/%d", way, name, size), func(b *testing.B) {
					if size < GPUMinBatch {
						b.Skipf("SelectBackend gives %d pages to the CPU", size)
					}
					c := gpuBenchCompressor(b)
					pages := cachedTiledBatch(b, name, size)
					compress := func() []CompressedPage { return gpuBenchRun(b, pages, nil) }
					switch {
					case way == "gpubuf":
						buf := gpuBenchBuffer(b, pages)
						compress = func() []CompressedPage { return gpuBenchRun(b, pages, buf) }
					case way == "ring":
						useFromGo(b, c, fromGoRing, stagePages)
					case strings.HasPrefix(way, "copyin-"):
						// The host's share alone: the chunks' copies
						// into a staging buffer, no GPU.
						useFromGo(b, c, fromGoStaged, wayStage[i-2])
						h, err := c.takeStage(c.gpu, true)
						if err != nil {
							b.Fatal(err)
						}
						b.Cleanup(func() { c.putStage(c.gpu, h) })
						none := []CompressedPage{{Data: make([]byte, len(pages)*PageSize)}} // ratio 1
						compress = func() []CompressedPage {
							for lo, k := 0, 0; lo < len(pages); k++ {
								n := stageChunk(len(pages)-lo, k)
								c.stagePages(h.Pages[:n], pages[lo:lo+n])
								lo += n
							}
							return none
						}
					case strings.HasPrefix(way, "into-"):
						// Staged into a result that the loop reuses, whose
						// payload arena the first call has grown.
						useFromGo(b, c, fromGoStaged, wayStage[i-2])
						res := new(BatchResult)
						compress = func() []CompressedPage {
							if err := c.CompressBatchInto(res, pages); err != nil || res.Backend != BackendGPU {
								b.Fatalf("%v on the %v backend", err, res.Backend)
							}
							return res.Pages
						}
					default:
						useFromGo(b, c, fromGoStaged, wayStage[i-2])
					}
					compress() // page-locks the buffer, makes the staging buffers
					b.SetBytes(int64(size) * PageSize)
					b.ResetTimer()
					var out []CompressedPage
					for range b.N {
						out = compress()
					}
					b.StopTimer()
					b.ReportMetric(float64(size*PageSize)/float64(stored(out)), "ratio")
				})
			}
		}
	}
}

func BenchmarkFromGoParallel(b *testing.B) {
	counts, err := intlist.Parse(*fromGoGoroutines)
	if err != nil {
		b.Fatalf("-fromgo.goroutines: %v", err)
	}
	for _, name := range dataset.Names() {
		for _, size := range batchSizes(b) {
			for _, g := range counts {
				b.Run(fmt.Sprintf("staged/%s/%d-x%d", name, size, g), func(b *testing.B) {
					if size < GPUMinBatch {
						b.Skipf("SelectBackend gives %d pages to the CPU", size)
					}
					c := gpuBenchCompressor(b)
					useFromGo(b, c, fromGoStaged, stagePages)
					batches := make([][]Page, g)
					for i := range batches {
						batches[i] = append([]Page(nil), cachedTiledBatch(b, name, size)...)
					}
					run := func(n int) {
						var wg sync.WaitGroup
						for _, pages := range batches {
							wg.Go(func() {
								for range n {
									res, err := c.CompressBatch(pages)
									if err != nil {
										b.Error(err)
										return
									}
									if res.Backend != BackendGPU {
										b.Errorf("%d pages went to the %v backend", size, res.Backend)
										return
									}
								}
							})
						}
						wg.Wait()
					}
					run(1)
					b.SetBytes(int64(size*g) * PageSize)
					b.ResetTimer()
					run(b.N)
				})
			}
		}
	}
}

func BenchmarkRegister(b *testing.B) {
	for _, mib := range []int{40, 400} {
		b.Run(fmt.Sprintf("%dMiB", mib), func(b *testing.B) {
			gputest.Require(b)
			ctx, err := cudart.NewContext(0)
			if err != nil {
				b.Fatal(err)
			}
			defer ctx.Close()
			// As CompressBatch's pages would be: Go memory written
			// before, so that the kernel has mapped it already.
			pages := make([]Page, mib<<20/PageSize)
			for i := range pages {
				pages[i][0] = byte(i)
			}
			mem := unsafe.Slice(&pages[0][0], len(pages)*PageSize)
			b.SetBytes(int64(len(mem)))
			var register, unregister time.Duration
			for b.Loop() {
				start := time.Now()
				if _, err := ctx.Register(mem); err != nil {
					b.Fatal(err)
				}
				registered := time.Now()
				if err := ctx.Unregister(mem); err != nil {
					b.Fatal(err)
				}
				register, unregister = register+registered.Sub(start), unregister+time.Since(registered)
			}
			n := float64(b.N)
			b.ReportMetric(register.Seconds()/n*1e3, "register-ms")
			b.ReportMetric(unregister.Seconds()/n*1e3, "unregister-ms")
		})
	}
}
