package liblz4_test

import (
	"bytes"
	"testing"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/internal/liblz4"
	"github.com/lz4warp/lz4warp/reference"
)

// Checks RATIO-2, RATIO-3: the yardstick. liblz4's blocks decode with
// fastlz4 and the reference, fastlz4's with liblz4, and PageSize counts as
// RATIO-2 says: 8 for a same-filled page, 4,096 for an incompressible one,
// else liblz4's block length.
func TestRoundTrip(t *testing.T) {
	lib := liblz4.Require(t)
	for _, name := range []string{dataset.Text, dataset.Binaries, dataset.Random} {
		pages, err := dataset.Load(name, 64)
		if err != nil {
			t.Fatal(err)
		}
		blk := make([]byte, fastlz4.CompressBlockBound(dataset.PageSize))
		var got [dataset.PageSize]byte
		for i := range pages {
			n := lib.CompressDefault(blk, pages[i][:])
			if n <= 0 {
				t.Fatalf("%s page %d: LZ4_compress_default returned %d", name, i, n)
			}
			if m, err := fastlz4.DecompressBlock(got[:], blk[:n]); err != nil || m != len(got) || got != pages[i] {
				t.Fatalf("%s page %d: fastlz4 decodes liblz4's block: %d, %v", name, i, m, err)
			}
			if m, err := reference.DecompressBlock(got[:], blk[:n]); err != nil || m != len(got) || got != pages[i] {
				t.Fatalf("%s page %d: reference decodes liblz4's block: %d, %v", name, i, m, err)
			}
			want := n
			if n >= fastlz4.RawThreshold {
				want = dataset.PageSize
			}
			if got := lib.PageSize(blk, &pages[i], false, fastlz4.RawThreshold); got != want {
				t.Errorf("%s page %d: PageSize %d, want %d", name, i, got, want)
			}
			n, err := fastlz4.CompressBlock(blk, pages[i][:])
			if err != nil {
				t.Fatal(err)
			}
			if m := lib.DecompressSafe(got[:], blk[:n]); m != len(got) || got != pages[i] {
				t.Fatalf("%s page %d: LZ4_decompress_safe decodes the canonical block: %d", name, i, m)
			}
		}
	}
	var page [dataset.PageSize]byte
	if n := lib.PageSize(make([]byte, dataset.PageSize), &page, true, fastlz4.RawThreshold); n != 8 {
		t.Errorf("same-filled page: %d bytes, want 8", n)
	}
	if n := lib.DecompressSafe(page[:], []byte{0x40, 1}); n >= 0 {
		t.Errorf("a truncated block decodes to %d bytes", n)
	}
	if n := lib.CompressDefault(make([]byte, 8), bytes.Repeat([]byte("x"), 100)); n != 0 {
		t.Errorf("dst too small: %d, want 0", n)
	}
}
