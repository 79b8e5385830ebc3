package fastlz4

import (
	"bytes"
	"errors"
	"testing"

	"github.com/lz4warp/lz4warp/reference"
)

// Checks PARSE-8, PAGE-5: for any input up to 65,535 bytes and any
// destination size, CompressBlock gives the reference's block, or
// ErrShortBuffer exactly when the reference's block does not fit; the
// first 4,096 bytes, as a page, give the reference's kind and payload.
// Seeds: testdata/fuzz/FuzzEncodeMatchesReference.
func FuzzEncodeMatchesReference(f *testing.F) {
	f.Add([]byte("abcdabcdabcdabcdabcd"), uint16(0))
	f.Add(make([]byte, 100), uint16(7))
	f.Fuzz(func(t *testing.T, src []byte, dstLen uint16) {
		src = src[:min(len(src), MaxBlockSize)]
		bound := CompressBlockBound(len(src))
		size := bound
		if dstLen != 0 {
			size = int(dstLen) % (bound + 1)
		}
		want := make([]byte, size)
		got := make([]byte, size)
		wn, werr := reference.CompressBlock(want, src)
		gn, gerr := CompressBlock(got, src)
		if (werr == nil) != (gerr == nil) || werr != nil && (!errors.Is(gerr, ErrShortBuffer) || gn != 0) {
			t.Fatalf("errors differ: fastlz4 %d, %v; reference %v", gn, gerr, werr)
		}
		if werr == nil && !bytes.Equal(got[:gn], want[:wn]) {
			t.Fatalf("blocks differ: fastlz4 %d bytes, reference %d bytes", gn, wn)
		}
		var page [PageSize]byte
		copy(page[:], src)
		encodeBoth(t, "page", &page)
	})
}

// Checks PAGE-6: any bytes, decoded as a block into a destination of any
// size, give the reference decoder's result, never a panic, and no write
// past dst (guard bytes), with the assembly loop (where there is one) and
// in Go alone. Seeds: testdata/fuzz/FuzzDecodeBlock (the asm-* ones steer
// the assembly loop's paths and its hand-over near the ends).
func FuzzDecodeBlock(f *testing.F) {
	f.Add([]byte{0x1f, 0, 1, 0, 7, 0x50, 0, 0, 0, 0, 0}, uint16(32))
	f.Add([]byte{0x00}, uint16(0))
	f.Fuzz(func(t *testing.T, block []byte, dstLen uint16) {
		compareDecoders(t, block, int(dstLen))
		var want, got [PageSize]byte
		werr := reference.DecodePage(&want, KindLZ4, block)
		gerr := DecodePage(&got, KindLZ4, block)
		if !sameErrorKind(gerr, werr) || werr == nil && got != want {
			t.Fatalf("page: fastlz4 %v, reference %v", gerr, werr)
		}
	})
}
