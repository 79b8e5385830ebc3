package reference

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// maxLengthField is the longest length field DecompressBlock takes:
// 65,535 + 65,535, as fastlz4.MaxLengthField and the GPU's decoder have it.
const maxLengthField = 131070

// lengthExt is the extension of a length field holding v >= 15 (PARSE-7):
// 255 while at least 255 of v-15 remains, then the remainder.
func lengthExt(v int) []byte {
	return append(bytes.Repeat([]byte{255}, (v-15)/255), byte((v-15)%255))
}

// join concatenates hex strings and byte slices into one block.
func join(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			h, err := hex.DecodeString(p)
			if err != nil {
				panic(err)
			}
			b = append(b, h...)
		case []byte:
			b = append(b, p...)
		}
	}
	return b
}

func noise(n int, seed uint32) []byte {
	b := make([]byte, n)
	fillNoise(b, seed)
	return b
}

// Checks PAGE-6 and PARSE-7: DecompressBlock on blocks cut short, with bad
// offsets, with output past dst and with length fields at and past their
// bound. A block is read sequence by sequence and the first fault met
// decides the error: ErrCorrupt for a block that breaks the format,
// ErrShortBuffer for output past dst; either way it returns 0. Every src
// has spare capacity holding more bytes, so that a read past len(src)
// would find data instead of panicking.
func TestDecompressBlockHostile(t *testing.T) {
	lits := noise(65535, 31)
	longLits := noise(maxLengthField+1, 37)
	cases := []struct {
		name   string
		block  []byte
		dstLen int
		want   []byte // the output; nil with an error
		err    error
	}{
		{"empty block", nil, 16, nil, ErrCorrupt},
		{"one token, no literals", join("00"), 16, []byte{}, nil},
		{"literal length extension missing", join("f0"), 16, nil, ErrCorrupt},
		{"literal length extension cut after 255", join("f0ff"), 300, nil, ErrCorrupt},
		{"literals past the end of src", join("20", "61"), 16, nil, ErrCorrupt},
		// src is checked before dst.
		{"literals past the end of src and past dst", join("20", "61"), 1, nil, ErrCorrupt},
		{"literals past dst", join("50", "6162636465"), 4, nil, ErrShortBuffer},
		{"literals filling dst", join("50", "6162636465"), 5, []byte("abcde"), nil},
		{"one byte of offset", join("10", "61", "01"), 16, nil, ErrCorrupt},
		{"block ends after a match", join("10", "61", "0100"), 16, nil, ErrCorrupt},
		// The match is checked against dst before the end of the block.
		{"block ends after a match past dst", join("10", "61", "0100"), 1, nil, ErrShortBuffer},
		{"offset 0", join("10", "61", "0000", "00"), 16, nil, ErrCorrupt},
		{"offset before the start", join("10", "61", "0200", "00"), 16, nil, ErrCorrupt},
		{"offset of the whole output", join("10", "61", "0100", "00"), 16, []byte("aaaaa"), nil},
		{"match length extension missing", join("1f", "61", "0100"), 100, nil, ErrCorrupt},
		{"match length extension cut after 255", join("1f", "61", "0100", "ff"), 1000, nil, ErrCorrupt},
		{"match past dst", join("14", "61", "0100", "00"), 8, nil, ErrShortBuffer},
		{"match filling dst", join("14", "61", "0100", "00"), 9, []byte("aaaaaaaaa"), nil},
		// 31 bytes of output, then a literal length cut short: reading on
		// from the block's start would take its first two bytes, 1f 00, as
		// a valid offset of 31 and then run past dst.
		{"literal length cut after output", join("1f", "00", "0100", "0b", "f0"), 31, nil, ErrCorrupt},
		{"offset 65535", join("f0", lengthExt(65535), lits, "ffff", "00"), 65539, join(lits, lits[:4]), nil},
		{"offset 65535 after 65534 bytes", join("f0", lengthExt(65534), lits[:65534], "ffff", "00"), 65538, nil, ErrCorrupt},
		{"literal length at its bound", join("f0", lengthExt(maxLengthField), longLits[:maxLengthField]), maxLengthField, longLits[:maxLengthField], nil},
		{"literal length past its bound", join("f0", lengthExt(maxLengthField+1), longLits), 2 * maxLengthField, nil, ErrCorrupt},
		{"match length at its bound", join("1f", "61", "0100", lengthExt(maxLengthField), "00"), 2 * maxLengthField,
			bytes.Repeat([]byte("a"), 1+MinMatch+maxLengthField), nil},
		// Read on from the block's start instead, the block repeats its
		// first sequence until dst is full.
		{"match length past its bound", join("1f", "61", "0100", lengthExt(maxLengthField+1), "00"), 2 * maxLengthField, nil, ErrCorrupt},
	}
	for _, c := range cases {
		src := append(bytes.Clone(c.block), 0x00, 0x00, 0x40, 0x00, 0x10, 0x00)[:len(c.block)]
		dst := make([]byte, c.dstLen)
		n, err := DecompressBlock(dst, src)
		switch {
		case c.err != nil && (!errors.Is(err, c.err) || n != 0):
			t.Errorf("%s: %d, %v; want 0, %v", c.name, n, err, c.err)
		case c.err == nil && (err != nil || n != len(c.want) || !bytes.Equal(dst[:n], c.want)):
			t.Errorf("%s: %d bytes, %v; want the %d bytes of the block", c.name, n, err, len(c.want))
		}
	}
}

// Checks PARSE-7: the length fields of CompressBlock's blocks where their
// extension grows (at 15, 270 and 525), literal-only and in a match; each
// block fits a dst of exactly its length and none shorter, where it
// returns 0 and ErrShortBuffer.
func TestCompressBlockLengthFields(t *testing.T) {
	type blockCase struct {
		src  []byte
		want []byte
	}
	var cases []blockCase
	// n bytes of noise, without a repeated 4 bytes: literals only.
	for _, l := range []struct {
		n    int
		head string
	}{
		{14, "e0"}, {15, "f000"}, {16, "f001"}, {269, "f0fe"}, {270, "f0ff00"}, {271, "f0ff01"},
		{524, "f0fffe"}, {525, "f0ffff00"}, {526, "f0ffff01"},
	} {
		src := noise(l.n, 41)
		cases = append(cases, blockCase{src, join(l.head, src)})
	}
	// "wxyz" repeated to v+13 bytes: 4 literals, a match of v+4 bytes at
	// offset 4 up to the last 5 bytes (PARSE-4), then those 5 literals; v
	// is the match length field.
	for _, m := range []struct {
		v    int
		head string
	}{
		{3, "43"}, {14, "4e"}, {15, "4f00"}, {16, "4f01"}, {269, "4ffe"}, {270, "4fff00"}, {271, "4fff01"},
		{524, "4ffffe"}, {525, "4fffff00"},
	} {
		src := []byte(strings.Repeat("wxyz", (m.v+16)/4)[:m.v+13])
		cases = append(cases, blockCase{src, join(m.head[:2], "7778797a0400", m.head[2:], "50", src[m.v+8:])})
	}
	for _, c := range cases {
		dst := make([]byte, len(c.want))
		if n, err := CompressBlock(dst, c.src); err != nil || !bytes.Equal(dst[:n], c.want) {
			t.Errorf("%d bytes: block %x, %v; want %x", len(c.src), dst[:n], err, c.want)
			continue
		}
		for k := range len(c.want) {
			if n, err := CompressBlock(make([]byte, k), c.src); n != 0 || !errors.Is(err, ErrShortBuffer) {
				t.Errorf("%d bytes into %d of %d: %d, %v; want 0, ErrShortBuffer", len(c.src), k, len(c.want), n, err)
			}
		}
	}
}

// Checks PARSE-6 at the last position visited: in 13 bytes, position 1 =
// n-12 still starts a match, which runs to n-5.
func TestMatchAtLastPosition(t *testing.T) {
	src := bytes.Repeat([]byte("a"), 13)
	if got, want := hex.EncodeToString(mustCompress(t, src)), "13610100506161616161"; got != want {
		t.Errorf("13 bytes of 'a': block %s, want %s", got, want)
	}
}

// Checks PARSE-1 and PARSE-10: the hash's values are exactly the indices of
// the table of 2,048 entries (8 KiB of two 16-bit positions each): every
// index is the hash of some word, and the hash of u is the top 11 bits of
// u·2654435761.
func TestHashCoversTable(t *testing.T) {
	if HashTableLen*4 != 8<<10 {
		t.Fatalf("table of %d entries, %d bytes; want 8 KiB", HashTableLen, HashTableLen*4)
	}
	// The inverse of the odd multiplier mod 2^32, by Newton's iteration.
	inv := uint32(HashPrime)
	for range 5 {
		inv *= 2 - HashPrime*inv
	}
	for h := range uint32(HashTableLen) {
		u := h << 21 * inv
		if got := Hash(u); got != h || uint64(u)*2654435761%(1<<32)>>21 != uint64(h) {
			t.Fatalf("Hash(%#x) = %d, want %d", u, got, h)
		}
	}
}
