package fastlz4

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	"github.com/lz4warp/lz4warp/reference"
)

// Blocks take 0 to 65,535 bytes, as the reference's do: one byte more is
// ErrTooLarge with nothing written, from the package-level call and from
// an Encoder.
func TestCompressBlockSizeLimit(t *testing.T) {
	src := make([]byte, MaxBlockSize+1)
	noise(src, 3)
	dst := make([]byte, CompressBlockBound(len(src)))
	for name, compress := range map[string]func(dst, src []byte) (int, error){
		"CompressBlock": CompressBlock, "Encoder": new(Encoder).CompressBlock,
	} {
		clear(dst)
		if n, err := compress(dst, src); !errors.Is(err, ErrTooLarge) || n != 0 {
			t.Errorf("%s of %d bytes: %d, %v; want 0, ErrTooLarge", name, len(src), n, err)
		}
		if !bytes.Equal(dst, make([]byte, len(dst))) {
			t.Fatalf("%s: ErrTooLarge with bytes written", name)
		}
		n, err := compress(dst, src[:MaxBlockSize])
		back := make([]byte, MaxBlockSize)
		if m, derr := DecompressBlock(back, dst[:n]); err != nil || derr != nil || m != MaxBlockSize || !bytes.Equal(back, src[:MaxBlockSize]) {
			t.Errorf("%s: round trip of %d bytes: %v, %v", name, MaxBlockSize, err, derr)
		}
	}
}

// Checks PAGE-6: blocks whose lengths or offsets fail inside the decoder's
// fast path (at least 18 bytes of block and 16 of destination left) give
// the reference's error and 0 bytes, in the assembly loop and in Go.
func TestDecompressBlockFastPathErrors(t *testing.T) {
	ff := func(n int) []byte { return bytes.Repeat([]byte{0xff}, n) }
	for name, block := range map[string][]byte{
		"match length runs off the end":   append([]byte{0x1f, 'a', 0x01, 0x00}, ff(20)...),
		"literal length runs off the end": append([]byte{0xf0}, ff(24)...),
		"literals past the end":           append([]byte{0xf0, 0x40}, make([]byte, 30)...),
		"offset 0":                        append([]byte{0x10, 'a', 0x00, 0x00}, make([]byte, 24)...),
		"offset before the start":         append([]byte{0x20, 'a', 'b', 0x03, 0x00}, make([]byte, 24)...),
	} {
		for _, dstLen := range []int{64, 4096, MaxBlockSize} {
			t.Run(name, func(t *testing.T) { compareDecoders(t, block, dstLen) })
			var dst [PageSize]byte
			if n, err := DecompressBlock(dst[:], block); err == nil || n != 0 {
				t.Errorf("%s: %d, %v; want 0 and an error", name, n, err)
			}
		}
	}
}

// Checks PAGE-3: the Go fill of a same-filled page overwrites the whole
// destination, whatever it held, for the zero word as for any other.
func TestFillPageGoOverwrites(t *testing.T) {
	for _, word := range []uint64{0, 1, 0x0102030405060708, ^uint64(0)} {
		var page [PageSize]byte
		for i := range page {
			page[i] = 0xa5
		}
		fillPageGo(&page, word)
		for i := 0; i < PageSize; i += 8 {
			if got := binary.LittleEndian.Uint64(page[i:]); got != word {
				t.Fatalf("word %#x: %#x at byte %d", word, got, i)
			}
		}
	}
}

// EncodePage needs PageBound bytes of dst, as its documentation says: one
// byte less panics, for a page of any kind, before anything is written.
func TestEncodePageShortDstPanics(t *testing.T) {
	var noisy, same [PageSize]byte
	noise(noisy[:], 5)
	for name, page := range map[string]*[PageSize]byte{"noise": &noisy, "same-filled": &same} {
		dst := make([]byte, PageBound-1)
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: EncodePage into %d bytes did not panic", name, len(dst))
				}
			}()
			EncodePage(dst, page)
		}()
		if !bytes.Equal(dst, make([]byte, len(dst))) {
			t.Errorf("%s: the refused call wrote to dst", name)
		}
	}
}

// Checks PAGE-6: a last sequence whose literal or match length bytes run
// off the end of the block is ErrCorrupt with 0 bytes, into every
// destination size from the output before it to 40 bytes more, on both
// paths. The sequences before it leave enough output that the block's
// first two bytes, read again as an offset, would point inside it: a
// decoder that went on after the failed read from the wrong position
// would copy a match there, or run out of room (ErrShortBuffer).
func TestDecompressBlockLengthRunsOffTheEnd(t *testing.T) {
	head := appendSequence(nil, []byte{0, 1, 2, 3, 4}, 1, 300) // 0x5f, 0: offset 95 when read again
	head = appendSequence(head, []byte{7, 8, 9}, 5, 4)
	out := 5 + 300 + 3 + 4
	for name, tail := range map[string][]byte{
		"literal length":          {0xf0, 0xff, 0xff},
		"match length":            {0x0f, 0x01, 0x00, 0xff, 0xff},
		"literal length, no byte": {0xf0},
		"match length, no byte":   {0x0f, 0x01, 0x00},
	} {
		block := append(slices.Clip(head), tail...)
		for dstLen := out; dstLen <= out+40; dstLen++ {
			for _, fast := range []bool{true, false} {
				dst := make([]byte, dstLen)
				if n, err := decompressBlock(dst, block, fast); n != 0 || !errors.Is(err, ErrCorrupt) {
					t.Fatalf("%s, dst %d, fast %v: %d, %v; want 0, ErrCorrupt", name, dstLen, fast, n, err)
				}
			}
		}
	}
}

// Checks PAGE-6's order of checks at a block that ends right after an
// offset: with exactly 2 bytes left the offset is read, so a match that
// does not fit dst is ErrShortBuffer and one that fits is ErrCorrupt (no
// last sequence), with 0 bytes, as the reference has it; literals that do
// not fit are ErrShortBuffer first. Short and long literal runs, before
// short and 18-byte matches, into every destination size around them, on
// both paths: blocks under 18 bytes go to sequenceLimit, longer ones to
// the Go fast path.
func TestDecompressBlockOffsetAtTheEnd(t *testing.T) {
	for _, lit := range []int{1, 4, 14, 15, 16, 40} {
		for _, matchLen := range []int{minMatch, 18} {
			block := appendSequence(nil, literals(lit), 1, matchLen)
			for dstLen := 0; dstLen <= lit+matchLen+40; dstLen++ {
				want, refWant := ErrCorrupt, reference.ErrCorrupt
				if dstLen < lit+matchLen {
					want, refWant = ErrShortBuffer, reference.ErrShortBuffer
				}
				if _, err := reference.DecompressBlock(make([]byte, dstLen), block); !errors.Is(err, refWant) {
					t.Fatalf("%d literals, match %d, dst %d: the reference gives %v, want %v", lit, matchLen, dstLen, err, refWant)
				}
				for _, fast := range []bool{true, false} {
					if n, err := decompressBlock(make([]byte, dstLen), block, fast); n != 0 || !errors.Is(err, want) {
						t.Fatalf("%d literals, match %d, dst %d, fast %v: %d, %v; want 0, %v", lit, matchLen, dstLen, fast, n, err, want)
					}
				}
			}
		}
	}
}
