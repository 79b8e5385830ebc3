package conformance

import (
	"bytes"
	"testing"

	"github.com/lz4warp/lz4warp/reference"
	"github.com/pierrec/lz4/v4"
	"pgregory.net/rapid"
)

// referenceBlock is the canonical block of src.
func referenceBlock(t *rapid.T, src []byte) []byte {
	dst := make([]byte, reference.CompressBlockBound(len(src)))
	n, err := reference.CompressBlock(dst, src)
	if err != nil {
		t.Fatalf("CompressBlock(%d bytes): %v", len(src), err)
	}
	return dst[:n]
}

// crossCheck: the reference's block of src decodes with pierrec/lz4 and
// obeys the end-of-block rules; pierrec/lz4's block of src decodes with
// the reference.
func crossCheck(t *rapid.T, src []byte) {
	block := referenceBlock(t, src)
	if err := CheckBlockRules(block, len(src)); err != nil {
		t.Fatal(err)
	}
	if len(src) > 0 { // pierrec refuses an empty destination
		out := make([]byte, len(src)+64)
		n, err := lz4.UncompressBlock(block, out)
		if err != nil || n != len(src) || !bytes.Equal(out[:n], src) {
			t.Fatalf("pierrec decodes the reference block of %d bytes to %d bytes: %v", len(src), n, err)
		}
	}
	theirs := make([]byte, lz4.CompressBlockBound(len(src)))
	n, err := lz4.CompressBlock(src, theirs, nil)
	if err != nil {
		t.Fatalf("pierrec CompressBlock: %v", err)
	}
	if n == 0 {
		return // pierrec found it incompressible and wrote nothing
	}
	out := make([]byte, len(src)+64)
	m, err := reference.DecompressBlock(out, theirs[:n])
	if err != nil || m != len(src) || !bytes.Equal(out[:m], src) {
		t.Fatalf("reference decodes pierrec's block of %d bytes to %d bytes: %v", len(src), m, err)
	}
}

// Checks PAGE-4, PARSE-6: on pages of every shape, the reference and
// pierrec/lz4 read each other's blocks.
func TestReferenceAndPierrecPages(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := AnyPage().Draw(t, "page")
		crossCheck(t, p[:])
	})
}

// Checks PARSE-4, PARSE-6: on blocks beyond a page, up to 65,535 bytes
// with matches at the largest offsets, and on inputs of fewer than 13
// bytes, the two codecs agree too.
func TestReferenceAndPierrecBlocks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		crossCheck(t, Block().Draw(t, "src"))
	})
}

// The far-block generator does produce matches at offsets near the
// largest a block allows (65,523).
func TestFarOffsetsAreCovered(t *testing.T) { // Checks PARSE-4.
	maxOffset, far := 0, 0
	for seed := range 50 {
		for _, s := range reference.Parse(farBlock().Example(seed)) {
			maxOffset = max(maxOffset, s.Offset)
			if s.Offset > 65000 {
				far++
			}
		}
	}
	if maxOffset < 65400 || far < 10 {
		t.Errorf("largest offset drawn %d, %d offsets above 65,000; want one above 65,400 and ten above 65,000", maxOffset, far)
	}
	t.Logf("largest offset: %d; %d offsets above 65,000", maxOffset, far)
}

// CheckBlockRules must reject each rule's violation, or the checks that
// rely on it could never fail.
func TestCheckBlockRulesRejects(t *testing.T) { // Checks PARSE-6.
	lits := func(n int) []byte { return bytes.Repeat([]byte{'x'}, n) }
	seq := func(lit, match int, offset uint16) []byte { // lit < 15, match-4 < 15
		b := append([]byte{byte(lit<<4 | (match - 4))}, lits(lit)...)
		return append(b, byte(offset), byte(offset>>8))
	}
	last := func(lit int) []byte { return append([]byte{byte(lit << 4)}, lits(lit)...) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	cases := []struct {
		name  string
		block []byte
		n     int
		ok    bool
	}{
		{"valid", cat(seq(1, 8, 1), last(5)), 14, true},
		{"empty input", last(0), 0, true},
		{"short input, literals only", last(4), 4, true},
		{"match starts after n-12", cat(seq(3, 4, 1), last(7)), 14, false},
		{"match into the last 5 bytes", cat(seq(1, 9, 1), last(4)), 14, false},
		{"ends with a match", seq(1, 8, 1), 9, false},
		{"covers too little", cat(seq(1, 8, 1), last(5)), 15, false},
		{"covers too much", cat(seq(1, 8, 1), last(5)), 13, false},
		{"truncated literals", []byte{0x50, 'x'}, 5, false},
		{"truncated offset", cat(seq(1, 8, 1)[:3]), 14, false},
		{"unterminated length", []byte{0xf0, 255}, 300, false},
		{"no block", nil, 0, false},
	}
	for _, c := range cases {
		err := CheckBlockRules(c.block, c.n)
		if (err == nil) != c.ok {
			t.Errorf("%s: CheckBlockRules = %v, want ok %v", c.name, err, c.ok)
		}
	}
}
