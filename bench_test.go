package lz4warp

import (
	"flag"
	"fmt"
	"sync"
	"testing"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/internal/intlist"
	"github.com/lz4warp/lz4warp/reference"
)

// The batch benchmarks: BenchmarkCompressBatch/<backend>/<dataset>/<batch>
// and BenchmarkDecompressBatch/<backend>/<dataset>/<batch>, with b.SetBytes
// of the batch's input (pages × 4,096). For example:
//
//	go test -run '^$' -bench 'Batch/simd/text/1000$' .
//	go test -run '^$' -bench Batch -batches 1,100 .

var batchesFlag = flag.String("batches", "1,100,1000,10000", "comma-separated batch sizes of the batch benchmarks")

// benchBackend is one backend of the batch benchmarks. compress and
// decompress run one batch; decompress may be nil (no such path).
type benchBackend struct {
	name       string
	compress   func(b *testing.B, pages []Page) []CompressedPage
	decompress func(b *testing.B, pages []CompressedPage, dst []Page)
}

// extraBenchBackends is extended by build-tagged test files: a cuda build
// appends the GPU backend from an init function in a _cuda_test.go file.
var extraBenchBackends []benchBackend

// backends lists the backends the batch benchmarks run.
func backends() []benchBackend {
	cpuDecompress := func(b *testing.B, pages []CompressedPage, dst []Page) {
		if err := decompressParallel(pages, dst); err != nil {
			b.Fatal(err)
		}
	}
	return append([]benchBackend{
		{
			name:     "scalar",
			compress: func(_ *testing.B, pages []Page) []CompressedPage { return compressScalar(pages) },
			decompress: func(b *testing.B, pages []CompressedPage, dst []Page) {
				for i := range pages {
					if err := fastlz4.DecodePage(&dst[i], reference.Kind(pages[i].Kind), pages[i].Data); err != nil {
						b.Fatal(err)
					}
				}
			},
		},
		{
			name:       "simd",
			compress:   func(_ *testing.B, pages []Page) []CompressedPage { return compressParallel(pages) },
			decompress: cpuDecompress,
		},
	}, extraBenchBackends...)
}

// batchSizes parses -batches.
func batchSizes(b *testing.B) []int {
	sizes, err := intlist.Parse(*batchesFlag)
	if err != nil {
		b.Fatalf("-batches: %v", err)
	}
	return sizes
}

// benchPages loads a batch of a data set, keeping the last one loaded: b.Run
// calls a benchmark function several times while it sizes b.N.
var benchPages = struct {
	sync.Mutex
	key   string
	pages []Page
}{}

func loadBatch(b *testing.B, name string, n int) []Page {
	benchPages.Lock()
	defer benchPages.Unlock()
	key := fmt.Sprintf("%s/%d", name, n)
	if benchPages.key != key {
		pages, err := dataset.Load(name, n)
		if err != nil {
			b.Skip(err)
		}
		benchPages.key, benchPages.pages = key, pages
	}
	return benchPages.pages
}

func BenchmarkCompressBatch(b *testing.B) {
	for _, be := range backends() {
		for _, name := range dataset.Names() {
			for _, size := range batchSizes(b) {
				b.Run(fmt.Sprintf("%s/%s/%d", be.name, name, size), func(b *testing.B) {
					pages := loadBatch(b, name, size)
					b.SetBytes(int64(len(pages)) * PageSize)
					b.ReportAllocs()
					var out []CompressedPage
					for b.Loop() {
						out = be.compress(b, pages)
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

func BenchmarkDecompressBatch(b *testing.B) {
	for _, be := range backends() {
		if be.decompress == nil {
			continue
		}
		for _, name := range dataset.Names() {
			for _, size := range batchSizes(b) {
				b.Run(fmt.Sprintf("%s/%s/%d", be.name, name, size), func(b *testing.B) {
					pages := loadBatch(b, name, size)
					compressed := compressParallel(pages)
					dst := make([]Page, len(pages))
					b.SetBytes(int64(len(pages)) * PageSize)
					b.ReportAllocs()
					for b.Loop() {
						be.decompress(b, compressed, dst)
					}
					for i := range dst {
						if dst[i] != pages[i] {
							b.Fatalf("page %d decoded wrong", i)
						}
					}
				})
			}
		}
	}
}

// tiledBatch is exactly n pages of a data set, the set's pages repeated
// when it holds fewer (text and binaries are as large as the files found).
func tiledBatch(b *testing.B, name string, n int) []Page {
	pages := loadBatch(b, name, n)
	if len(pages) == n {
		return pages
	}
	out := make([]Page, n)
	for i := range out {
		out[i] = pages[i%len(pages)]
	}
	return out
}
