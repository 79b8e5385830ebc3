package fastlz4

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pierrec/lz4/v4"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/liblz4"
	"github.com/lz4warp/lz4warp/reference"
)

// benchSets are the data sets of the encode benchmarks: those of package
// dataset, then the corpora of LZ4WARP_CORPUS (make corpus) where it is set.
func benchSets() []string {
	names, _ := dataset.Corpora()
	return append(dataset.Names(), names...)
}

// loadBenchPages loads benchPages pages of a set of benchSets.
func loadBenchPages(name string) ([]dataset.Page, error) { return dataset.Load(name, benchPages) }

// The page benchmarks run on b.RunParallel, so -cpu sets the number of
// goroutines: -cpu 1 measures one core, -cpu 16 sixteen goroutines. MB/s
// is the total over all goroutines (wall clock); cpuMB/s is the bytes over
// the CPU time the goroutines' threads used, that is per busy core, which
// stays meaningful when other work shares the machine. For example:
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
		// liblz4's LZ4_compress_default (what `lz4 -1` runs) in lz4warp's
		// page format (RATIO-2); nil where liblz4.so.1 is missing.
		{"liblz4", func() func([]byte, *[PageSize]byte) int {
			lib, err := liblz4.Load()
			if err != nil {
				return nil
			}
			return func(dst []byte, p *[PageSize]byte) int { return lib.PageSize(dst, p, IsSameFilled(p), RawThreshold) }
		}},
		// pierrec's CompressBlock alone, as a caller without lz4warp's page
		// format would run it: a same-filled page is compressed too, and an
		// incompressible one (0 from CompressBlock) counts 4,096 bytes.
		{"pierrec-block", func() func([]byte, *[PageSize]byte) int {
			c := new(lz4.Compressor)
			return func(dst []byte, p *[PageSize]byte) int {
				if n, err := c.CompressBlock(p[:], dst); err == nil && n > 0 {
					return n
				}
				return PageSize
			}
		}},
	}
}

// BenchmarkEncodePage compresses pages one at a time; the ratio metric is
// input bytes over stored bytes (RATIO-2's counting).
func BenchmarkEncodePage(b *testing.B) {
	for _, codec := range pageEncoders() {
		for _, name := range benchSets() {
			b.Run(fmt.Sprintf("%s/%s", codec.name, name), func(b *testing.B) {
				if codec.make() == nil {
					b.Skip(liblz4.Require(b))
				}
				pages, err := loadBenchPages(name)
				if err != nil {
					b.Skip(err)
				}
				b.SetBytes(PageSize)
				var stored, count atomic.Int64
				var start atomic.Int64
				b.ResetTimer()
				var cpu cpuClock
				b.RunParallel(func(pb *testing.PB) {
					defer cpu.start()()
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
				cpu.report(b, count.Load())
			})
		}
	}
}

// BenchmarkEncodePagePair encodes the same pages with fastlz4 and pierrec
// in turns of 64 pages, alternating which goes first, on one goroutine, so
// that both meet the same load from other work on a shared machine (the
// two columns of BenchmarkEncodePage come from runs seconds apart). It
// reports each codec's ns/page and x-pierrec, pierrec's total time over
// fastlz4's: above 1, fastlz4 encodes faster. pierrec runs inside lz4warp's
// page format (RATIO-2) in <set>, and as its CompressBlock alone in
// block/<set>, where it compresses same-filled pages as any others. For
// example:
//
//	go test ./internal/fastlz4 -run '^$' -bench EncodePagePair -count 5
//
// liblz4/<set> does the same against liblz4's LZ4_compress_default in the
// page format (x-liblz4: liblz4's time over fastlz4's; the cgo call adds
// some 50 ns to liblz4's micro-seconds a page).
func BenchmarkEncodePagePair(b *testing.B) {
	for _, rival := range []string{"pierrec", "pierrec-block", "liblz4"} {
		for _, name := range benchSets() {
			sub := name
			if rival != "pierrec" {
				sub = strings.TrimPrefix(rival, "pierrec-") + "/" + name
			}
			b.Run(sub, func(b *testing.B) {
				encoders := map[string]func([]byte, *[PageSize]byte) int{}
				for _, codec := range pageEncoders() {
					encoders[codec.name] = codec.make()
				}
				if encoders[rival] == nil {
					b.Skip(liblz4.Require(b))
				}
				pages, err := loadBenchPages(name)
				if err != nil {
					b.Skip(err)
				}
				metric := strings.TrimSuffix(rival, "-block") // pierrec-block's metrics are pierrec's
				encoders[metric] = encoders[rival]
				dst := make([]byte, max(PageBound, lz4.CompressBlockBound(PageSize)))
				inTurnsWith(b, metric, len(pages), func(codec string, lo, hi int) time.Duration {
					encode := encoders[codec]
					start := time.Now()
					for i := range pages[lo:hi] {
						encode(dst, &pages[lo+i])
					}
					return time.Since(start)
				})
			})
		}
	}
}

// payload is a stored page: its kind and its data.
type payload struct {
	kind Kind
	data []byte
}

// decodePayloads stores pages as codec does: reference and fastlz4 with
// the canonical parse, pierrec with its own blocks inside the same page
// format (RATIO-2).
func decodePayloads(codec string, pages []dataset.Page) []payload {
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
	// One buffer for all, in page order, as a batch stores them: where
	// each payload lies must not favour either codec.
	var all []byte
	for _, p := range payloads {
		all = append(all, p.data...)
	}
	for i := range payloads {
		n := len(payloads[i].data)
		payloads[i].data, all = all[:n:n], all[n:]
	}
	return payloads
}

// pageDecoders decodes a payload with each codec.
var pageDecoders = map[string]func(*[PageSize]byte, payload) error{
	"reference": func(d *[PageSize]byte, p payload) error { return reference.DecodePage(d, p.kind, p.data) },
	"fastlz4":   func(d *[PageSize]byte, p payload) error { return DecodePage(d, p.kind, p.data) },
	"pierrec": func(d *[PageSize]byte, p payload) error {
		if p.kind == KindLZ4 {
			_, err := lz4.UncompressBlock(p.data, d[:])
			return err
		}
		return DecodePage(d, p.kind, p.data) // same-filled and raw pages as lz4warp stores them
	},
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
				payloads := decodePayloads(codec, pages)
				decode := pageDecoders[codec]
				b.SetBytes(PageSize)
				var start atomic.Int64
				b.ResetTimer()
				var cpu cpuClock
				var count atomic.Int64
				b.RunParallel(func(pb *testing.PB) {
					defer cpu.start()()
					var page [PageSize]byte
					n := 0
					defer func() { count.Add(int64(n)) }()
					i := int(start.Add(benchPages/7)) % len(pages)
					for pb.Next() {
						n++
						if err := decode(&page, payloads[i]); err != nil {
							b.Error(err)
							return
						}
						if i++; i == len(pages) {
							i = 0
						}
					}
				})
				cpu.report(b, count.Load())
			})
		}
	}
}

// BenchmarkDecodePagePair decodes the same pages with fastlz4 and pierrec
// in turns of 64 pages, alternating which goes first, on one goroutine, so
// that both meet the same load from other work on a shared machine (the
// figures of BenchmarkDecodePage come from runs seconds apart, and the
// live-memory core-dump set differs between them). It reports each
// codec's ns/page and x-pierrec, pierrec's total time over fastlz4's:
// above 1, fastlz4 decodes faster. The canonical sub-benchmarks give
// fastlz4 the canonical payloads, as BenchmarkDecodePage does; the
// pierrec-blocks ones give both decoders pierrec's, to compare the
// decoders alone. For example:
//
//	go test ./internal/fastlz4 -run '^$' -bench DecodePagePair/canonical -count 5
func BenchmarkDecodePagePair(b *testing.B) {
	for _, blocks := range []string{"canonical", "pierrec-blocks"} {
		for _, name := range dataset.Names() {
			b.Run(blocks+"/"+name, func(b *testing.B) {
				pages, err := dataset.Load(name, benchPages)
				if err != nil {
					b.Skip(err)
				}
				theirs := decodePayloads("pierrec", pages)
				ours := theirs
				if blocks == "canonical" {
					ours = decodePayloads("fastlz4", pages)
				}
				decodePair(b, ours, theirs)
			})
		}
	}
}

// decodePair is BenchmarkDecodePagePair on one set of pages: ours for
// fastlz4, theirs for pierrec.
func decodePair(b *testing.B, ours, theirs []payload) {
	var page [PageSize]byte
	inTurns(b, len(ours), func(codec string, lo, hi int) time.Duration {
		decode, payloads := pageDecoders[codec], ours[lo:hi]
		if codec == "pierrec" {
			payloads = theirs[lo:hi]
		}
		start := time.Now()
		for _, p := range payloads {
			if err := decode(&page, p); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start)
	})
}

// inTurns runs fastlz4 and pierrec on the same turn of 64 of n pages in
// each iteration, alternating which goes first, where run(codec, lo, hi)
// times codec on pages lo to hi, and reports each codec's ns/page and
// x-pierrec, pierrec's total time over fastlz4's.
func inTurns(b *testing.B, n int, run func(codec string, lo, hi int) time.Duration) {
	inTurnsWith(b, "pierrec", n, run)
}

// inTurnsWith is inTurns against the codec named rival, whose metrics take
// its name (x-<rival>). It also reports x-<rival>-fastest: the same ratio
// over each turn's fastest pass of each codec (the sums, over the turns
// met, of the least time each took on that turn), which other jobs on a
// shared machine disturb far less than the totals, as long as b.N passes
// over each turn several times (b.N of 4*n/64 or more); and each codec's
// fastest-ns/page, those sums per page.
func inTurnsWith(b *testing.B, rival string, n int, run func(codec string, lo, hi int) time.Duration) {
	const turn = 64
	b.SetBytes(2 * turn * PageSize)
	var fast, slow time.Duration
	fastest := map[int][2]time.Duration{} // turn's first page: least fastlz4, rival
	i := 0
	for it := 0; it < b.N; it++ {
		if i+turn > n {
			i = 0
		}
		var f, p time.Duration
		if it%2 == 0 {
			f, p = run("fastlz4", i, i+turn), run(rival, i, i+turn)
		} else {
			p, f = run(rival, i, i+turn), run("fastlz4", i, i+turn)
		}
		fast, slow = fast+f, slow+p
		if least, ok := fastest[i]; !ok {
			fastest[i] = [2]time.Duration{f, p}
		} else {
			fastest[i] = [2]time.Duration{min(least[0], f), min(least[1], p)}
		}
		i += turn
	}
	var leastFast, leastSlow time.Duration
	for _, least := range fastest {
		leastFast, leastSlow = leastFast+least[0], leastSlow+least[1]
	}
	b.ReportMetric(float64(fast.Nanoseconds())/float64(b.N*turn), "fastlz4-ns/page")
	b.ReportMetric(float64(slow.Nanoseconds())/float64(b.N*turn), rival+"-ns/page")
	b.ReportMetric(float64(slow)/float64(max(fast, 1)), "x-"+rival)
	b.ReportMetric(float64(leastFast.Nanoseconds())/float64(len(fastest)*turn), "fastlz4-fastest-ns/page")
	b.ReportMetric(float64(leastSlow.Nanoseconds())/float64(len(fastest)*turn), rival+"-fastest-ns/page")
	b.ReportMetric(float64(leastSlow)/float64(max(leastFast, 1)), "x-"+rival+"-fastest")
}

// BenchmarkFillPage restores a same-filled page from its word, zero and
// another, with fillPage (AVX2 where there is) and with the portable fill.
func BenchmarkFillPage(b *testing.B) {
	var page [PageSize]byte
	for _, word := range []uint64{0, 0x0807060504030201} {
		for name, fill := range map[string]func(*[PageSize]byte, uint64){"fillPage": fillPage, "fillPageGo": fillPageGo} {
			b.Run(fmt.Sprintf("%s/%#x", name, word), func(b *testing.B) {
				b.SetBytes(PageSize)
				for range b.N {
					fill(&page, word)
				}
			})
		}
	}
}

// cpuClock adds up the CPU time of the threads that run a parallel
// benchmark's goroutines.
type cpuClock struct {
	total atomic.Int64
	ok    atomic.Bool
}

// start locks the goroutine to its thread and returns the function that
// adds the thread's CPU time since then.
func (c *cpuClock) start() func() {
	runtime.LockOSThread()
	t0, ok := threadCPU()
	return func() {
		t1, ok1 := threadCPU()
		runtime.UnlockOSThread()
		if ok && ok1 {
			c.total.Add(int64(t1 - t0))
			c.ok.Store(true)
		}
	}
}

// report adds the cpuMB/s metric for pages pages.
func (c *cpuClock) report(b *testing.B, pages int64) {
	if c.ok.Load() && c.total.Load() > 0 {
		b.ReportMetric(float64(pages)*PageSize/1e6/time.Duration(c.total.Load()).Seconds(), "cpuMB/s")
	}
}
