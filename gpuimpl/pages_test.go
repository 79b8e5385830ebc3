package gpuimpl

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lz4warp/lz4warp/reference"
)

// pieceKinds names the page generators of the kernel tests that build a
// page from scratch: each stresses a different part of the parse.
var pieceKinds = []string{"zeros", "same", "random", "text", "binary", "runs", "longlit", "nearraw", "sparse"}

// pageKinds adds the generators that combine or edit pages of the others.
var pageKinds = slices.Concat(pieceKinds, []string{"mixed", "tailmatch", "threshold"})

var words = []string{"the ", "page ", "kernel ", "lz4 ", "warp ", "hash ", "of ", "and ", "match ",
	"literal ", "offset ", "GPU ", "memory ", "compress ", "\n", "{", "}", "0123", "error: ", "return "}

// genPage fills a page of the named kind from rng.
func genPage(kind string, rng *rand.Rand) *[PageSize]byte {
	var p [PageSize]byte
	switch kind {
	case "zeros":
	case "same":
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], rng.Uint64())
		if rng.IntN(2) == 0 { // one byte repeated, or a full 8-byte word
			for i := range w {
				w[i] = w[0]
			}
		}
		for i := 0; i < PageSize; i += 8 {
			copy(p[i:], w[:])
		}
	case "random":
		fillRandom(p[:], rng)
		if rng.IntN(4) == 0 { // almost same-filled: one word differs
			for i := range p {
				p[i] = 0
			}
			p[rng.IntN(PageSize)] = byte(1 + rng.IntN(255))
		}
	case "text":
		for i := 0; i < PageSize; {
			i += copy(p[i:], words[rng.IntN(len(words))])
		}
	case "binary": // structures of small integers, pointers and padding
		for i := 0; i+16 <= PageSize; i += 16 {
			binary.LittleEndian.PutUint64(p[i:], 0x00007f0000000000|uint64(rng.IntN(1<<20))<<3)
			binary.LittleEndian.PutUint32(p[i+8:], uint32(rng.IntN(300)))
			if rng.IntN(3) == 0 {
				binary.LittleEndian.PutUint32(p[i+12:], rng.Uint32())
			}
		}
	case "runs": // long runs and long repeats: matches of 270+ bytes
		for i := 0; i < PageSize; {
			n := 1 + rng.IntN(600)
			b := byte(rng.IntN(3))
			period := 1 + rng.IntN(9)
			for j := 0; j < n && i < PageSize; j++ {
				p[i] = b + byte(j%period)
				i++
			}
		}
	case "longlit": // literal stretches of 15 to 414 bytes (lengths with extension bytes) between repeats
		// of 32 to 331 bytes: most pages compress below PAGE-5's threshold, so their blocks are stored.
		fillRandom(p[:], rng)
		for i := 15 + rng.IntN(400); i < PageSize; {
			n := min(32+rng.IntN(300), PageSize-i)
			from := rng.IntN(i)
			copy(p[i:i+n], p[from:from+n])
			i += n + 15 + rng.IntN(400)
		}
	case "nearraw": // random bytes with a variable share of zeros: sizes around 3,072
		fillRandom(p[:], rng)
		zeros := 700 + rng.IntN(500)
		at := rng.IntN(PageSize - zeros)
		for i := at; i < at+zeros; i++ {
			p[i] = 0
		}
	case "sparse": // zeros with a few bytes set, also at the very end
		for k := rng.IntN(20); k >= 0; k-- {
			p[rng.IntN(PageSize)] = byte(rng.Uint32())
		}
		if rng.IntN(2) == 0 {
			p[PageSize-1-rng.IntN(16)] = 1
		}
	case "mixed": // pieces of the other kinds, as a page of a real process
		for i := 0; i < PageSize; {
			n := min(PageSize-i, 256<<rng.IntN(4))
			piece := genPage(pieceKinds[rng.IntN(len(pieceKinds))], rng)
			at := rng.IntN(PageSize - n + 1)
			i += copy(p[i:i+n], piece[at:at+n])
		}
	case "tailmatch": // a repeat that runs into the last bytes: PARSE-4's and PARSE-6's bounds
		// Random bytes at both ends, zeros between: the block stays under PAGE-5's threshold, so
		// that it is stored, its last sequences included.
		fillRandom(p[:], rng)
		clear(p[512 : PageSize-1024])
		n := 4 + rng.IntN(60)
		from := rng.IntN(PageSize - 2*n)
		to := PageSize - n - rng.IntN(12)
		if to < from+n {
			to = from + n
		}
		copy(p[to:], p[from:from+n])
		if rng.IntN(2) == 0 { // or a run of one byte over the whole end
			for i := PageSize - 1 - rng.IntN(200); i < PageSize; i++ {
				p[i] = 0x41
			}
		}
	case "threshold": // an LZ4 block of 3,069 to 3,074 bytes: PAGE-5's limit and both sides of it
		fillRandom(p[:], rng)
		target := reference.RawThreshold - 3 + rng.IntN(6)
		lo, hi := 0, 2000 // zeros at the start: the block shrinks as they grow
		var q [PageSize]byte
		for lo < hi {
			mid := (lo + hi) / 2
			q = p
			clear(q[:mid])
			if blockSize(&q) > target {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		clear(p[:lo])
	default:
		panic("unknown page kind " + kind)
	}
	return &p
}

func fillRandom(b []byte, rng *rand.Rand) {
	for i := 0; i < len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], rng.Uint64())
	}
}

// blockSize is the length of the page's canonical LZ4 block.
func blockSize(p *[PageSize]byte) int {
	dst := make([]byte, reference.CompressBlockBound(PageSize))
	n, err := reference.CompressBlock(dst, p[:])
	if err != nil {
		panic(err)
	}
	return n
}

// The kernel tests see every stored kind where their generators say so: a
// generator whose pages all end up raw would check only their lengths
// (compareWithReference), whatever its comment promises.
func TestPageKindsStored(t *testing.T) {
	want := map[string][]reference.Kind{
		"zeros": {reference.KindSame}, "same": {reference.KindSame}, "random": {reference.KindLZ4, reference.KindRaw},
		"text": {reference.KindLZ4}, "binary": {reference.KindLZ4}, "runs": {reference.KindLZ4},
		"longlit": {reference.KindLZ4}, "nearraw": {reference.KindLZ4, reference.KindRaw},
		"sparse": {reference.KindLZ4}, "mixed": {reference.KindLZ4}, "tailmatch": {reference.KindLZ4},
		"threshold": {reference.KindLZ4, reference.KindRaw},
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for _, kind := range pageKinds {
		seen := map[reference.Kind]int{}
		for range 200 {
			var dst [reference.PageBound]byte
			k, _ := reference.EncodePage(dst[:], genPage(kind, rng))
			seen[k]++
		}
		ks, ok := want[kind]
		if !ok {
			t.Errorf("%s: no expected kinds", kind)
		}
		for _, k := range ks {
			if seen[k] == 0 {
				t.Errorf("%s: no %v page of 200 (%v)", kind, k, seen)
			}
		}
	}
}
