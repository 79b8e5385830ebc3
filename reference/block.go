package reference

import (
	"encoding/binary"
	"errors"
)

// Parameters of the canonical parse (spec/parse.md).
const (
	MinMatch     = 4  // PARSE-3: shortest match
	LastLiterals = 5  // PARSE-6: the last 5 bytes are always literals
	MFLimit      = 12 // PARSE-6: a match starts at least 12 bytes before the end
	HashLog      = 11 // PARSE-1: log2 of the number of table entries, of two positions each
	HashTableLen = 1 << HashLog
	HashPrime    = 2654435761 // PARSE-1: Knuth's multiplicative constant, as in liblz4
	MaxBlockSize = 65535      // offsets and table entries fit in 16 bits
	maxOffset    = 65535
)

var (
	// ErrShortBuffer reports a destination too small for the output.
	ErrShortBuffer = errors.New("reference: destination buffer too short")
	// ErrCorrupt reports an LZ4 block that violates the block format.
	ErrCorrupt = errors.New("reference: corrupt LZ4 block")
	// ErrTooLarge reports a source longer than MaxBlockSize.
	ErrTooLarge = errors.New("reference: block larger than 65535 bytes")
)

// Hash is the canonical hash of the 4 bytes at a position (PARSE-1).
func Hash(u uint32) uint32 { return (u * HashPrime) >> (32 - HashLog) }

// CompressBlockBound is the largest LZ4 block CompressBlock can produce for
// n input bytes.
func CompressBlockBound(n int) int { return n + n/255 + 16 }

// Sequence is one LZ4 sequence of the canonical parse: LiteralLen literals
// followed by a match of MatchLen bytes at Offset. The final sequence has
// MatchLen 0 and Offset 0.
type Sequence struct {
	LiteralLen, Offset, MatchLen int
}

// Parse returns the canonical sequences of src (PARSE-2 to PARSE-6).
// The candidates for position p are the two most recent earlier positions
// whose 4-byte hash equals p's; every position up to len(src)-MFLimit
// enters the table, whether or not it lies inside a match, which is what
// lets a warp hash 32 consecutive positions at once.
func Parse(src []byte) []Sequence {
	// table[h] holds the latest position with hash h, then the one before
	// it; -1 for none.
	var table [HashTableLen][2]int32
	for i := range table {
		table[i] = [2]int32{-1, -1}
	}
	var seqs []Sequence
	n := len(src)
	anchor, next := 0, 0
	for p := 0; p <= n-MFLimit; p++ {
		cur := binary.LittleEndian.Uint32(src[p:])
		h := Hash(cur)
		cands := table[h]
		table[h] = [2]int32{int32(p), cands[0]}
		if p < next {
			continue
		}
		// PARSE-4: the longer match; of two as long, the nearer.
		length, offset := 0, 0
		for _, c := range cands {
			if c < 0 || binary.LittleEndian.Uint32(src[c:]) != cur {
				continue
			}
			l := matchLength(src, p, int(c))
			if l > length {
				length, offset = l, p-int(c)
			}
		}
		if length == 0 {
			continue
		}
		seqs = append(seqs, Sequence{LiteralLen: p - anchor, Offset: offset, MatchLen: length})
		next = p + length
		anchor = next
	}
	return append(seqs, Sequence{LiteralLen: n - anchor})
}

// matchLength is the length of the match at p with candidate c, whose
// first MinMatch bytes are equal: as long as the bytes are, and ending at
// or before len(src)-LastLiterals (PARSE-4).
func matchLength(src []byte, p, c int) int {
	length := MinMatch
	for p+length < len(src)-LastLiterals && src[c+length] == src[p+length] {
		length++
	}
	return length
}

// CompressBlock writes the canonical LZ4 block of src into dst and returns
// its length. It returns ErrShortBuffer when dst is too small; a dst of
// CompressBlockBound(len(src)) bytes is always enough. With ErrShortBuffer
// it returns 0 and leaves the bytes of dst unspecified.
func CompressBlock(dst, src []byte) (int, error) {
	if len(src) > MaxBlockSize {
		return 0, ErrTooLarge
	}
	out, pos := 0, 0
	for _, s := range Parse(src) {
		need := 1 + s.LiteralLen + lengthExtBytes(s.LiteralLen)
		if s.MatchLen > 0 {
			need += 2 + lengthExtBytes(s.MatchLen-MinMatch)
		}
		if out+need > len(dst) {
			return 0, ErrShortBuffer
		}
		token := byte(min(s.LiteralLen, 15)) << 4
		if s.MatchLen > 0 {
			token |= byte(min(s.MatchLen-MinMatch, 15))
		}
		dst[out] = token
		out++
		out = putLengthExt(dst, out, s.LiteralLen)
		out += copy(dst[out:], src[pos:pos+s.LiteralLen])
		pos += s.LiteralLen
		if s.MatchLen > 0 {
			binary.LittleEndian.PutUint16(dst[out:], uint16(s.Offset))
			out += 2
			out = putLengthExt(dst, out, s.MatchLen-MinMatch)
			pos += s.MatchLen
		}
	}
	return out, nil
}

// lengthExtBytes is the number of extension bytes after a 4-bit length
// field holding v (PARSE-7).
func lengthExtBytes(v int) int {
	if v < 15 {
		return 0
	}
	return (v-15)/255 + 1
}

func putLengthExt(dst []byte, out, v int) int {
	if v < 15 {
		return out
	}
	v -= 15
	for ; v >= 255; v -= 255 {
		dst[out] = 255
		out++
	}
	dst[out] = byte(v)
	return out + 1
}

// DecompressBlock decodes the LZ4 block src into dst and returns the number
// of bytes written. Any input gives either the right output or an error; it
// never reads outside src nor writes outside dst.
func DecompressBlock(dst, src []byte) (int, error) {
	in, out := 0, 0
	for {
		if in >= len(src) {
			return 0, ErrCorrupt
		}
		token := src[in]
		in++
		litLen, next, err := readLength(src, in, int(token>>4))
		if err != nil {
			return 0, err
		}
		in = next
		if litLen > len(src)-in {
			return 0, ErrCorrupt
		}
		if litLen > len(dst)-out {
			return 0, ErrShortBuffer
		}
		out += copy(dst[out:], src[in:in+litLen])
		in += litLen
		if in == len(src) {
			return out, nil // the last sequence has literals only
		}
		if len(src)-in < 2 {
			return 0, ErrCorrupt
		}
		offset := int(binary.LittleEndian.Uint16(src[in:]))
		in += 2
		if offset == 0 || offset > out {
			return 0, ErrCorrupt
		}
		matchLen, next, err := readLength(src, in, int(token&15))
		if err != nil {
			return 0, err
		}
		in = next
		matchLen += MinMatch
		if matchLen > len(dst)-out {
			return 0, ErrShortBuffer
		}
		// Byte by byte: the match may overlap its own output.
		for i := 0; i < matchLen; i++ {
			dst[out+i] = dst[out-offset+i]
		}
		out += matchLen
	}
}

// readLength reads the extension bytes of a 4-bit length field.
func readLength(src []byte, in, v int) (int, int, error) {
	if v != 15 {
		return v, in, nil
	}
	for {
		if in >= len(src) {
			return 0, 0, ErrCorrupt
		}
		b := src[in]
		in++
		v += int(b)
		if v > MaxBlockSize+maxOffset { // longer than any block could need
			return 0, 0, ErrCorrupt
		}
		if b != 255 {
			return v, in, nil
		}
	}
}
