// Package conformance generates pages of every shape a page codec meets and
// checks any backend's output against the reference codec byte for byte
// (PARSE-8, API-16), and against an independent LZ4 decoder.
//
// The generators are ordinary code, not tests, so that every runner (the
// CPU backends in go test, the GPU on its device) draws from the same
// pages; the package depends on the reference alone, so that the tests of
// any package, gpuimpl's included, can import it. A page is described by a
// Spec, a small value that rapid can draw and shrink; Spec.Page expands it
// deterministically.
//
// A runner checks a backend in two ways: rapid properties over Batch or
// AnySpec, and bulk runs over Corpus, batch by batch:
//
//	var tally conformance.Tally
//	specs := conformance.Corpus(1<<20, seed) // specs are small; pages are made per batch
//	for lo := 0; lo < len(specs); lo += batch {
//		tally.Add(conformance.CheckSpecs(compress, specs[lo:min(lo+batch, len(specs))]))
//	}
//	fmt.Println(tally.String()) // conformance: pages checked 1048576, mismatches 0
package conformance

import (
	"encoding/binary"
	"fmt"

	"github.com/lz4warp/lz4warp/reference"
	"pgregory.net/rapid"
)

// Page is one uncompressed page.
type Page = [reference.PageSize]byte

const pageSize = reference.PageSize

// Shape is a family of generated pages.
type Shape uint8

// The shapes. Each comment says what A and B of a Spec mean for it.
const (
	Zero         Shape = iota // the all-zero page
	SameFilled                // one 8-byte word (the seed) repeated: KindSame
	AlmostSame                // a repeated word with word A (0..511) changed: never KindSame
	Text                      // words from a vocabulary of A (2..64) words
	Repetitive                // a random chunk of period A (1..4095) repeated, B (0..64) random bytes edited
	Random                    // incompressible bytes: KindRaw
	Sparse                    // zeros with A (1..256) random bytes scattered
	Structured                // memory-like records of A (8..64) bytes: counters, pointers, zeros
	Mixed                     // A (2..32) segments of the other shapes
	NearRaw                   // A (2,900..3,120) random bytes, then a compressible tail: blocks around 3,072 bytes
	TailMatch                 // random bytes at both ends, zeros between, a short match at A (n-24..n-1) of B (4..24) bytes
	LongLiterals              // A (0..4,096) random bytes then zeros: literal runs of every length
	numShapes
)

var shapeNames = [numShapes]string{"zero", "same-filled", "almost-same", "text", "repetitive", "random",
	"sparse", "structured", "mixed", "near-raw", "tail-match", "long-literals"}

func (s Shape) String() string {
	if s < numShapes {
		return shapeNames[s]
	}
	return fmt.Sprintf("Shape(%d)", uint8(s))
}

// Shapes lists every shape.
func Shapes() []Shape {
	out := make([]Shape, numShapes)
	for i := range out {
		out[i] = Shape(i)
	}
	return out
}

// paramRange is the range of A and B for each shape.
var paramRange = [numShapes]struct{ aMin, aMax, bMin, bMax int }{
	Zero:         {},
	SameFilled:   {},
	AlmostSame:   {0, 511, 0, 0},
	Text:         {2, 64, 0, 0},
	Repetitive:   {1, pageSize - 1, 0, 64},
	Random:       {},
	Sparse:       {1, 256, 0, 0},
	Structured:   {8, 64, 0, 0},
	Mixed:        {2, 32, 0, 0},
	NearRaw:      {2900, 3120, 0, 0},
	TailMatch:    {pageSize - 24, pageSize - 1, 4, 24},
	LongLiterals: {0, pageSize, 0, 0},
}

// Spec describes one generated page.
type Spec struct {
	Shape Shape
	Seed  uint64 // drives every random choice; for SameFilled, the word
	A, B  int    // shape parameters (see the Shape constants)
}

func (s Spec) String() string {
	return fmt.Sprintf("%s(seed %#x, A %d, B %d)", s.Shape, s.Seed, s.A, s.B)
}

// SpecOf draws specs of one shape.
func SpecOf(shape Shape) *rapid.Generator[Spec] {
	r := paramRange[shape]
	return rapid.Custom(func(t *rapid.T) Spec {
		return Spec{
			Shape: shape,
			Seed:  rapid.Uint64().Draw(t, "seed"),
			A:     rapid.IntRange(r.aMin, r.aMax).Draw(t, "A"),
			B:     rapid.IntRange(r.bMin, r.bMax).Draw(t, "B"),
		}
	})
}

// AnySpec draws specs of every shape.
func AnySpec() *rapid.Generator[Spec] {
	gens := make([]*rapid.Generator[Spec], numShapes)
	for i := range gens {
		gens[i] = SpecOf(Shape(i))
	}
	return rapid.OneOf(gens...)
}

// PageOf draws pages of one shape.
func PageOf(shape Shape) *rapid.Generator[Page] { return rapid.Map(SpecOf(shape), Spec.Page) }

// AnyPage draws pages of every shape.
func AnyPage() *rapid.Generator[Page] { return rapid.Map(AnySpec(), Spec.Page) }

// Batch draws between minPages and maxPages specs of any shape.
func Batch(minPages, maxPages int) *rapid.Generator[[]Spec] {
	return rapid.SliceOfN(AnySpec(), minPages, maxPages)
}

// Pages expands specs into pages.
func Pages(specs []Spec) []Page {
	pages := make([]Page, len(specs))
	parallel(len(specs), func(i int) { specs[i].Fill(&pages[i]) })
	return pages
}

// Corpus returns n specs that cycle through every shape with parameters
// drawn from seed: the bulk input of device runs, where drawing each page
// through rapid would cost more than checking it.
func Corpus(n int, seed uint64) []Spec {
	r := newRNG(seed)
	specs := make([]Spec, n)
	for i := range specs {
		shape := Shape(i % int(numShapes))
		pr := paramRange[shape]
		specs[i] = Spec{Shape: shape, Seed: r.next(), A: r.between(pr.aMin, pr.aMax), B: r.between(pr.bMin, pr.bMax)}
	}
	return specs
}

// Page returns the page s describes.
func (s Spec) Page() Page {
	var p Page
	s.Fill(&p)
	return p
}

// Fill writes the page s describes into p.
func (s Spec) Fill(p *Page) {
	clear(p[:])
	r := newRNG(s.Seed)
	switch s.Shape {
	case Zero:
	case SameFilled:
		fillWord(p[:], s.Seed)
	case AlmostSame:
		fillWord(p[:], r.next())
		w := binary.LittleEndian.Uint64(p[:])
		binary.LittleEndian.PutUint64(p[8*clampInt(s.A, 0, 511):], w^(r.next()|1))
	case Text:
		fillText(p[:], r, clampInt(s.A, 2, len(vocabulary)))
	case Repetitive:
		period := clampInt(s.A, 1, pageSize-1)
		r.fill(p[:period])
		for i := period; i < pageSize; i++ {
			p[i] = p[i-period]
		}
		for range clampInt(s.B, 0, pageSize) {
			p[r.intn(pageSize)] = byte(r.next())
		}
	case Random:
		r.fill(p[:])
	case Sparse:
		for range clampInt(s.A, 0, pageSize) {
			p[r.intn(pageSize)] = byte(r.next() | 1)
		}
	case Structured:
		fillRecords(p[:], r, clampInt(s.A, 8, 64))
	case Mixed:
		fillMixed(p[:], r, clampInt(s.A, 1, 64))
	case NearRaw:
		k := clampInt(s.A, 0, pageSize)
		r.fill(p[:k])
		// A compressible tail: a short random motif repeated.
		motif := 1 + r.intn(16)
		r.fill(p[k:min(k+motif, pageSize)])
		for i := k + motif; i < pageSize; i++ {
			p[i] = p[i-motif]
		}
	case TailMatch:
		r.fill(p[:])
		// Zeros between the random ends keep the block under PAGE-5's
		// threshold: it is stored, with the match near its end.
		clear(p[1024 : pageSize-1024])
		start := clampInt(s.A, 1, pageSize-1)
		length := clampInt(s.B, 1, 64)
		// Copy from an earlier position: usually far back, sometimes
		// overlapping (offset 1 to 3), as runs make.
		from := r.intn(start)
		if r.intn(4) == 0 {
			from = max(0, start-1-r.intn(3))
		}
		for i := 0; i < length && start+i < pageSize; i++ {
			p[start+i] = p[from+i]
		}
	case LongLiterals:
		r.fill(p[:clampInt(s.A, 0, pageSize)])
	default:
		panic(fmt.Sprintf("conformance: unknown shape %d", s.Shape))
	}
}

func clampInt(v, lo, hi int) int { return max(lo, min(v, hi)) }

func fillWord(b []byte, w uint64) {
	for i := 0; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], w)
	}
}

var vocabulary = []string{
	"the", "page", "of", "memory", "is", "compressed", "when", "it", "holds", "text", "and", "a",
	"kernel", "warp", "lane", "hash", "table", "match", "offset", "literal", "token", "block", "frame", "zram",
	"func", "return", "err", "nil", "if", "for", "range", "struct", "int", "byte", "uint64", "package",
	"{", "}", "(", ")", "=", ":=", "//", "\t", "0", "1", "42", "4096", "GPU", "CPU", "LZ4", "Go",
	"swap", "anonymous", "mapping", "heap", "stack", "thread", "process", "signal", "file", "cache",
}

func fillText(b []byte, r *rng, words int) {
	for i := 0; i < len(b); {
		w := vocabulary[r.intn(words)]
		i += copy(b[i:], w)
		if i < len(b) {
			sep := byte(' ')
			if r.intn(12) == 0 {
				sep = '\n'
			}
			b[i] = sep
			i++
		}
	}
}

// fillRecords writes records as a heap holds them: an incrementing
// counter, a pointer into a small region, a small integer, zero padding.
func fillRecords(b []byte, r *rng, size int) {
	counter := r.next() & 0xffff
	base := 0x00007f0000000000 | r.next()&0x000000ffffff0000
	for i := 0; i+size <= len(b); i += size {
		rec := b[i : i+size]
		binary.LittleEndian.PutUint32(rec, uint32(counter))
		counter++
		if size >= 16 {
			binary.LittleEndian.PutUint64(rec[8:], base+uint64(r.intn(256))*16)
		}
		if size >= 24 {
			binary.LittleEndian.PutUint32(rec[16:], uint32(r.intn(100)))
		}
	}
}

// fillMixed writes segments of other shapes, with lengths from 1 byte to
// the whole page, so that long and short matches and literal runs meet.
func fillMixed(b []byte, r *rng, segments int) {
	var tmp Page
	for i := 0; i < len(b); {
		n := min(len(b)-i, 1+r.intn(2*len(b)/segments))
		shape := Shape(r.intn(int(Mixed))) // the shapes before Mixed
		pr := paramRange[shape]
		Spec{Shape: shape, Seed: r.next(), A: r.between(pr.aMin, pr.aMax), B: r.between(pr.bMin, pr.bMax)}.Fill(&tmp)
		off := r.intn(pageSize - n + 1)
		copy(b[i:i+n], tmp[off:off+n])
		i += n
		// Now and then repeat an earlier stretch: matches across segments.
		if i < len(b) && r.intn(3) == 0 {
			src := r.intn(i)
			m := min(len(b)-i, 4+r.intn(64), i-src)
			copy(b[i:i+m], b[src:src+m])
			i += m
		}
	}
}

// rng is splitmix64: tiny, and its stream is fixed forever, so a Spec
// names the same page in every Go release.
type rng struct{ s uint64 }

func newRNG(seed uint64) *rng { return &rng{s: seed} }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// intn returns a number in [0, n) for n > 0.
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

func (r *rng) fill(b []byte) {
	for i := 0; i < len(b); i += 8 {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], r.next())
		copy(b[i:], w[:])
	}
}
