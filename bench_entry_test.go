package lz4warp

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp/internal/intlist"
)

// The benchmarks of the library's entry points, through a Compressor as a
// user calls it, named <backend>/<dataset>/<batch> for benchstat:
//
//   - BenchmarkScaling{Compress,Decompress}: CompressBatchOn(BackendSIMD)
//     ("simd"), CompressBatchInto on the CPU reusing its result
//     ("simd-into") and DecompressBatch, on -scaling.pages
//     pages of each -scaling.sets set; run them with -cpu 1,2,4,... for
//     the scaling over cores (the Compressor uses GOMAXPROCS cores);
//   - BenchmarkCompressPage, BenchmarkDecompressPage: one page at a time
//     through CompressPage and DecompressPage ("simd"), and through
//     CompressBatch and DecompressBatch ("batch"), over 1,024 pages in turn;
//   - BenchmarkContention: 8 goroutines on one Compressor, one of every 8
//     calls a CompressBatch of 10,000 pages and the others batches of 16
//     pages, compressed or decompressed; it reports the small calls'
//     median and 99th-percentile latency.
//
// For example, for the scaling over 1 and 2 cores with benchstat:
//
//	go test -run '^$' -bench 'Scaling' -cpu 1,2 -count 6 . | tee new.txt
var (
	scalingPages = flag.Int("scaling.pages", 100000, "pages per batch of the scaling benchmarks")
	scalingSets  = flag.String("scaling.sets", "text,mixed", "comma-separated data sets of the scaling benchmarks")
)

// benchTiled caches the last batch tiledBatch made: the benchmark functions
// run several times while b.N is sized, and 100,000 pages take a while to
// make.
var benchTiled = struct {
	sync.Mutex
	key   string
	pages []Page
}{}

func cachedTiledBatch(b *testing.B, name string, n int) []Page {
	benchTiled.Lock()
	defer benchTiled.Unlock()
	key := fmt.Sprintf("%s/%d", name, n)
	if benchTiled.key != key {
		benchTiled.pages = nil // free the last one first
		benchTiled.pages, benchTiled.key = tiledBatch(b, name, n), key
	}
	return benchTiled.pages
}

// benchCompressor is a Compressor of the default configuration, closed when
// the benchmark ends.
func benchCompressor(b *testing.B) *Compressor {
	c, err := NewCompressor(DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}

// stored is the total payload size of pages.
func stored(pages []CompressedPage) int {
	n := 0
	for _, p := range pages {
		n += len(p.Data)
	}
	return n
}

func BenchmarkScalingCompress(b *testing.B) {
	for _, name := range strings.Split(*scalingSets, ",") {
		for _, path := range []string{"simd", "simd-into"} {
			b.Run(fmt.Sprintf("%s/%s/%d", path, name, *scalingPages), func(b *testing.B) {
				pages := cachedTiledBatch(b, name, *scalingPages)
				c := benchCompressor(b)
				res := BatchResult{arena: new(arena)}
				compress := func() {
					var err error
					if path == "simd" {
						var r *BatchResult
						r, err = c.CompressBatchOn(BackendSIMD, pages)
						if err == nil {
							res = *r
						}
					} else {
						// CompressBatchInto on the CPU, also where it
						// would pick the GPU.
						err = c.compressInto(&res, pages, true, BackendSIMD)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				compress() // the result to reuse, and the workers' scratch,
				compress() // then its arena, sized by the first
				b.SetBytes(int64(len(pages)) * PageSize)
				b.ReportAllocs()
				b.ResetTimer()
				cpu := processCPU()
				for range b.N {
					compress()
				}
				reportCPU(b, cpu)
				b.ReportMetric(float64(len(pages)*PageSize)/float64(stored(res.Pages)), "ratio")
			})
		}
	}
}

func BenchmarkScalingDecompress(b *testing.B) {
	for _, name := range strings.Split(*scalingSets, ",") {
		b.Run(fmt.Sprintf("simd/%s/%d", name, *scalingPages), func(b *testing.B) {
			pages := cachedTiledBatch(b, name, *scalingPages)
			c := benchCompressor(b)
			res, err := c.CompressBatchOn(BackendSIMD, pages)
			if err != nil {
				b.Fatal(err)
			}
			dst := make([]Page, len(pages))
			b.SetBytes(int64(len(pages)) * PageSize)
			b.ReportAllocs()
			b.ResetTimer()
			cpu := processCPU()
			for range b.N {
				if err := c.DecompressBatch(res.Pages, dst); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			reportCPU(b, cpu)
			if !slices.Equal(dst, pages) {
				b.Fatal("pages restored wrong")
			}
		})
	}
}

// processCPU is the CPU time the process has used so far, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the process's CPU time per operation since since, as
// cpu-ms/op: on a machine shared with other jobs, where wall-clock times
// over several cores mostly measure the others' load, the CPU time a batch
// costs shows whether more workers cost more work (waiting is not CPU
// time; spinning and extra copies are).
func reportCPU(b *testing.B, since time.Duration) {
	b.ReportMetric(float64(processCPU()-since)/float64(b.N)/1e6, "cpu-ms/op")
}

// pageBenchSets are the data sets of the single-page benchmarks.
var pageBenchSets = []string{"text", "mixed"}

func BenchmarkCompressPage(b *testing.B) {
	for _, path := range []string{"simd", "batch"} {
		for _, name := range pageBenchSets {
			b.Run(fmt.Sprintf("%s/%s/1", path, name), func(b *testing.B) {
				pages := cachedTiledBatch(b, name, 1024)
				c := benchCompressor(b)
				dst := make([]byte, PageSize)
				b.SetBytes(PageSize)
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					p := &pages[i%len(pages)]
					if path == "simd" {
						CompressPage(dst, p)
					} else if _, err := c.CompressBatch(pages[i%len(pages) : i%len(pages)+1]); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}

func BenchmarkDecompressPage(b *testing.B) {
	for _, path := range []string{"simd", "batch"} {
		for _, name := range pageBenchSets {
			b.Run(fmt.Sprintf("%s/%s/1", path, name), func(b *testing.B) {
				pages := cachedTiledBatch(b, name, 1024)
				c := benchCompressor(b)
				res, err := c.CompressBatch(pages)
				if err != nil {
					b.Fatal(err)
				}
				dst := make([]Page, 1)
				b.SetBytes(PageSize)
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					k := i % len(pages)
					if path == "simd" {
						err = DecompressPage(res.Pages[k], &dst[0])
					} else {
						err = c.DecompressBatch(res.Pages[k:k+1], dst)
					}
					if err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}

// contentionSmall and contentionLarge are the batch sizes of
// BenchmarkContention.
const contentionSmall, contentionLarge = 16, 10000

var contentionGoroutines = flag.String("contention.goroutines", "8", "comma-separated goroutine counts of BenchmarkContention")

// BenchmarkContention calls one Compressor from several goroutines: of
// every 8 calls, one compresses 10,000 pages and the others compress or
// decompress 16. b.N counts the calls; the bytes are their pages.
func BenchmarkContention(b *testing.B) {
	counts, err := intlist.Parse(*contentionGoroutines)
	if err != nil {
		b.Fatalf("-contention.goroutines: %v", err)
	}
	for _, goroutines := range counts {
		b.Run(fmt.Sprintf("auto/mixed/%d+%d-x%d", contentionSmall, contentionLarge, goroutines), func(b *testing.B) {
			pages := cachedTiledBatch(b, "mixed", contentionLarge)
			c := benchCompressor(b)
			small, err := c.CompressBatch(pages[:contentionSmall])
			if err != nil {
				b.Fatal(err)
			}
			// A call's bytes: 1 in 8 large, 7 small.
			b.SetBytes((contentionLarge + 7*contentionSmall) * PageSize / 8)
			var next atomic.Int64
			latencies := make([][]time.Duration, goroutines)
			b.ResetTimer()
			var wg sync.WaitGroup
			for g := range goroutines {
				wg.Go(func() {
					dst := make([]Page, contentionSmall)
					for {
						i := int(next.Add(1)) - 1
						if i >= b.N {
							return
						}
						start := time.Now()
						switch {
						case i%8 == 0:
							_, err = c.CompressBatch(pages)
						case i%2 == 0:
							lo := (i * contentionSmall) % (contentionLarge - contentionSmall)
							_, err = c.CompressBatch(pages[lo : lo+contentionSmall])
						default:
							err = c.DecompressBatch(small.Pages, dst)
						}
						if err != nil {
							b.Error(err)
							return
						}
						if i%8 != 0 {
							latencies[g] = append(latencies[g], time.Since(start))
						}
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			all := slices.Concat(latencies...)
			if len(all) == 0 {
				return
			}
			slices.Sort(all)
			b.ReportMetric(float64(all[len(all)/2].Microseconds()), "small-p50-us")
			b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "small-p99-us")
		})
	}
}
