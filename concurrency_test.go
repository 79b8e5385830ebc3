package lz4warp

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/reference"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadMixed loads n mixed pages.
func loadMixed(t testing.TB, n int) []Page {
	t.Helper()
	pages, err := dataset.Load(dataset.Mixed, n)
	require.NoError(t, err)
	require.Len(t, pages, n)
	return pages
}

// sameBytes fails unless got holds the reference's kind and payload for
// every page.
func sameBytes(t testing.TB, pages []Page, got []CompressedPage) error {
	if len(got) != len(pages) {
		return fmt.Errorf("%d pages out of %d", len(got), len(pages))
	}
	var want [reference.PageBound]byte
	for i := range pages {
		kind, n := reference.EncodePage(want[:], &pages[i])
		if got[i].Kind != PageKind(kind) || !bytes.Equal(got[i].Data, want[:n]) {
			return fmt.Errorf("page %d: %v of %d bytes, reference %v of %d", i, got[i].Kind, len(got[i].Data), kind, n)
		}
	}
	return nil
}

// Checks API-20, API-16, API-14: batches, CompressBatchInto, DecompressBatch
// and Stats from many goroutines on one Compressor give the reference's
// bytes and add up exactly (run it with -race).
func TestConcurrentCallsOnOneCompressor(t *testing.T) {
	pages := loadMixed(t, 600)
	for _, workers := range []int{0, 1, 3} {
		t.Run(fmt.Sprintf("CPUWorkers=%d", workers), func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.CPUWorkers = workers
			c, err := NewCompressor(cfg)
			require.NoError(t, err)
			defer c.Close()
			want, err := c.CompressBatch(pages)
			require.NoError(t, err)
			const goroutines, rounds = 8, 3
			errs := make(chan error, goroutines*rounds)
			var wg sync.WaitGroup
			for g := range goroutines {
				wg.Go(func() {
					var into BatchResult
					back := make([]Page, len(pages))
					for r := range rounds {
						batch := pages[:1+(g*97+r*31)%len(pages)] // small and large batches mixed
						var got []CompressedPage
						if g%2 == 0 {
							res, err := c.CompressBatch(batch)
							if err != nil {
								errs <- err
								return
							}
							got = res.Pages
						} else {
							if err := c.CompressBatchInto(&into, batch); err != nil {
								errs <- err
								return
							}
							got = into.Pages
						}
						if err := sameBytes(t, batch, got); err != nil {
							errs <- err
							return
						}
						if err := c.DecompressBatch(want.Pages[:len(batch)], back); err != nil {
							errs <- err
							return
						}
						for i := range batch {
							if back[i] != batch[i] {
								errs <- fmt.Errorf("page %d restored wrong", i)
								return
							}
						}
						_ = c.Stats()
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			var compressed uint64 = uint64(len(pages))
			for g := range goroutines {
				for r := range rounds {
					compressed += uint64(1 + (g*97+r*31)%len(pages))
				}
			}
			s := c.Stats()
			assert.Equal(t, compressed, s.PagesCompressed)
			assert.Equal(t, compressed-uint64(len(pages)), s.PagesDecompressed)
			assert.Equal(t, compressed*PageSize, s.TotalBytesIn)
		})
	}
}

// Checks API-20: a DecompressBatch is not held up by a large batch in
// progress on the same Compressor: not by a lock, and where CPUWorkers
// bounds the workers, for no more than the chunk that holds a worker.
func TestDecompressDoesNotWaitForCompress(t *testing.T) {
	pages := loadMixed(t, 400)
	small := compressParallel(pages[:8])
	for _, workers := range []int{0, 1} {
		t.Run(fmt.Sprintf("CPUWorkers=%d", workers), func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.CPUWorkers = workers
			c, err := NewCompressor(cfg)
			require.NoError(t, err)
			defer c.Close()
			// The large batch stops after its first chunk until the
			// small DecompressBatch has returned; the small call's own
			// chunks pass.
			parked, release := make(chan struct{}), make(chan struct{})
			var first atomic.Bool
			afterChunk = func() {
				if first.CompareAndSwap(false, true) {
					close(parked)
					<-release
				}
			}
			defer func() { afterChunk = nil }()
			done := make(chan error)
			go func() {
				_, err := c.CompressBatch(pages)
				done <- err
			}()
			<-parked
			back := make([]Page, len(small))
			require.NoError(t, c.DecompressBatch(small, back), "decompressed while the large batch is parked")
			for i := range back {
				require.Equal(t, pages[i], back[i])
			}
			select {
			case err := <-done:
				t.Fatalf("the large batch ended (%v) before it was released", err)
			default:
			}
			close(release)
			require.NoError(t, <-done)
		})
	}
}

// Checks API-21: CPUWorkers bounds the workers of all of a Compressor's
// concurrent batches together.
func TestCPUWorkersBoundsConcurrentBatches(t *testing.T) {
	pages := loadMixed(t, 256)
	const bound = 2
	l := newCPULimit(bound)
	var active, most atomic.Int32
	encode := func(w *cpuWorker, dst []byte, page *Page) (reference.Kind, int) {
		n := active.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		runtime.Gosched() // let the other workers in while this one is active
		k, size := fastEncode(w, dst, page)
		active.Add(-1)
		return k, size
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			out := make([]CompressedPage, len(pages))
			l.compressCPU(pages, out, nil, encode, len(pages))
			assert.NoError(t, sameBytes(t, pages, out))
		})
	}
	wg.Wait()
	assert.LessOrEqual(t, most.Load(), int32(bound), "workers active at once")
	assert.Positive(t, most.Load())
}

// Checks API-20, API-22: CompressBatchInto's result reused batch after batch
// allocates nothing per page: as many allocations for 4,000 pages as for
// 400, and few.
func TestCompressBatchIntoAllocations(t *testing.T) {
	cfg := DefaultConfig()
	cfg.CPUWorkers = 2
	c, err := NewCompressor(cfg)
	require.NoError(t, err)
	defer c.Close()
	if c.hasGPU() {
		t.Skip("batches of 4,000 pages go to the GPU")
	}
	allocs := map[int]float64{}
	for _, n := range []int{400, 4000} {
		pages := loadMixed(t, n)
		var res BatchResult
		require.NoError(t, c.CompressBatchInto(&res, pages))
		require.NoError(t, c.CompressBatchInto(&res, pages)) // the arena fits from now on
		allocs[n] = testing.AllocsPerRun(5, func() {
			if err := c.CompressBatchInto(&res, pages); err != nil {
				t.Fatal(err)
			}
		})
		require.NoError(t, sameBytes(t, pages, res.Pages))
		first := &res.Pages[0]
		require.NoError(t, c.CompressBatchInto(&res, pages))
		assert.Same(t, first, &res.Pages[0], "%d pages: a batch of the same size reuses the result's pages", n)
	}
	assert.LessOrEqual(t, allocs[4000], allocs[400], "allocations grow with the pages: %v", allocs)
	assert.LessOrEqual(t, allocs[4000], 8.0, "allocations per batch: %v", allocs)
}

// Checks API-22: CompressBatch makes one allocation per chunk of pages for
// the payloads, not one per page, and DecompressBatch a few per batch.
func TestBatchAllocations(t *testing.T) {
	cfg := DefaultConfig()
	cfg.CPUWorkers = 2
	c, err := NewCompressor(cfg)
	require.NoError(t, err)
	defer c.Close()
	pages := loadMixed(t, 900)
	res, err := c.CompressBatchOn(BackendSIMD, pages)
	require.NoError(t, err)
	compress := testing.AllocsPerRun(5, func() {
		if _, err := c.CompressBatchOn(BackendSIMD, pages); err != nil {
			t.Fatal(err)
		}
	})
	assert.LessOrEqual(t, compress, float64(len(pages)/minChunk+12), "CompressBatch allocations")
	back := make([]Page, len(pages))
	decompress := testing.AllocsPerRun(5, func() {
		if err := c.DecompressBatch(res.Pages, back); err != nil {
			t.Fatal(err)
		}
	})
	assert.LessOrEqual(t, decompress, 8.0, "DecompressBatch allocations")
}

// Checks API-22: the workers' chunks cover every page once, for every page
// count and number of workers, and chunkSize stays in its bounds.
func TestForChunksCoversEveryPage(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 16, 64} {
		for _, n := range []int{0, 1, 15, 16, 17, 127, 128, 129, 1000, 100000} {
			seen := make([]atomic.Int32, n)
			used := cpuLimit{workers: workers}.forChunks(n, n, func(lo, hi int) {
				size := chunkSize(n, min(workers, n))
				if hi-lo > size || hi <= lo {
					t.Errorf("n %d workers %d: chunk [%d, %d) of size %d", n, workers, lo, hi, size)
				}
				for i := lo; i < hi; i++ {
					seen[i].Add(1)
				}
			})
			assert.LessOrEqual(t, used, max(1, workers), "n %d", n)
			for i := range seen {
				if seen[i].Load() != 1 {
					t.Fatalf("n %d workers %d: page %d taken %d times", n, workers, i, seen[i].Load())
				}
			}
		}
	}
	for _, c := range []struct{ n, workers, want int }{
		{1, 1, minChunk}, {100000, 16, maxChunk}, {1000, 16, minChunk}, {4000, 4, 128}, {2000, 4, 125},
	} {
		assert.Equal(t, c.want, chunkSize(c.n, c.workers), "chunkSize(%d, %d)", c.n, c.workers)
	}
}

// Checks API-22: a result reused by CompressBatchInto takes batches of other
// sizes and contents, growing as needed, with the reference's bytes, and
// the previous batch of a result still read right until it is reused.
func TestCompressBatchIntoReuse(t *testing.T) {
	c := newTestCompressor(t)
	var res BatchResult
	all := loadMixed(t, 1500)
	text, err := dataset.Load(dataset.Text, 300)
	require.NoError(t, err)
	for _, batch := range [][]Page{all[:10], all, all[:3], text, nil, all[700:]} {
		require.NoError(t, c.CompressBatchInto(&res, batch))
		require.NoError(t, sameBytes(t, batch, res.Pages))
		assert.Equal(t, SelectBackend(len(batch), c.hasGPU()), res.Backend)
		assert.Positive(t, res.TotalTime+1)
	}
}

// Checks API-23: a batch from Go memory is cut into chunks that start at
// 1,024 pages and double up to a staging buffer, cover the batch once, and
// leave no remainder below half a chunk on its own.
func TestStageChunks(t *testing.T) {
	chunks := func(n int) []int {
		var sizes []int
		for lo, k := 0, 0; lo < n; k++ {
			c := stageChunk(n-lo, k)
			sizes = append(sizes, c)
			lo += c
		}
		return sizes
	}
	assert.Equal(t, []int{1000}, chunks(1000))
	assert.Equal(t, []int{1500}, chunks(1500))       // 476 left after 1,024: below half a chunk
	assert.Equal(t, []int{1024, 1000}, chunks(2024)) // 1,000 left: not below half a chunk
	assert.Equal(t, []int{1024, 2048, 4096, 2832}, chunks(10000))
	want := []int{1024, 2048}
	for range 23 {
		want = append(want, 4096)
	}
	assert.Equal(t, append(want, 100000-1024-2048-23*4096), chunks(100000))
	for n := 1; n < 40000; n += 997 {
		total := 0
		for _, c := range chunks(n) {
			assert.LessOrEqual(t, c, stagePages)
			total += c
		}
		assert.Equal(t, n, total)
	}
}
