package conformance

import (
	"github.com/lz4warp/lz4warp/reference"
	"pgregory.net/rapid"
)

// Block draws inputs for the block codec (reference.CompressBlock accepts
// up to 65,535 bytes, beyond a page): short inputs around PARSE-6's
// 12-byte limit over a small alphabet, and long inputs whose matches
// reach back as far as a block allows: a match starts at most at n-12, so
// in a 65,535-byte block the largest offset is 65,523.
func Block() *rapid.Generator[[]byte] {
	return rapid.OneOf(shortBlock(), farBlock())
}

func shortBlock() *rapid.Generator[[]byte] {
	return rapid.Custom(func(t *rapid.T) []byte {
		n := rapid.IntRange(0, 40).Draw(t, "n")
		alphabet := rapid.IntRange(1, 4).Draw(t, "alphabet")
		r := newRNG(rapid.Uint64().Draw(t, "seed"))
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a' + byte(r.intn(alphabet))
		}
		return b
	})
}

func farBlock() *rapid.Generator[[]byte] {
	return rapid.Custom(func(t *rapid.T) []byte {
		// Drawn as distances from the limits, which rapid favours (small
		// values first), so that the extremes come up often.
		n := reference.MaxBlockSize - rapid.IntRange(0, 600).Draw(t, "shortfall")
		offset := n - rapid.IntRange(reference.MFLimit, 400).Draw(t, "slack")
		length := rapid.IntRange(4, 300).Draw(t, "length")
		period := rapid.IntRange(1, 8).Draw(t, "period")
		r := newRNG(rapid.Uint64().Draw(t, "seed"))
		b := make([]byte, n)
		// A random chunk at 0, a low-entropy filler of the given period
		// (whose few hashes leave the chunk's table entries alone: the
		// table keeps only the latest position per hash), and the chunk
		// again offset bytes later, clipped to the block.
		r.fill(b[:length])
		r.fill(b[length : length+period])
		for i := length + period; i < n; i++ {
			b[i] = b[i-period]
		}
		for i := 0; i < length && offset+i < n; i++ {
			b[offset+i] = b[i]
		}
		return b
	})
}
