package fastlz4

import (
	"fmt"
	"testing"
)

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

// Checks PARSE-7: a sequence's literal length field around each step of
// its extension bytes (14 to 16, 269 to 271, 524 to 526 literals) before a
// match, compressed into every destination size: the room asked for is the
// sequence's exact size, so that a destination one byte short is
// ErrShortBuffer and never a write past it. Both with the assembly loop and
// with every sequence handed to the Go loop.
func TestCompressBlockLiteralFieldsEveryDstLen(t *testing.T) {
	t.Cleanup(func() { handEverySequence = false })
	for _, hand := range []bool{false, true} {
		handEverySequence = hand
		var e Encoder
		for _, lits := range []int{14, 15, 16, 269, 270, 271, 524, 525, 526} {
			src := make([]byte, lits+32+20)
			noise(src[:lits], uint64(lits))
			noise(src[lits+32:], uint64(lits)+1)
			copy(src[lits:lits+32], src[:32]) // a match of 32 bytes at offset lits
			compareDstLens(t, &e, fmt.Sprintf("%d literals, handed to Go %t", lits, hand), src)
		}
	}
}
