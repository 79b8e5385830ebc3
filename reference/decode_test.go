package reference

import (
	"bytes"
	"encoding/hex"
	"testing"
)

// Checks PAGE-6: blocks that break LZ4's end-of-block conditions on where
// the last match lies, but are otherwise well formed, decode to what their
// sequences say; a block that ends with a match instead of literals is
// corrupt.
func TestDecodeEndConditions(t *testing.T) {
	abcd := []byte("abcd")
	page := func(tail string) []byte {
		p := bytes.Repeat(abcd, PageSize/4)
		return append(p[:PageSize-len(tail)], tail...)
	}
	// "abcd" and a match at offset 4 of matchLen (19 or more) bytes, then
	// the sequences of more.
	sequences := func(matchLen int, more ...byte) []byte {
		b := append([]byte{0x4f}, abcd...)
		b = append(b, 4, 0)
		b = append(b, lengthExt(matchLen-MinMatch)...)
		return append(b, more...)
	}
	// The same, then a last sequence of literals.
	block := func(matchLen int, literals string) []byte {
		return sequences(matchLen, append([]byte{byte(len(literals)) << 4}, literals...)...)
	}
	cases := []struct {
		name  string
		block []byte
		want  []byte
	}{
		{"last match ends the page, no final literals", block(PageSize-4, ""), page("")},
		{"one final literal", block(PageSize-5, "x"), page("x")},
		{"four final literals", block(PageSize-8, "wxyz"), page("wxyz")},
		// A second match of 8 bytes at offset 4, then no literals.
		{"last match starts 8 bytes before the end", sequences(PageSize-12, 0x04, 4, 0, 0x00), page("")},
		{"five final literals (the rules kept)", block(PageSize-9, "vwxyz"), page("vwxyz")},
	}
	for _, c := range cases {
		var dst [PageSize]byte
		if err := DecodePage(&dst, KindLZ4, c.block); err != nil {
			t.Errorf("%s: %v (block %s)", c.name, err, hex.EncodeToString(c.block))
			continue
		}
		if !bytes.Equal(dst[:], c.want) {
			t.Errorf("%s: wrong page", c.name)
		}
	}
	// Without its final token the first block ends with a match: corrupt.
	b := block(PageSize-4, "")
	var dst [PageSize]byte
	if err := DecodePage(&dst, KindLZ4, b[:len(b)-1]); err == nil {
		t.Error("a block ending with a match decoded")
	}
}
