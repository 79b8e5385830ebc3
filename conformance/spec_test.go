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

// PARSE-1: hash(p) = (u32(p) × 2654435761 mod 2³²) >> 20.
func specHash(src []byte, p int) uint32 { return u32(src, p) * 2654435761 >> 20 }

// specSequential follows PARSE-2 to PARSE-6 literally: the candidate of p
// is found by looking back for the most recent visited position with the
// same hash, with no table at all.
func specSequential(src []byte) []seq {
	n := len(src)
	var out []seq
	anchor, resume := 0, 0
	for p := 0; p <= n-12; p++ { // PARSE-2: visited positions 0..n-12
		if p < resume {
			continue // PARSE-5: scanning resumes at p + L
		}
		c := -1
		for q := p - 1; q >= 0; q-- {
			if specHash(src, q) == specHash(src, p) {
				c = q
				break
			}
		}
		if c < 0 || u32(src, c) != u32(src, p) { // PARSE-3
			continue
		}
		l := 4 // PARSE-4: longest L with p + L ≤ n - 5
		for p+l+1 <= n-5 && src[c+l] == src[p+l] {
			l++
		}
		out = append(out, seq{lit: p - anchor, offset: p - c, match: l})
		anchor, resume = p+l, p+l
	}
	return append(out, seq{lit: n - anchor}) // PARSE-6: literals end the block
}

// specWarp follows PARSE-9: 32 positions per group; a lane's candidate is
// the nearest earlier lane with its hash, else the table as it was before
// the group; the last lane of each hash writes the table; the lowest lane
// at or after the cursor whose candidate verifies takes the match.
func specWarp(src []byte) []seq {
	n := len(src)
	var table [4096]int
	for i := range table {
		table[i] = -1
	}
	var out []seq
	anchor, cursor := 0, 0
	for g := 0; g <= n-12; g += 32 {
		var hash, cand [32]int
		lanes := min(32, n-12-g+1)
		for l := 0; l < lanes; l++ {
			hash[l] = int(specHash(src, g+l))
			cand[l] = table[hash[l]]
			for k := l - 1; k >= 0; k-- { // match.sync: nearest earlier equal lane
				if hash[k] == hash[l] {
					cand[l] = g + k
					break
				}
			}
		}
		for l := 0; l < lanes; l++ { // the last lane of each hash writes
			table[hash[l]] = g + l
		}
		for l := 0; l < lanes; l++ {
			p := g + l
			if p < cursor || cand[l] < 0 || u32(src, cand[l]) != u32(src, p) {
				continue
			}
			length := 4
			for p+length < n-5 && src[cand[l]+length] == src[p+length] {
				length++
			}
			out = append(out, seq{lit: p - anchor, offset: p - cand[l], match: length})
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
	if reference.HashTableLen != 4096 || reference.HashLog != 12 {
		t.Errorf("table of %d entries (log %d), want 4096 (12)", reference.HashTableLen, reference.HashLog)
	}
	for _, c := range []struct{ u, want uint32 }{
		{0, 0},
		{1, 2654435761 >> 20},
		{0xffffffff, (0xffffffff * 2654435761 & 0xffffffff) >> 20},
		{0x64636261, 0x64636261 * 2654435761 & 0xffffffff >> 20},
	} {
		if got := reference.Hash(c.u); got != c.want {
			t.Errorf("Hash(%#x) = %d, want %d", c.u, got, c.want)
		}
	}
	// Entries are 16 bits: every position of the largest block fits.
	if reference.MaxBlockSize > 1<<16-1 {
		t.Errorf("MaxBlockSize %d does not fit a 16-bit table entry", reference.MaxBlockSize)
	}
}
