package reference

import (
	"bytes"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lz4warp/lz4warp/internal/golden"
)

// Blocks worked out by hand from spec/parse.md, so that a change to the
// parse cannot pass unnoticed.
func TestCanonicalBlocksByHand(t *testing.T) { // Checks PARSE-2 to PARSE-7.
	cases := []struct {
		name string
		src  []byte
		want string
	}{
		// PARSE-6: an empty block is one token with no literals.
		{"empty", nil, "00"},
		// PARSE-6: fewer than 13 bytes never hold a match.
		{"short", []byte("aaaaaaaaaaaa"), "c0616161616161616161616161"},
		// 32 zero bytes: position 1 matches position 0 (offset 1); the match
		// runs to n-5 = 27, so L = 26 (token 15 + extension 7); 5 literals end it.
		{"zeros32", make([]byte, 32), "1f0001000750" + strings.Repeat("00", 5)},
		// PARSE-7: 15 literals need a zero extension byte.
		{"literals15", []byte("0123456789abcde"), "f000" + hex.EncodeToString([]byte("0123456789abcde"))},
		// PARSE-3: "abcd" recurs at 4, so the match starts at 4 with offset 4;
		// it extends to n-5 = 15, L = 11, then the 5 literals "dabcd".
		{"period4", []byte("abcdabcdabcdabcdabcd"), "4761626364040050" + hex.EncodeToString([]byte("dabcd"))},
	}
	for _, c := range cases {
		dst := make([]byte, CompressBlockBound(len(c.src)))
		n, err := CompressBlock(dst, c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := hex.EncodeToString(dst[:n]); got != c.want {
			t.Errorf("%s: block %s, want %s", c.name, got, c.want)
		}
		out := make([]byte, len(c.src))
		m, err := DecompressBlock(out, dst[:n])
		if err != nil || m != len(c.src) || !bytes.Equal(out, c.src) {
			t.Errorf("%s: round trip gave %d bytes, %v", c.name, m, err)
		}
	}
}

// TestGoldenPages pins the payload of generated pages of every kind.
func TestGoldenPages(t *testing.T) { // Checks PAGE-3, PAGE-4, PAGE-5, PARSE-8.
	for name, page := range goldenPages() {
		var dst [PageBound]byte
		kind, n := EncodePage(dst[:], page)
		got := append([]byte(kind.String()+"\n"), hex.EncodeToString(dst[:n])...)
		golden.Check(t, filepath.Join("testdata", "golden", name+".hex"), got)
	}
}

func goldenPages() map[string]*[PageSize]byte {
	pages := map[string]*[PageSize]byte{}
	add := func(name string, fill func(p *[PageSize]byte)) {
		p := new([PageSize]byte)
		fill(p)
		pages[name] = p
	}
	add("zero", func(p *[PageSize]byte) {})
	add("same-word", func(p *[PageSize]byte) {
		for i := range p {
			p[i] = byte(0x10 + i%8)
		}
	})
	add("text", func(p *[PageSize]byte) {
		words := strings.Fields("the quick brown fox jumps over the lazy dog while pages of memory compress")
		var b strings.Builder
		for i := 0; b.Len() < PageSize; i++ {
			b.WriteString(words[(i*7+i/3)%len(words)])
			b.WriteByte(" \n"[min(i%11/10, 1)])
		}
		copy(p[:], b.String())
	})
	add("counter", func(p *[PageSize]byte) { // structured binary: 32-bit counters
		for i := 0; i < PageSize; i += 4 {
			v := uint32(i / 4 * 3)
			p[i], p[i+1], p[i+2], p[i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		}
	})
	add("noise", func(p *[PageSize]byte) { // a fixed xorshift stream: stored raw
		x := uint32(2463534242)
		for i := range p {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			p[i] = byte(x)
		}
	})
	add("long-literals", func(p *[PageSize]byte) { // noise with one late repeat
		x := uint32(88675123)
		for i := range p {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			p[i] = byte(x)
		}
		copy(p[1500:], p[:2596]) // 1,500 literals, then a 2,5xx-byte match
	})
	return pages
}
