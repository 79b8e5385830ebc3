package fastlz4

import (
	"fmt"
	"testing"

	"github.com/pierrec/lz4/v4"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/reference"
)

// benchPages is the size of each data set in benchmarks.
const benchPages = 2048

// pageCodec encodes one page into dst (PageBound bytes) and returns the
// stored size.
type pageCodec struct {
	name   string
	encode func() func(dst []byte, page *[PageSize]byte) int
}

func pageCodecs() []pageCodec {
	return []pageCodec{
		{"reference", func() func([]byte, *[PageSize]byte) int {
			return func(dst []byte, p *[PageSize]byte) int { _, n := reference.EncodePage(dst, p); return n }
		}},
		{"fastlz4", func() func([]byte, *[PageSize]byte) int {
			var e Encoder
			return func(dst []byte, p *[PageSize]byte) int { _, n := e.EncodePage(dst, p); return n }
		}},
		{"pierrec", func() func([]byte, *[PageSize]byte) int {
			var c lz4.Compressor
			return func(dst []byte, p *[PageSize]byte) int { return PierrecPageSize(&c, dst, p) }
		}},
	}
}

// BenchmarkEncodePage compresses pages one at a time on one goroutine; the
// ratio metric is input bytes over stored bytes.
func BenchmarkEncodePage(b *testing.B) {
	for _, codec := range pageCodecs() {
		for _, name := range dataset.Names() {
			b.Run(fmt.Sprintf("%s/%s", codec.name, name), func(b *testing.B) {
				pages, err := dataset.Load(name, benchPages)
				if err != nil {
					b.Skip(err)
				}
				encode := codec.encode()
				dst := make([]byte, max(PageBound, lz4.CompressBlockBound(PageSize)))
				b.SetBytes(PageSize)
				stored, i := 0, 0
				b.ResetTimer()
				for range b.N {
					stored += encode(dst, &pages[i])
					if i++; i == len(pages) {
						i = 0
					}
				}
				b.ReportMetric(float64(b.N)*PageSize/float64(stored), "ratio")
			})
		}
	}
}

// BenchmarkDecodePage decodes pages encoded in the canonical form, except
// for pierrec, which decodes its own blocks.
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
					if codec == "pierrec" {
						n, _ := c.CompressBlock(pages[i][:], dst)
						if n == 0 {
							payloads[i] = payload{KindRaw, pages[i][:]}
						} else {
							payloads[i] = payload{KindLZ4, dst[:n]}
						}
						continue
					}
					k, n := EncodePage(dst, &pages[i])
					payloads[i] = payload{k, dst[:n]}
				}
				var page [PageSize]byte
				b.SetBytes(PageSize)
				b.ResetTimer()
				i := 0
				for range b.N {
					p := payloads[i]
					var err error
					switch codec {
					case "reference":
						err = reference.DecodePage(&page, p.kind, p.data)
					case "fastlz4":
						err = DecodePage(&page, p.kind, p.data)
					case "pierrec":
						if p.kind == KindRaw {
							copy(page[:], p.data)
						} else {
							_, err = lz4.UncompressBlock(p.data, page[:])
						}
					}
					if err != nil {
						b.Fatal(err)
					}
					if i++; i == len(pages) {
						i = 0
					}
				}
			})
		}
	}
}
