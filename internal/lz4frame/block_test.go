package lz4frame

import (
	"bytes"
	"testing"

	"github.com/lz4warp/lz4warp/reference"
)

// FuzzDecodeBlock: the frame reader's block decoder, with its word-wide
// copies, accepts exactly the blocks the reference decoder accepts and
// writes the same bytes, never touching dst past the block's maximum.
func FuzzDecodeBlock(f *testing.F) {
	for _, n := range []int{0, 20, 4096, 30000} {
		data := sample(n, uint64(n))
		dst := make([]byte, reference.CompressBlockBound(n))
		k, _ := reference.CompressBlock(dst, data)
		f.Add(dst[:k])
	}
	f.Add([]byte{0x1f, 'a', 1, 0, 255, 255, 10})
	f.Fuzz(func(t *testing.T, src []byte) {
		const max = 1 << 16
		want := make([]byte, max)
		wn, werr := reference.DecompressBlock(want, src)
		got := make([]byte, max+64)
		for i := max; i < len(got); i++ {
			got[i] = 0xAA
		}
		gn, _, gerr := decodeBlock(got[:max], 0, src)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("reference error %v, decodeBlock error %v", werr, gerr)
		}
		if werr == nil && (gn != wn || !bytes.Equal(got[:gn], want[:wn])) {
			t.Fatalf("decoded %d bytes, reference %d, or they differ", gn, wn)
		}
		for i := max; i < len(got); i++ {
			if got[i] != 0xAA {
				t.Fatalf("wrote past dst at %d", i)
			}
		}
	})
}
