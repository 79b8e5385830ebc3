package fastlz4

import "testing"

// An Encoder's memory (Encoder's doc): blocks of up to a page use the table
// and links it holds, so that compressing pages never makes the larger
// ones; the first longer block makes them once, with links for exactly
// MaxBlockSize positions, and every block after reuses them.
func TestEncoderTables(t *testing.T) {
	e := new(Encoder)
	src := make([]byte, MaxBlockSize)
	noise(src, 5)
	dst := make([]byte, CompressBlockBound(len(src)))
	var page [PageSize]byte
	copy(page[:], src)
	e.EncodePage(dst, &page)
	if _, err := e.CompressBlock(dst, src[:PageSize]); err != nil || e.bigTableLinks != nil {
		t.Fatalf("a page's block: %v; the larger tables were made: %t", err, e.bigTableLinks != nil)
	}
	if _, err := e.CompressBlock(dst, src[:PageSize+1]); err != nil || len(e.bigTableLinks) != 1<<hashLog+MaxBlockSize {
		t.Fatalf("a block of a page and a byte: %v; larger tables of %d entries, want %d", err, len(e.bigTableLinks), 1<<hashLog+MaxBlockSize)
	}
	made := &e.bigTableLinks[0]
	if _, err := e.CompressBlock(dst, src); err != nil || &e.bigTableLinks[0] != made {
		t.Fatalf("a block of MaxBlockSize bytes: %v, or the larger tables were made again", err)
	}
}
