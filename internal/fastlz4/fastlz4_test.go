package fastlz4

import (
	"bytes"
	"errors"
	"testing"

	"github.com/pierrec/lz4/v4"
	"pgregory.net/rapid"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/reference"
)

// testPages caps every data set in tests; benchmarks use more.
const testPages = 256

// fataler is what both *testing.T and *rapid.T offer.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// encodeBoth encodes page with both codecs and fails on any difference.
func encodeBoth(t fataler, what string, page *[PageSize]byte) (Kind, []byte) {
	t.Helper()
	var want, got [PageBound]byte
	wk, wn := reference.EncodePage(want[:], page)
	gk, gn := EncodePage(got[:], page)
	if gk != wk || !bytes.Equal(got[:gn], want[:wn]) {
		t.Fatalf("%s: fastlz4 gives %v of %d bytes, reference %v of %d bytes", what, gk, gn, wk, wn)
	}
	return gk, got[:gn]
}

// Checks PARSE-1, PARSE-2, PARSE-3, PARSE-4, PARSE-5, PARSE-6, PARSE-7,
// PARSE-8, PAGE-3, PAGE-5: every page of every data set has the reference's
// kind and payload, and decodes back with both decoders.
func TestEncodePageMatchesReferenceOnDatasets(t *testing.T) {
	for _, name := range dataset.Names() {
		pages, err := dataset.Load(name, testPages)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		kinds := map[Kind]int{}
		for i := range pages {
			kind, data := encodeBoth(t, name, &pages[i])
			kinds[kind]++
			var back [PageSize]byte
			if err := DecodePage(&back, kind, data); err != nil || back != pages[i] {
				t.Fatalf("%s page %d: round trip: %v", name, i, err)
			}
		}
		t.Logf("%s: %d pages, kinds %v", name, len(pages), kinds)
	}
}

// pageGen draws pages of every shape the codec meets: zeros, same-filled
// words, text, structured binary, noise, and mixes with long and short
// matches.
func pageGen() *rapid.Generator[[PageSize]byte] {
	return rapid.Custom(func(t *rapid.T) [PageSize]byte {
		var p [PageSize]byte
		fillRandom(t, p[:])
		return p
	})
}

var words = []string{"page", "the", "memory", " ", "\n", "func ", "return ", "lz4", "warp", "{", "}", "0x", "compress"}

// fillRandom fills b with pieces of random kinds.
func fillRandom(t *rapid.T, b []byte) {
	clear(b)
	for pos := 0; pos < len(b); {
		n := min(len(b)-pos, rapid.IntRange(1, 1200).Draw(t, "piece"))
		piece := b[pos : pos+n]
		switch rapid.IntRange(0, 6).Draw(t, "kind") {
		case 0: // zeros
		case 1: // a repeated word of 1 to 8 bytes
			w := rapid.SliceOfN(rapid.Byte(), 1, 8).Draw(t, "word")
			for i := range piece {
				piece[i] = w[i%len(w)]
			}
		case 2: // text
			for i := 0; i < n; {
				i += copy(piece[i:], words[rapid.IntRange(0, len(words)-1).Draw(t, "w")])
			}
		case 3: // 32-bit counters
			step := rapid.Uint32Range(1, 1000).Draw(t, "step")
			for i := range piece {
				v := uint32(i/4) * step
				piece[i] = byte(v >> (8 * (i % 4)))
			}
		case 4: // noise
			x := rapid.Uint64().Draw(t, "seed") | 1
			for i := range piece {
				x ^= x << 13
				x ^= x >> 7
				x ^= x << 17
				piece[i] = byte(x)
			}
		case 5: // a copy of earlier bytes: a long or short match
			if pos > 0 {
				from := rapid.IntRange(0, pos-1).Draw(t, "from")
				for i := range piece {
					piece[i] = b[from+i] // may overlap: repeats a period
				}
			}
		case 6: // a few random bytes
			for i := range min(n, 16) {
				piece[i] = rapid.Byte().Draw(t, "b")
			}
		}
		pos += n
	}
}

// Checks PARSE-8, PAGE-3, PAGE-4, PAGE-5: random pages of every shape.
func TestEncodePageMatchesReferenceRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		page := pageGen().Draw(t, "page")
		kind, data := encodeBoth(t, "page", &page)
		var back [PageSize]byte
		if err := DecodePage(&back, kind, data); err != nil || back != page {
			t.Fatalf("round trip: %v", err)
		}
		if kind == KindLZ4 { // PAGE-4: any LZ4 block decoder reads it
			out := make([]byte, PageSize)
			n, err := lz4.UncompressBlock(data, out)
			if err != nil || n != PageSize || !bytes.Equal(out, page[:]) {
				t.Fatalf("pierrec/lz4 cannot decode the block: %d bytes, %v", n, err)
			}
		}
	})
}

// Checks PARSE-6, PARSE-8: blocks of any length from 0 to 65,535 and any
// destination size give the reference's bytes, or ErrShortBuffer exactly
// when the reference reports a short buffer.
func TestCompressBlockMatchesReferenceRapid(t *testing.T) {
	var e Encoder // reused across blocks, as the pool reuses it
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.OneOf(rapid.IntRange(0, 40), rapid.IntRange(0, 5000), rapid.IntRange(60000, MaxBlockSize)).Draw(t, "n")
		src := make([]byte, n)
		fillRandom(t, src)
		bound := CompressBlockBound(n)
		dstLen := rapid.OneOf(rapid.Just(bound), rapid.IntRange(0, bound)).Draw(t, "dstLen")
		want := make([]byte, dstLen)
		got := make([]byte, dstLen, dstLen+8)
		wn, werr := reference.CompressBlock(want, src)
		gn, gerr := e.CompressBlock(got, src)
		if (werr == nil) != (gerr == nil) || werr != nil && !errors.Is(gerr, ErrShortBuffer) {
			t.Fatalf("errors differ: fastlz4 %v, reference %v", gerr, werr)
		}
		if werr == nil && !bytes.Equal(got[:gn], want[:wn]) {
			t.Fatalf("blocks differ: fastlz4 %d bytes, reference %d bytes", gn, wn)
		}
	})
}

// Checks PAGE-6: the fast decoder accepts and rejects exactly what the
// reference decoder does, on valid blocks and on damaged ones, and never
// writes past dst.
func TestDecompressBlockMatchesReferenceRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := make([]byte, rapid.IntRange(0, 3000).Draw(t, "n"))
		fillRandom(t, src)
		block := make([]byte, CompressBlockBound(len(src)))
		bn, err := CompressBlock(block, src)
		if err != nil {
			t.Fatal(err)
		}
		block = block[:bn]
		for range rapid.IntRange(0, 4).Draw(t, "damage") {
			if len(block) == 0 {
				break
			}
			i := rapid.IntRange(0, len(block)-1).Draw(t, "at")
			switch rapid.IntRange(0, 2).Draw(t, "how") {
			case 0:
				block[i] = rapid.Byte().Draw(t, "byte")
			case 1:
				block = block[:i]
			case 2:
				block = append(block[:i:i], block[i+1:]...)
			}
		}
		dstLen := rapid.OneOf(rapid.Just(len(src)), rapid.IntRange(0, len(src)+64)).Draw(t, "dstLen")
		compareDecoders(t, block, dstLen)
	})
}

const guard = 0xA5

// compareDecoders decodes block into dst of dstLen bytes with the
// reference decoder and with fastlz4's, both with its assembly loop (where
// there is one) and in Go alone, and fails on any difference or on a write
// past dst.
func compareDecoders(t fataler, block []byte, dstLen int) {
	t.Helper()
	compareDecoder(t, block, dstLen, DecompressBlock)
	compareDecoder(t, block, dstLen, func(dst, src []byte) (int, error) { return decompressBlock(dst, src, false) })
}

// compareDecoder is compareDecoders for one fastlz4 decoder.
func compareDecoder(t fataler, block []byte, dstLen int, decompress func(dst, src []byte) (int, error)) {
	t.Helper()
	want := make([]byte, dstLen)
	buf := make([]byte, dstLen+64)
	for i := range buf {
		buf[i] = guard
	}
	got := buf[:dstLen]
	wn, werr := reference.DecompressBlock(want, block)
	gn, gerr := decompress(got, block)
	switch {
	case werr == nil && gerr == nil:
		if gn != wn || !bytes.Equal(got[:gn], want[:wn]) {
			t.Fatalf("outputs differ: %d and %d bytes", gn, wn)
		}
	case errors.Is(werr, reference.ErrCorrupt) && errors.Is(gerr, ErrCorrupt),
		errors.Is(werr, reference.ErrShortBuffer) && errors.Is(gerr, ErrShortBuffer):
		if gn != 0 {
			t.Fatalf("fastlz4: %d bytes reported with %v", gn, gerr)
		}
	default:
		t.Fatalf("fastlz4: %d, %v; reference: %d, %v", gn, gerr, wn, werr)
	}
	for i, b := range buf[dstLen:] {
		if b != guard {
			t.Fatalf("wrote %d bytes past dst", i+1)
		}
	}
}

// Checks PAGE-6: a page decodes from every payload exactly when the
// reference decodes it, to the same page.
func TestDecodePageMatchesReferenceRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		page := pageGen().Draw(t, "page")
		var buf [PageBound]byte
		kind, n := EncodePage(buf[:], &page)
		data := buf[:n]
		if rapid.Bool().Draw(t, "damage") && n > 0 {
			data[rapid.IntRange(0, n-1).Draw(t, "at")] ^= rapid.Byte().Draw(t, "x")
		}
		if rapid.Bool().Draw(t, "cut") {
			data = data[:rapid.IntRange(0, n).Draw(t, "len")]
		}
		kind = rapid.SampledFrom([]Kind{kind, kind, 0, KindSame, KindLZ4, KindRaw, 9}).Draw(t, "kind")
		var want, got [PageSize]byte
		werr := reference.DecodePage(&want, kind, data)
		gerr := DecodePage(&got, kind, data)
		if !sameErrorKind(gerr, werr) || werr == nil && got != want {
			t.Fatalf("fastlz4: %v; reference: %v", gerr, werr)
		}
	})
}

// sameErrorKind reports whether fastlz4's error err is of the kind of the
// reference's error ref: both nil, or both corrupt, short buffer or bad
// kind.
func sameErrorKind(err, ref error) bool {
	switch {
	case ref == nil:
		return err == nil
	case errors.Is(ref, reference.ErrCorrupt):
		return errors.Is(err, ErrCorrupt)
	case errors.Is(ref, reference.ErrShortBuffer):
		return errors.Is(err, ErrShortBuffer)
	case errors.Is(ref, reference.ErrBadKind):
		return errors.Is(err, ErrBadKind)
	}
	return false
}

// Checks PAGE-6 and the errors gpuimpl's statuses map to: a block that
// would write past the page is ErrShortBuffer, one that stops short of
// it is ErrCorrupt naming the bytes it decoded to, and a malformed one is
// DecompressBlock's ErrCorrupt itself, as the reference has each.
func TestDecodePageErrors(t *testing.T) {
	lit := literals(100)
	for name, c := range map[string]struct {
		block []byte
		want  error
		text  string
	}{
		"past the page":    {appendLast(appendSequence(nil, lit, 1, PageSize), nil), ErrShortBuffer, ErrShortBuffer.Error()},
		"literals past it": {appendLast(nil, literals(PageSize+1)), ErrShortBuffer, ErrShortBuffer.Error()},
		"short of it":      {appendLast(appendSequence(nil, lit, 1, PageSize-200), nil), ErrCorrupt, ShortPageError(PageSize - 100).Error()},
		"offset 0":         {appendLast(appendSequence(nil, lit, 0, 4), nil), ErrCorrupt, ErrCorrupt.Error()},
	} {
		var want, got [PageSize]byte
		werr := reference.DecodePage(&want, KindLZ4, c.block)
		err := DecodePage(&got, KindLZ4, c.block)
		if !errors.Is(err, c.want) || err.Error() != c.text || !sameErrorKind(err, werr) {
			t.Errorf("%s: %v; want %q (reference: %v)", name, err, c.text, werr)
		}
	}
}

// Checks PAGE-4: pierrec/lz4's blocks decode with the fast decoder.
func TestDecodesPierrecBlocks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		page := pageGen().Draw(t, "page")
		var c lz4.Compressor
		block := make([]byte, lz4.CompressBlockBound(PageSize))
		n, err := c.CompressBlock(page[:], block)
		if err != nil || n == 0 {
			t.Skip("incompressible for pierrec")
		}
		var back [PageSize]byte
		if err := DecodePage(&back, KindLZ4, block[:n]); err != nil || back != page {
			t.Fatalf("pierrec block: %v", err)
		}
	})
}

func TestIsSameFilled(t *testing.T) { // Checks PAGE-3.
	var p [PageSize]byte
	for i := range p {
		p[i] = byte(i % 8)
	}
	if !IsSameFilled(&p) {
		t.Fatal("a repeated 8-byte word is same-filled")
	}
	for _, at := range []int{0, 7, 8, 2048, PageSize - 1} {
		q := p
		q[at] ^= 1
		if IsSameFilled(&q) != reference.IsSameFilled(&q) || IsSameFilled(&q) {
			t.Errorf("flip at %d: still same-filled", at)
		}
	}
	for i := range p {
		p[i] = byte(i % 4) // period 4 is also period 8
	}
	if !IsSameFilled(&p) {
		t.Error("a repeated 4-byte word is same-filled")
	}
}

// Checks PARSE-8: compressing a page costs no allocation.
func TestEncodePageAllocs(t *testing.T) {
	pages, err := dataset.Load(dataset.Text, 4)
	if err != nil {
		t.Fatal(err)
	}
	var dst [PageBound]byte
	var e Encoder
	allocs := testing.AllocsPerRun(20, func() {
		for i := range pages {
			e.EncodePage(dst[:], &pages[i])
			if !raceEnabled { // EncodePage's pool then drops encoders at random
				EncodePage(dst[:], &pages[i])
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per run", allocs)
	}
}
