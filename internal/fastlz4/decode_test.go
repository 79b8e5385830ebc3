package fastlz4

import (
	"bytes"
	"errors"
	"testing"

	"pgregory.net/rapid"

	"github.com/lz4warp/lz4warp/reference"
)

// appendLength appends the extension bytes of a length n >= 15 held in a
// 4-bit field.
func appendLength(b []byte, n int) []byte {
	for n -= 15; n >= 255; n -= 255 {
		b = append(b, 255)
	}
	return append(b, byte(n))
}

// appendSequence appends a sequence of literals lit and a match of
// matchLen bytes (4 or more) at offset.
func appendSequence(b, lit []byte, offset, matchLen int) []byte {
	litField, matchField := min(len(lit), 15), min(matchLen-minMatch, 15)
	b = append(b, byte(litField<<4|matchField))
	if litField == 15 {
		b = appendLength(b, len(lit))
	}
	b = append(b, lit...)
	b = append(b, byte(offset), byte(offset>>8))
	if matchField == 15 {
		b = appendLength(b, matchLen-minMatch)
	}
	return b
}

// appendLast appends the last sequence: literals only.
func appendLast(b, lit []byte) []byte {
	b = append(b, byte(min(len(lit), 15)<<4))
	if len(lit) >= 15 {
		b = appendLength(b, len(lit))
	}
	return append(b, lit...)
}

// blockGen draws blocks sequence by sequence, mostly valid and often not:
// short and long literals, offsets 1 to 40 (the pattern copies) as well as
// far ones, matches short and long, and now and then a zero offset, an
// offset past the output, a damaged byte or a cut anywhere, including
// inside a run of length bytes.
func blockGen() *rapid.Generator[[]byte] {
	return rapid.Custom(func(t *rapid.T) []byte {
		var b []byte
		out := 0
		for range rapid.IntRange(0, 40).Draw(t, "sequences") {
			lit := rapid.SliceOfN(rapid.Byte(), 0, 14).Draw(t, "lit")
			switch rapid.IntRange(0, 5).Draw(t, "lit kind") {
			case 0:
				lit = nil
			case 1:
				lit = make([]byte, rapid.IntRange(15, 600).Draw(t, "lit len"))
				lit[0] = rapid.Byte().Draw(t, "lit byte")
			}
			out += len(lit)
			var offset int
			switch rapid.IntRange(0, 9).Draw(t, "offset kind") {
			case 0:
				offset = 0
			case 1:
				offset = out + rapid.IntRange(1, 20).Draw(t, "past")
			case 2, 3:
				offset = rapid.IntRange(1, 65535).Draw(t, "far")
			default:
				offset = rapid.IntRange(1, 40).Draw(t, "near")
			}
			matchLen := rapid.IntRange(minMatch, 18).Draw(t, "match")
			if rapid.IntRange(0, 3).Draw(t, "long match") == 0 {
				matchLen = rapid.IntRange(19, 1200).Draw(t, "match len")
			}
			b = appendSequence(b, lit, offset, matchLen)
			out += matchLen
		}
		if rapid.IntRange(0, 4).Draw(t, "no end") != 0 {
			b = appendLast(b, rapid.SliceOfN(rapid.Byte(), 0, 40).Draw(t, "last"))
		}
		if len(b) > 0 && rapid.IntRange(0, 3).Draw(t, "damage") == 0 {
			b[rapid.IntRange(0, len(b)-1).Draw(t, "at")] = rapid.Byte().Draw(t, "byte")
		}
		switch rapid.IntRange(0, 7).Draw(t, "cut") {
		case 0, 1:
			if len(b) > 0 {
				b = b[:rapid.IntRange(0, len(b)-1).Draw(t, "cut at")]
			}
		case 2:
			b = b[:max(len(b)-rapid.IntRange(1, 4).Draw(t, "cut near the end"), 0)]
		}
		return b
	})
}

// dstLenGen draws a destination size around the decoded size of block:
// exact, short by a little or a lot, or with room to spare.
func dstLenGen(t *rapid.T, block []byte) int {
	n, err := reference.DecompressBlock(make([]byte, 1<<17), block)
	if err != nil {
		n = rapid.IntRange(0, 4096).Draw(t, "any size")
	}
	return rapid.OneOf(rapid.Just(n), rapid.IntRange(max(n-64, 0), n+64), rapid.IntRange(0, n+4096)).Draw(t, "dstLen")
}

// Checks PAGE-6: the assembly loop and the Go path, each compared with the
// reference (compareDecoders), on blocks built sequence by sequence with
// the offsets, lengths and faults that steer each path of the loop.
func TestDecompressBlockSequencesRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		block := blockGen().Draw(t, "block")
		compareDecoders(t, block, dstLenGen(t, block))
	})
}

// Checks PAGE-6: decodeFast stops only at the start of a sequence, having
// decoded every sequence before it as the checked path does, so that the
// checked path takes over with the same errors.
func TestDecodeFastStopsAtSequenceStart(t *testing.T) {
	if !useFast {
		t.Skip("no assembly loop on this platform")
	}
	rapid.Check(t, func(t *rapid.T) {
		block := blockGen().Draw(t, "block")
		dstLen := dstLenGen(t, block)
		got := make([]byte, dstLen)
		in, out, last := 0, 0, false
		if len(block) >= fastSrcRoom && dstLen >= fastDstRoom {
			in, out, last = decodeFast(got, block, 0, 0)
		}
		want := make([]byte, dstLen)
		at, wout, done := 0, 0, false
		for at < in {
			if done {
				t.Fatalf("decodeFast went on past the last sequence, to %d", in)
			}
			var err error
			if at, wout, done, err = sequence(want, block, at, wout); err != nil {
				t.Fatalf("decodeFast passed the checked path's error %v at %d", err, at)
			}
		}
		if at != in || wout != out || done != last {
			t.Fatalf("decodeFast stopped at %d/%d (last %v), not at a sequence start (%d/%d, last %v)", in, out, last, at, wout, done)
		}
		if !bytes.Equal(got[:out], want[:out]) {
			t.Fatalf("decodeFast's %d bytes differ from the checked path's", out)
		}
	})
}

// Checks PAGE-6: a length field above MaxLengthField is corrupt for both paths
// even where dst and src have room for it, and one of exactly MaxLengthField is
// not.
func TestDecompressBlockMaxLength(t *testing.T) {
	for _, c := range []struct {
		name   string
		litLen int
		match  int
		err    error
	}{
		{"literals at the limit", MaxLengthField, 0, nil},
		{"literals past the limit", MaxLengthField + 1, 0, ErrCorrupt},
		{"match at the limit", 20, MaxLengthField + minMatch, nil},
		{"match past the limit", 20, MaxLengthField + minMatch + 1, ErrCorrupt},
	} {
		lit := make([]byte, c.litLen)
		for i := range lit {
			lit[i] = byte(i * 7)
		}
		var block []byte
		if c.match == 0 {
			block = appendSequence(nil, lit, 1, minMatch) // long literals, not the last sequence
		} else {
			block = appendSequence(nil, lit, 3, c.match)
		}
		block = appendLast(block, make([]byte, 64))
		dstLen := c.litLen + c.match + 4096
		for _, fast := range []bool{true, false} {
			dst := make([]byte, dstLen)
			_, err := decompressBlock(dst, block, fast)
			if !errors.Is(err, c.err) || (err == nil) != (c.err == nil) {
				t.Errorf("%s, fast %v: %v, want %v", c.name, fast, err, c.err)
			}
		}
		want := make([]byte, dstLen)
		_, werr := reference.DecompressBlock(want, block)
		if (werr == nil) != (c.err == nil) {
			t.Errorf("%s: reference gives %v", c.name, werr)
		}
	}
}

// Checks PAGE-6: long matches after short literals and long literal runs,
// whose first bytes the assembly loop moves without a length branch, at
// the lengths around those moves' sizes (a match's 64 bytes, a run's 32),
// with short matches after long runs, with a first length byte of 255 (a
// run of length bytes), at offsets on both sides of 32, followed by 8 or
// 56 bytes of further sequences, and into every destination size from 40
// bytes more than the output down to 80 bytes less, past where the loop
// hands over to the checked path: each against the reference
// (compareDecoders), and the output in full.
func TestDecompressBlockLongSequences(t *testing.T) {
	lit := func(n, seed int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*seed + seed>>1)
		}
		return b
	}
	for _, matchLen := range []int{4, 18, 19, 32, 33, 63, 64, 65, 100, 273, 274, 275, 600} {
		for _, offset := range []int{8, 16, 31, 32, 33, 200, 264} {
			for _, litLen := range []int{0, 14, 15, 16, 31, 32, 33, 47, 100, 269, 270, 271} {
				for _, after := range []int{0, 6} {
					// Before runs of length bytes, 3,200 bytes of output: a
					// misread length then makes an offset, read from the
					// wrong bytes, that is still in range.
					before := 20
					if litLen >= 270 || matchLen >= 274 {
						before = 3000
					}
					if offset > 200+before+litLen {
						continue
					}
					block := appendSequence(nil, lit(200, 13), 7, before)
					block = appendSequence(block, lit(litLen, matchLen), offset, matchLen)
					for i := range after + 1 {
						block = appendSequence(block, lit(5, i), offset, 6)
					}
					block = appendLast(block, lit(9, 3))
					n, err := reference.DecompressBlock(make([]byte, 1<<16), block)
					if err != nil {
						t.Fatalf("match %d, offset %d, literals %d: reference: %v", matchLen, offset, litLen, err)
					}
					for dstLen := n + 40; dstLen >= max(n-80, 0); dstLen-- {
						compareDecoders(t, block, dstLen)
					}
				}
			}
		}
	}
}

// Checks PAGE-6 at the end of a block, where the assembly loop copies
// exactly: a last run of 0 to 300 literals (under 5, a block that breaks
// LZ4's end-of-block conditions, which both accept: PAGE-6), after a sequence of 3 to 40
// literals and a match of 4 to 40 bytes at offsets 1 to 40 and 200 (byte
// by byte where it ends near the end of dst), into every destination size
// from 40 bytes more than the output down to 60 bytes less: each against
// the reference (compareDecoders), and the output in full.
func TestDecompressBlockTail(t *testing.T) {
	lit := func(n, seed int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*seed + seed>>1)
		}
		return b
	}
	for _, lastLen := range []int{0, 1, 4, 5, 9, 14, 15, 16, 17, 31, 32, 33, 100, 269, 270, 300} {
		for _, matchLen := range []int{4, 7, 12, 16, 17, 18, 19, 33, 40} {
			for offset := 1; offset <= 200; offset++ {
				if offset > 40 && offset != 200 {
					continue
				}
				for _, litLen := range []int{3, 15, 16, 21, 40} {
					block := appendSequence(nil, lit(200, 11), 7, 20)
					block = appendSequence(block, lit(litLen, offset), offset, matchLen)
					block = appendLast(block, lit(lastLen, matchLen))
					n, err := reference.DecompressBlock(make([]byte, 1<<16), block)
					if err != nil {
						t.Fatalf("last %d, literals %d, match %d, offset %d: reference: %v", lastLen, litLen, matchLen, offset, err)
					}
					for dstLen := n + 40; dstLen >= max(n-60, 0); dstLen-- {
						compareDecoders(t, block, dstLen)
					}
				}
			}
		}
	}
}

// Checks PAGE-6: without the fast flag, as on an amd64 CPU without SSSE3
// (whose PSHUFB the assembly loop needs), every sequence is decoded in Go
// and the assembly loop is never entered, however much room there is.
func TestDecodeWithoutFastFlagStaysInGo(t *testing.T) {
	saved := fastLoop
	t.Cleanup(func() { fastLoop = saved })
	entered := 0
	fastLoop = func(dst, src []byte, in, out int) (int, int, bool) {
		entered++
		return in, out, false
	}
	page := make([]byte, 4096)
	for i := range page {
		page[i] = byte(i / 7 % 13)
	}
	block := make([]byte, CompressBlockBound(len(page)))
	n, err := CompressBlock(block, page)
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]byte, len(page)+64)
	got, err := decompressBlock(dst, block[:n], false)
	if err != nil || !bytes.Equal(dst[:got], page) {
		t.Fatalf("decoded %d bytes, %v, or they differ", got, err)
	}
	if entered != 0 {
		t.Fatalf("the assembly loop was entered %d times without the fast flag", entered)
	}
	if _, err := decompressBlock(dst, block[:n], true); err != nil || entered == 0 {
		t.Fatalf("with the fast flag: %v, the loop entered %d times", err, entered)
	}
}
