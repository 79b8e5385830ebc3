package fastlz4

import "encoding/binary"

// The raw-page proof lets EncodePage store an incompressible page raw
// (PAGE-5) without parsing it, with the bytes the parse would give: it
// stores a page raw only where every LZ4 block of the page, whatever its
// parse, is RawThreshold bytes or longer.
//
// Why that holds: call position x (0 <= x <= PageSize-2) a repeat when the
// two bytes at x occur at an earlier even position. A match of length L at
// offset d copies its bytes from d back, so each of the L-1 positions x
// from its start to its second last byte has the two bytes of x-d, and
// those whose x-d is even, at least (L-1)/2 rounded down, are repeats;
// matches do not overlap, and L-3 <= 2*((L-1)/2 rounded down) for every
// L >= 4: the M matches of a block cover at most 2R+3M bytes, R the page's
// number of repeats. The block holds the other bytes as literals, a token
// per sequence (M+1) and a 2-byte offset per match, at least
// PageSize-(2R+3M)+3M+1 = PageSize+1-2R bytes: RawThreshold or more where
// R <= maxRepeats. Only even positions are marked, half the stores of
// marking every position (which bounds the repeats by R <= 2*maxRepeats,
// with 2R+M in place of 2R+3M), at the same margin on random pages: about
// a quarter of maxRepeats is expected either way. Counting two bytes by a
// key of their low seenBits bits can only count more repeats, never fewer.
const (
	seenBits   = 14 // 16 KiB of seen, in the L1 cache with the table
	seenMask   = 1<<seenBits - 1
	maxRepeats = (PageSize + 1 - RawThreshold) / 2
	// The proof runs only where the first 64 bytes have at most 2 zero
	// bytes and at least 16 with the high bit set, and at most
	// probeRepeats of the first probeLen positions are repeats, as on
	// nearly every random page (0.25 zero bytes, 32 high bits and 0.1
	// repeats expected) and on few compressible ones (text has no high
	// bits, memory many zero bytes): heuristics that only decide where the
	// proof's time is spent, never the bytes.
	lookZeros    = 2
	lookHigh     = 16
	probeLen     = 64
	probeRepeats = 2
)

// seenKeys is the memory of the proof: seen[k] == gen where key k occurs
// at an even position of the page being checked, before the position
// looked at. A new gen per page makes the old marks stale
// without clearing 16 KiB.
type seenKeys struct {
	seen [1 << seenBits]byte
	gen  byte
}

// certainlyRaw reports whether every LZ4 block of page is RawThreshold
// bytes or longer (see above). It may report false for such a page.
func (s *seenKeys) certainlyRaw(page *[PageSize]byte) bool {
	// Eight bytes at a time, each count in its own byte: a byte of w adds
	// 1 to its byte of zeros where it is 0, to its byte of high where its
	// high bit is set; the multiplications by ones add up the bytes.
	const low7, ones = 0x7f7f7f7f7f7f7f7f, 0x0101010101010101
	var zeros, high uint64
	for i := 0; i < 64; i += 8 {
		w := binary.LittleEndian.Uint64(page[i:])
		zeros += ^((w&low7 + low7) | w | low7) >> 7
		high += w >> 7 & ones
	}
	if zeros*ones>>56 > lookZeros || high*ones>>56 < lookHigh {
		return false
	}
	fresh := s.freshPositions(page)
	return fresh >= 0 && PageSize-1-fresh <= maxRepeats
}

// freshPositions is countFresh with the next generation of marks.
func (s *seenKeys) freshPositions(page *[PageSize]byte) int {
	if s.gen++; s.gen == 0 {
		clear(s.seen[:])
		s.gen = 1
	}
	return countFresh(&s.seen, page, s.gen)
}

// countFreshGo returns the number of positions of page that are not
// repeats (their key unmarked), marking in seen, with gen, the key of the
// two bytes at every even position after looking it up; or -1 where more
// than probeRepeats of the first probeLen positions are repeats, after
// marking those only. A mark is at most gen (certainlyRaw clears them all
// when gen wraps around), so a key is unmarked where its mark is less than
// gen.
func countFreshGo(seen *[1 << seenBits]byte, page *[PageSize]byte, gen byte) int {
	fresh := 0
	for x := range PageSize - 1 {
		k := binary.LittleEndian.Uint16(page[x:]) & seenMask
		if seen[k] < gen {
			fresh++
		}
		if x%2 == 0 {
			seen[k] = gen
		}
		if x == probeLen-1 && fresh < probeLen-probeRepeats {
			return -1
		}
	}
	return fresh
}
