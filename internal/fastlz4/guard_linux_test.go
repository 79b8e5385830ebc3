package fastlz4

import (
	"bytes"
	"errors"
	"fmt"
	"runtime/debug"
	"syscall"
	"testing"

	"pgregory.net/rapid"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/reference"
)

// guarded maps size bytes (a whole number of pages) between two pages that
// fault on any access, and unmaps them when the test ends.
func guarded(t *testing.T, size int) []byte {
	t.Helper()
	page := syscall.Getpagesize()
	m, err := syscall.Mmap(-1, 0, size+2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { syscall.Munmap(m) })
	if err := syscall.Mprotect(m[:page], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mprotect(m[page+size:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	return m[page : page+size : page+size]
}

// Checks PAGE-6: with src and dst against pages that fault on any access,
// on either side, no block makes either decoder path read outside src or
// read or write outside dst.
func TestDecompressBlockGuardPages(t *testing.T) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	const size = 1 << 18
	srcArea, dstArea := guarded(t, size), guarded(t, size)
	rapid.Check(t, func(t *rapid.T) {
		block := blockGen().Draw(t, "block")
		dstLen := min(dstLenGen(t, block), size)
		src := srcArea[size-len(block):]
		copy(src, block)
		dst := dstArea[size-dstLen:] // writes past the end fault
		if rapid.Bool().Draw(t, "dst at the start") {
			dst = dstArea[:dstLen:dstLen] // reads before the start fault
		}
		for _, fast := range []bool{true, false} {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("fast %v: %v", fast, r)
					}
				}()
				decompressBlock(dst, src, fast)
			}()
		}
	})
}

// tailBlock is a valid block whose sequences cover the shapes the
// decoder's paths tell apart: no, short and long literals; offsets 1, 3, 8,
// 13, 16, 20, 24, 100 and far; short and long matches, some whose
// copies run up to 31 bytes past them; and a last literal run of
// lastLit bytes.
func tailBlock(lastLit int) []byte {
	b := appendSequence(nil, literals(40), 7, 30)
	for _, s := range []struct{ lit, offset, match int }{
		{0, 1, 4}, {3, 3, 40}, {0, 8, 18}, {15, 13, 300}, {2, 16, 16}, {0, 20, 19},
		{1, 400, 5}, {0, 1, 700}, {14, 2, 33}, {0, 40, 17}, {0, 5, 31}, {5, 9, 64}, {3, 24, 49}, {4, 100, 65},
	} {
		b = appendSequence(b, literals(s.lit), s.offset, s.match)
	}
	return appendLast(b, literals(lastLit))
}

// literals returns n bytes of literals.
func literals(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*37 + n)
	}
	return b
}

// Checks PAGE-6: every prefix of blocks ending in short and long literal
// runs, decoded into dst of the exact size and of a little more, against
// pages that fault on any access, gives the reference's result on both
// decoder paths, and 0 bytes with an error: the ends of src and dst, where
// the assembly loop hands over to the checked path (a cut right after a
// run of 15 or more literals leaves 1 byte of offset to the Go fast path).
// Blocks with runs of 20 length bytes, cut inside them, check the reads of
// length bytes.
func TestDecompressBlockGuardPagesPrefixes(t *testing.T) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	const size = 1 << 16
	srcArea, dstArea := guarded(t, size), guarded(t, size)
	type cutBlock struct {
		name     string
		block    []byte
		lastCuts int // cut at every length up to this, and in the last 40 bytes
	}
	var blocks []cutBlock
	for _, lastLit := range []int{0, 1, 5, 12, 17, 40} {
		b := tailBlock(lastLit)
		blocks = append(blocks, cutBlock{fmt.Sprintf("tail %d", lastLit), b, len(b)})
	}
	longLit := appendLast(appendSequence(nil, literals(15+255*20+3), 1, minMatch), literals(5))
	longMatch := appendLast(appendSequence(nil, literals(20), 1, minMatch+15+255*20+3), literals(5))
	blocks = append(blocks, cutBlock{"long literals", longLit, 40}, cutBlock{"long match", longMatch, 60})
	for _, c := range blocks {
		block := c.block
		n, err := reference.DecompressBlock(make([]byte, size), block)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for cut := 0; cut <= len(block); cut++ {
			if cut > c.lastCuts && cut < len(block)-40 {
				continue
			}
			src := srcArea[size-cut:]
			copy(src, block[:cut])
			for _, dstLen := range []int{n, n + 1, n + 15, n + 16, n + 31, n + 32, n + 40} {
				want := make([]byte, dstLen)
				wn, werr := reference.DecompressBlock(want, src)
				for _, fast := range []bool{true, false} {
					for _, dst := range [][]byte{dstArea[size-dstLen:], dstArea[:dstLen:dstLen]} {
						var gn int
						var gerr error
						func() {
							defer func() {
								if r := recover(); r != nil {
									t.Fatalf("%s, cut %d, dst %d, fast %v: %v", c.name, cut, dstLen, fast, r)
								}
							}()
							gn, gerr = decompressBlock(dst, src, fast)
						}()
						same := werr == nil && gerr == nil && gn == wn && bytes.Equal(dst[:gn], want[:wn]) ||
							gn == 0 && errors.Is(werr, reference.ErrCorrupt) && errors.Is(gerr, ErrCorrupt) ||
							gn == 0 && errors.Is(werr, reference.ErrShortBuffer) && errors.Is(gerr, ErrShortBuffer)
						if !same {
							t.Fatalf("%s, cut %d, dst %d, fast %v: %d, %v; reference %d, %v", c.name, cut, dstLen, fast, gn, gerr, wn, werr)
						}
					}
				}
			}
		}
	}
}

// Checks PARSE-8 and the encoder's loads and stores: with src and dst
// against pages that fault on any access, blocks whose last match ends at
// every distance from the end of src, and pages of the data sets, compress
// to the reference's block into a destination of the bound and of exactly
// the block's size, and to 0 bytes and ErrShortBuffer into one byte less: the
// assembly's 16-byte moves of literals and its 8-byte loads stop at the
// ends of src and dst.
func TestCompressBlockGuardPages(t *testing.T) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	const size = 1 << 16
	srcArea, dstArea := guarded(t, size), guarded(t, size)
	var e Encoder
	check := func(what string, block []byte) {
		src := srcArea[size-len(block):]
		copy(src, block)
		want := make([]byte, CompressBlockBound(len(block)))
		wn, err := reference.CompressBlock(want, block)
		if err != nil {
			t.Fatalf("%s: reference: %v", what, err)
		}
		for _, dstLen := range []int{len(want), wn, wn - 1} {
			for _, dst := range [][]byte{dstArea[size-dstLen:], dstArea[:dstLen:dstLen]} {
				var n int
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("%s, dst %d: %v", what, dstLen, r)
						}
					}()
					n, err = e.CompressBlock(dst, src)
				}()
				if dstLen < wn && (!errors.Is(err, ErrShortBuffer) || n != 0) || dstLen >= wn && (err != nil || !bytes.Equal(dst[:n], want[:wn])) {
					t.Fatalf("%s, dst %d: %d bytes, %v; want the reference's %d bytes", what, dstLen, n, err, wn)
				}
			}
		}
	}
	for n := 12; n <= 200; n++ {
		for _, period := range []int{1, 3, 8, 20} {
			for cut := 0; cut <= 16; cut++ {
				// Noise, then a repeat of period bytes that ends cut bytes
				// before the end of the block.
				b := make([]byte, n)
				noise(b, uint64(n*100+period))
				for i := max(period, n-cut-40); i < n-cut; i++ {
					b[i] = b[i-period]
				}
				check(fmt.Sprintf("n %d, period %d, end %d", n, period, cut), b)
			}
		}
	}
	for _, name := range []string{dataset.Text, dataset.Binaries, dataset.Mixed} {
		pages, err := dataset.Load(name, 4)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := range pages {
			check(fmt.Sprintf("%s page %d", name, i), pages[i][:])
		}
	}
}
