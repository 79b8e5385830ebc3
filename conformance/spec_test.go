package conformance

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/lz4warp/lz4warp/reference"
	"pgregory.net/rapid"
)

// Two transcriptions of spec/parse.md, written apart from reference.Parse:
// a sentence-by-sentence sequential one (PARSE-1 to PARSE-7) and the warp
// formulation of PARSE-9. Both must give the reference's bytes.

type seq struct{ lit, offset, match int }

func u32(src []byte, p int) uint32 { return binary.LittleEndian.Uint32(src[p:]) }

// PARSE-1: hash(p) = (u32(p) × 2654435761 mod 2³²) >> 21.
func specHash(src []byte, p int) uint32 { return u32(src, p) * 2654435761 >> 21 }

// specLength is PARSE-4's longest L with p + L ≤ n - 5, for a candidate c
// whose first 4 bytes verified.
func specLength(src []byte, p, c int) int {
	l := 4
	for p+l+1 <= len(src)-5 && src[c+l] == src[p+l] {
		l++
	}
	return l
}

// specChoose is PARSE-3 and PARSE-4's choice between the candidates c1
// and c2 of p (-1 for none): the longer match of those that verify, c1's
// of two as long; a length of 0 when neither verifies.
func specChoose(src []byte, p, c1, c2 int) (length, offset int) {
	for _, c := range []int{c1, c2} {
		if c < 0 || u32(src, c) != u32(src, p) {
			continue
		}
		if l := specLength(src, p, c); l > length {
			length, offset = l, p-c
		}
	}
	return length, offset
}

// specSequential follows PARSE-2 to PARSE-6 literally: the candidates of p
// are found by looking back for the two most recent visited positions with
// the same hash, with no table at all.
func specSequential(src []byte) []seq {
	n := len(src)
	var out []seq
	anchor, resume := 0, 0
	for p := 0; p <= n-12; p++ { // PARSE-2: visited positions 0..n-12
		if p < resume {
			continue // PARSE-5: scanning resumes at p + L
		}
		c := []int{-1, -1}
		for q, k := p-1, 0; q >= 0 && k < 2; q-- {
			if specHash(src, q) == specHash(src, p) {
				c[k] = q
				k++
			}
		}
		l, offset := specChoose(src, p, c[0], c[1])
		if l == 0 { // PARSE-3
			continue
		}
		out = append(out, seq{lit: p - anchor, offset: offset, match: l})
		anchor, resume = p+l, p+l
	}
	return append(out, seq{lit: n - anchor}) // PARSE-6: literals end the block
}

// specWarp follows PARSE-9: 32 positions per group; a lane's c1 is the
// nearest earlier lane with its hash, else the table's latest position as
// it was before the group, and its c2 is lane c1's c1, else the table's
// position before that; the last lane of each hash writes the table; the
// lowest lane at or after the cursor with a candidate that verifies takes
// the match, the longer of its candidates'.
func specWarp(src []byte) []seq {
	n := len(src)
	var table [2048][2]int
	for i := range table {
		table[i] = [2]int{-1, -1}
	}
	var out []seq
	anchor, cursor := 0, 0
	for g := 0; g <= n-12; g += 32 {
		var hash, c1, c2 [32]int
		lanes := min(32, n-12-g+1)
		for l := 0; l < lanes; l++ {
			hash[l] = int(specHash(src, g+l))
			c1[l], c2[l] = table[hash[l]][0], table[hash[l]][1]
			for k := l - 1; k >= 0; k-- { // match.sync: nearest earlier equal lane
				if hash[k] == hash[l] {
					c1[l], c2[l] = g+k, c1[k] // a shuffle from lane k
					break
				}
			}
		}
		for l := 0; l < lanes; l++ { // the last lane of each hash writes
			table[hash[l]] = [2]int{g + l, c1[l]}
		}
		for l := 0; l < lanes; l++ {
			p := g + l
			if p < cursor {
				continue
			}
			length, offset := specChoose(src, p, c1[l], c2[l])
			if length == 0 {
				continue
			}
			out = append(out, seq{lit: p - anchor, offset: offset, match: length})
			anchor, cursor = p+length, p+length
		}
	}
	return append(out, seq{lit: n - anchor})
}

// specEncode writes sequences as PARSE-7 says.
func specEncode(src []byte, seqs []seq) []byte {
	var b []byte
	ext := func(v int) {
		if v < 15 {
			return
		}
		for v -= 15; v >= 255; v -= 255 {
			b = append(b, 255)
		}
		b = append(b, byte(v))
	}
	pos := 0
	for _, s := range seqs {
		token := byte(min(s.lit, 15)) << 4
		if s.match > 0 {
			token |= byte(min(s.match-4, 15))
		}
		b = append(b, token)
		ext(s.lit)
		b = append(b, src[pos:pos+s.lit]...)
		pos += s.lit
		if s.match > 0 {
			b = append(b, byte(s.offset), byte(s.offset>>8))
			ext(s.match - 4)
			pos += s.match
		}
	}
	return b
}

func referenceBytes(t *rapid.T, src []byte) []byte {
	dst := make([]byte, reference.CompressBlockBound(len(src)))
	n, err := reference.CompressBlock(dst, src)
	if err != nil {
		t.Fatal(err)
	}
	return dst[:n]
}

// Checks PARSE-1, PARSE-2, PARSE-3, PARSE-4, PARSE-5, PARSE-6, PARSE-7: the
// reference is the spec's sequential parse, on pages of every shape.
func TestReferenceIsTheSpecParse(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := AnyPage().Draw(t, "page")
		if want, got := specEncode(p[:], specSequential(p[:])), referenceBytes(t, p[:]); !bytes.Equal(got, want) {
			t.Fatalf("reference block of %d bytes, spec's %d; first difference at %d", len(got), len(want), firstDiff(got, want))
		}
	})
}

// Checks PARSE-9, PARSE-5: the warp formulation gives the same bytes as
// the sequential one, on pages and on blocks up to 65,535 bytes.
func TestWarpFormulationIsEquivalent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var src []byte
		if rapid.Bool().Draw(t, "block") {
			src = Block().Draw(t, "src")
		} else {
			p := AnyPage().Draw(t, "page")
			src = p[:]
		}
		want := referenceBytes(t, src)
		if got := specEncode(src, specWarp(src)); !bytes.Equal(got, want) {
			t.Fatalf("warp formulation: %d bytes, reference %d; first difference at %d", len(got), len(want), firstDiff(got, want))
		}
	})
}

// Checks PARSE-1: the hash and its table.
func TestHashConstants(t *testing.T) {
	if reference.HashTableLen != 2048 || reference.HashLog != 11 {
		t.Errorf("table of %d entries (log %d), want 2048 (11)", reference.HashTableLen, reference.HashLog)
	}
	for _, c := range []struct{ u, want uint32 }{
		{0, 0},
		{1, 2654435761 >> 21},
		{0xffffffff, (0xffffffff * 2654435761 & 0xffffffff) >> 21},
		{0x64636261, 0x64636261 * 2654435761 & 0xffffffff >> 21},
	} {
		if got := reference.Hash(c.u); got != c.want {
			t.Errorf("Hash(%#x) = %d, want %d", c.u, got, c.want)
		}
	}
	// An entry's positions are 16 bits: every position of the largest block fits.
	if reference.MaxBlockSize > 1<<16-1 {
		t.Errorf("MaxBlockSize %d does not fit a 16-bit table entry", reference.MaxBlockSize)
	}
}
