package fastlz4

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/pierrec/lz4/v4"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/reference"
)

// The page benchmarks run on b.RunParallel, so -cpu sets the number of
// goroutines: -cpu 1 measures one core, -cpu 16 sixteen goroutines. MB/s
// is the total over all goroutines. For example:
//
//	go test ./internal/fastlz4 -run '^$' -bench 'EncodePage|DecodePage' -cpu 1,16

// benchPages is the size of each data set in benchmarks.
const benchPages = 2048

// pageEncoder returns a function that encodes one page into dst
// (PageBound bytes) and returns the stored size; each goroutine gets its own.
type pageEncoder struct {
	name string
	make func() func(dst []byte, page *[PageSize]byte) int
}

func pageEncoders() []pageEncoder {
	return []pageEncoder{
		{"reference", func() func([]byte, *[PageSize]byte) int {
			return func(dst []byte, p *[PageSize]byte) int { _, n := reference.EncodePage(dst, p); return n }
		}},
		{"fastlz4", func() func([]byte, *[PageSize]byte) int {
			e := new(Encoder)
			return func(dst []byte, p *[PageSize]byte) int { _, n := e.EncodePage(dst, p); return n }
		}},
		{"pierrec", func() func([]byte, *[PageSize]byte) int {
			c := new(lz4.Compressor)
			return func(dst []byte, p *[PageSize]byte) int { return PierrecPageSize(c, dst, p) }
		}},
	}
}

// BenchmarkEncodePage compresses pages one at a time; the ratio metric is
// input bytes over stored bytes (RATIO-2's counting).
func BenchmarkEncodePage(b *testing.B) {
	for _, codec := range pageEncoders() {
		for _, name := range dataset.Names() {
			b.Run(fmt.Sprintf("%s/%s", codec.name, name), func(b *testing.B) {
				pages, err := dataset.Load(name, benchPages)
				if err != nil {
					b.Skip(err)
				}
				b.SetBytes(PageSize)
				var stored, count atomic.Int64
				var start atomic.Int64
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					encode := codec.make()
					dst := make([]byte, max(PageBound, lz4.CompressBlockBound(PageSize)))
					i := int(start.Add(benchPages/7)) % len(pages)
					sum, n := 0, 0
					for pb.Next() {
						sum += encode(dst, &pages[i])
						n++
						if i++; i == len(pages) {
							i = 0
						}
					}
					stored.Add(int64(sum))
					count.Add(int64(n))
				})
				b.ReportMetric(float64(count.Load())*PageSize/float64(stored.Load()), "ratio")
			})
		}
	}
}

// BenchmarkDecodePage decodes pages: reference and fastlz4 decode the
// canonical payloads, pierrec decodes its own blocks.
func BenchmarkDecodePage(b *testing.B) {
	for _, codec := range []string{"reference", "fastlz4", "pierrec"} {
		for _, name := range dataset.Names() {
			b.Run(fmt.Sprintf("%s/%s", codec, name), func(b *testing.B) {
				pages, err := dataset.Load(name, benchPages)
				if err != nil {
					b.Skip(err)
				}
				type payload struct {
					kind Kind
					data []byte
				}
				payloads := make([]payload, len(pages))
				var c lz4.Compressor
				for i := range pages {
					dst := make([]byte, lz4.CompressBlockBound(PageSize))
					if codec != "pierrec" {
						k, n := EncodePage(dst, &pages[i])
						payloads[i] = payload{k, dst[:n]}
						continue
					}
					switch n, _ := c.CompressBlock(pages[i][:], dst); {
					case IsSameFilled(&pages[i]):
						payloads[i] = payload{KindSame, pages[i][:8]}
					case n == 0:
						payloads[i] = payload{KindRaw, pages[i][:]}
					default:
						payloads[i] = payload{KindLZ4, dst[:n]}
					}
				}
				decode := map[string]func(*[PageSize]byte, payload) error{
					"reference": func(d *[PageSize]byte, p payload) error { return reference.DecodePage(d, p.kind, p.data) },
					"fastlz4":   func(d *[PageSize]byte, p payload) error { return DecodePage(d, p.kind, p.data) },
					"pierrec": func(d *[PageSize]byte, p payload) error {
						if p.kind == KindLZ4 {
							_, err := lz4.UncompressBlock(p.data, d[:])
							return err
						}
						return DecodePage(d, p.kind, p.data) // same-filled and raw pages as lz4warp stores them
					},
				}[codec]
				b.SetBytes(PageSize)
				var start atomic.Int64
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					var page [PageSize]byte
					i := int(start.Add(benchPages/7)) % len(pages)
					for pb.Next() {
						if err := decode(&page, payloads[i]); err != nil {
							b.Error(err)
							return
						}
						if i++; i == len(pages) {
							i = 0
						}
					}
				})
			})
		}
	}
}
