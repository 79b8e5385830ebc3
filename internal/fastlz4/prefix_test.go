package fastlz4

import (
	"bytes"
	"errors"
	"testing"

	"pgregory.net/rapid"
)

// naiveDecode decodes the LZ4 block src into dst[prefix:] one byte at a
// time, with every check of the format and none of the decoder's speed: the
// oracle of DecompressBlockPrefix. ok is false for a corrupt block or one
// that does not fit dst.
func naiveDecode(dst []byte, prefix int, src []byte) (end int, ok bool) {
	in, out := 0, prefix
	length := func(v int) (int, bool) {
		if v != 15 {
			return v, true
		}
		for {
			if in >= len(src) {
				return 0, false
			}
			b := src[in]
			in++
			v += int(b)
			if b != 255 {
				return v, true
			}
		}
	}
	for {
		if in >= len(src) {
			return 0, false
		}
		token := src[in]
		in++
		lit, ok := length(int(token >> 4))
		if !ok || lit > len(src)-in || lit > len(dst)-out {
			return 0, false
		}
		out += copy(dst[out:], src[in:in+lit])
		in += lit
		if in == len(src) {
			return out, true
		}
		if len(src)-in < 2 {
			return 0, false
		}
		offset := int(src[in]) | int(src[in+1])<<8
		in += 2
		if offset == 0 || offset > out {
			return 0, false
		}
		m, ok := length(int(token & 15))
		if !ok || m+minMatch > len(dst)-out {
			return 0, false
		}
		for range m + minMatch {
			dst[out] = dst[out-offset]
			out++
		}
	}
}

// Checks that DecompressBlockPrefix decodes blocks whose matches reach
// into the prefix (the window of linked blocks) and blocks with lengths
// far above a page's, as the naive decoder does, leaving the prefix alone.
func TestDecompressBlockPrefix(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prefix := rapid.SliceOfN(rapid.Byte(), 0, 70000).Draw(t, "prefix")
		var block []byte
		out := len(prefix)
		for i, n := 0, rapid.IntRange(0, 8).Draw(t, "sequences"); i < n; i++ {
			lit := rapid.SliceOfN(rapid.Byte(), 0, 300).Draw(t, "literals")
			out += len(lit)
			if out == 0 {
				continue
			}
			offset := rapid.IntRange(1, min(out, 65535)).Draw(t, "offset")
			matchLen := rapid.OneOf(rapid.IntRange(4, 40), rapid.IntRange(4, 300000)).Draw(t, "matchLen")
			block = appendSequence(block, lit, offset, matchLen)
			out += matchLen
		}
		last := rapid.SliceOfN(rapid.Byte(), 0, 40).Draw(t, "last")
		block = appendLast(block, last)
		out += len(last)
		slack := rapid.IntRange(0, 64).Draw(t, "slack")

		want := make([]byte, out+slack)
		copy(want, prefix)
		wend, ok := naiveDecode(want, len(prefix), block)
		if !ok || wend != out {
			t.Fatalf("the oracle failed on a valid block: %v, end %d of %d", ok, wend, out)
		}
		got := make([]byte, out+slack)
		copy(got, prefix)
		end, err := DecompressBlockPrefix(got, len(prefix), block)
		if err != nil || end != out {
			t.Fatalf("DecompressBlockPrefix: end %d, %v; want %d", end, err, out)
		}
		if !bytes.Equal(got[:end], want[:out]) {
			t.Fatal("output differs from the oracle's")
		}
		if out > len(prefix) {
			if _, err := DecompressBlockPrefix(got[:out-1], len(prefix), block); err == nil {
				t.Fatal("a destination one byte short decoded")
			}
		}
	})
}

// Checks that DecompressBlockPrefix gives the naive decoder's verdict and
// output on any input, and never writes into the prefix.
func FuzzDecompressBlockPrefix(f *testing.F) {
	f.Add([]byte{0x1f, 'a', 1, 0, 255, 255, 10, 0x10, 'b'}, uint16(3), uint32(1000))
	f.Add([]byte{0x00, 5, 0, 0x10, 'x'}, uint16(8), uint32(64))
	f.Fuzz(func(t *testing.T, src []byte, prefixLen uint16, dstLen uint32) {
		prefix := bytes.Repeat([]byte{0xa5, 0x5a, 0x33}, int(prefixLen)/3+1)[:prefixLen]
		size := len(prefix) + int(dstLen%(4<<20))
		want := make([]byte, size)
		got := make([]byte, size)
		copy(want, prefix)
		copy(got, prefix)
		wend, ok := naiveDecode(want, len(prefix), src)
		end, err := DecompressBlockPrefix(got, len(prefix), src)
		if ok != (err == nil) {
			t.Fatalf("verdicts differ: oracle ok=%v, DecompressBlockPrefix %v", ok, err)
		}
		if !bytes.Equal(got[:len(prefix)], prefix) {
			t.Fatal("the prefix changed")
		}
		if ok && (end != wend || !bytes.Equal(got[:end], want[:wend])) {
			t.Fatalf("outputs differ: end %d, oracle %d", end, wend)
		}
	})
}

// Checks that a prefix outside dst is ErrShortBuffer with 0 bytes, before
// anything is read or written, and that a prefix of all of dst decodes an
// empty block to its end.
func TestDecompressBlockPrefixOutOfRange(t *testing.T) {
	block := appendLast(nil, []byte("abc"))
	dst := make([]byte, 16)
	for _, prefix := range []int{-1, -17, len(dst) + 1, 1 << 40} {
		if n, err := DecompressBlockPrefix(dst, prefix, block); n != 0 || !errors.Is(err, ErrShortBuffer) {
			t.Errorf("prefix %d of %d bytes: %d, %v; want 0, ErrShortBuffer", prefix, len(dst), n, err)
		}
	}
	if !bytes.Equal(dst, make([]byte, len(dst))) {
		t.Error("a refused prefix wrote to dst")
	}
	if n, err := DecompressBlockPrefix(dst, len(dst), appendLast(nil, nil)); n != len(dst) || err != nil {
		t.Errorf("an empty block after a prefix of all of dst: %d, %v; want %d, nil", n, err, len(dst))
	}
}

// Checks maxPrefixLength: DecompressBlockPrefix takes a match length
// field of up to 1 GiB, so that a match too long for dst is ErrShortBuffer,
// and one above it is ErrCorrupt, on both decoder paths. (Literals cannot
// show the bound without 1 GiB of src: they are checked against src first.)
// The length bytes take 4 MiB of src; dst stays small.
func TestDecompressBlockPrefixLengthBound(t *testing.T) {
	const limit = 1 << 30
	for _, c := range []struct {
		field int // the match length field's value: the length less minMatch
		err   error
	}{
		{limit - 1, ErrShortBuffer}, {limit, ErrShortBuffer}, {limit + 1, ErrCorrupt}, {limit + 255, ErrCorrupt},
	} {
		block := appendLength([]byte{0x1f, 'a', 1, 0}, c.field)
		block = appendLast(block, make([]byte, 8))
		for _, fast := range []bool{true, false} {
			dst := make([]byte, 8+64)
			decode := func() (int, error) { return decompressFrom(dst, block, 8, maxPrefixLength, false) }
			if fast {
				decode = func() (int, error) { return DecompressBlockPrefix(dst, 8, block) }
			}
			if n, err := decode(); n != 0 || !errors.Is(err, c.err) {
				t.Errorf("match length field %d, fast %v: %d, %v; want 0, %v", c.field, fast, n, err, c.err)
			}
		}
	}
}
