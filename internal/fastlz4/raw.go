package fastlz4

import "encoding/binary"

// The raw-page proof lets EncodePage store an incompressible page raw
// (PAGE-5) without parsing it, with the bytes the parse would give: it
// stores a page raw only where every LZ4 block of the page, whatever its
// parse, is RawThreshold bytes or longer.
//
// Why that holds: call position x (0 <= x <= PageSize-2) a repeat when the
// two bytes at x occur at an earlier position. A match of length L at
// offset d copies its bytes from d back, so the L-1 positions from its
// start to its second last byte are repeats, and matches do not overlap:
// the M matches of a block cover at most R+M bytes, R the page's number of
// repeats. The block holds the other bytes as literals, a token per
// sequence (M+1) and a 2-byte offset per match, at least
// PageSize-(R+M)+3M+1 >= PageSize+1-R bytes: RawThreshold or more where
// R <= maxRepeats. Counting two bytes by a key of their low seenBits bits
// can only count more repeats, never fewer: R is at most the number of
// positions less the number of distinct keys.
const (
	seenBits   = 14 // 16 KiB of seen, in the L1 cache with the table
	seenMask   = 1<<seenBits - 1
	maxRepeats = PageSize + 1 - RawThreshold
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
// in the page being checked. A new gen per page makes the old marks stale
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
	distinct := s.distinctKeys(page)
	return distinct >= 0 && PageSize-1-distinct <= maxRepeats
}

// distinctKeys is countKeys with the next generation of marks.
func (s *seenKeys) distinctKeys(page *[PageSize]byte) int {
	if s.gen++; s.gen == 0 {
		clear(s.seen[:])
		s.gen = 1
	}
	return countKeys(&s.seen, page, s.gen)
}

// countKeysGo marks in seen, with gen, the keys of the two bytes at every
// position of page and returns the number of distinct keys, or -1 where
// more than probeRepeats of the first probeLen positions repeat an earlier
// key, after marking those only. A mark is at most gen (certainlyRaw
// clears them all when gen wraps around), so a key is new where its mark
// is less than gen.
func countKeysGo(seen *[1 << seenBits]byte, page *[PageSize]byte, gen byte) int {
	distinct := 0
	for x := range PageSize - 1 {
		k := binary.LittleEndian.Uint16(page[x:]) & seenMask
		if seen[k] < gen {
			distinct++
			seen[k] = gen
		}
		if x == probeLen-1 && distinct < probeLen-probeRepeats {
			return -1
		}
	}
	return distinct
}
