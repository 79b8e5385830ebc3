package fastlz4

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"
	"sync"

	"github.com/lz4warp/lz4warp/reference"
)

// Parameters of the canonical parse, as in package reference.
const (
	minMatch     = reference.MinMatch
	lastLiterals = reference.LastLiterals
	mfLimit      = reference.MFLimit
	hashLog      = reference.HashLog
	hashPrime    = reference.HashPrime
	MaxBlockSize = reference.MaxBlockSize
	PageSize     = reference.PageSize
	PageBound    = reference.PageBound
	RawThreshold = reference.RawThreshold
)

// Kind is how a compressed page is stored (PAGE-2); the values are those of
// package reference.
type Kind = reference.Kind

// Page kinds.
const (
	KindSame = reference.KindSame
	KindLZ4  = reference.KindLZ4
	KindRaw  = reference.KindRaw
)

// Errors. A block that does not fit dst is ErrShortBuffer, exactly when
// reference.CompressBlock reports its own ErrShortBuffer.
var (
	ErrShortBuffer = errors.New("fastlz4: destination buffer too short")
	ErrCorrupt     = errors.New("fastlz4: corrupt LZ4 block")
	ErrTooLarge    = errors.New("fastlz4: block larger than 65535 bytes")
	ErrBadKind     = errors.New("fastlz4: invalid compressed page")
)

// CompressBlockBound is the largest block CompressBlock can produce for n
// input bytes.
func CompressBlockBound(n int) int { return reference.CompressBlockBound(n) }

// Encoder holds the hash table of the canonical parse. Reusing one Encoder
// for many blocks costs no allocation and no clearing. An Encoder is not
// safe for concurrent use; the package-level functions draw Encoders from a
// pool.
type Encoder struct {
	// table[h] describes the latest position q with hash h (PARSE-1) as
	// u32(q)<<32 | gen<<16 | q+1. Keeping u32(q) saves the dependent load
	// that verifies a candidate (PARSE-3); the generation tag gen, one per
	// block, makes entries of earlier blocks mismatch, so the table is
	// cleared only when gen wraps.
	table [1 << hashLog]uint64
	gen   uint64
}

var encoders = sync.Pool{New: func() any { return new(Encoder) }}

// CompressBlock writes the canonical LZ4 block of src (at most MaxBlockSize
// bytes) into dst, the same bytes as reference.CompressBlock.
func CompressBlock(dst, src []byte) (int, error) {
	e := encoders.Get().(*Encoder)
	n, err := e.CompressBlock(dst, src)
	encoders.Put(e)
	return n, err
}

// EncodePage compresses one page into dst, which must hold PageBound bytes,
// and returns the kind and the payload length: the same as
// reference.EncodePage.
func EncodePage(dst []byte, page *[PageSize]byte) (Kind, int) {
	e := encoders.Get().(*Encoder)
	k, n := e.EncodePage(dst, page)
	encoders.Put(e)
	return k, n
}

func hash(u uint32) uint32 { return (u * hashPrime) >> (32 - hashLog) }

// IsSameFilled reports whether every 8-byte word of page equals the first
// (PAGE-3). Each word equals the first exactly when each equals the one
// before it, that is when the page equals itself shifted by 8 bytes: one
// vectorised comparison.
func IsSameFilled(page *[PageSize]byte) bool {
	return bytes.Equal(page[8:], page[:PageSize-8])
}

// EncodePage is the package-level EncodePage on e's table.
func (e *Encoder) EncodePage(dst []byte, page *[PageSize]byte) (Kind, int) {
	if len(dst) < PageBound {
		panic("fastlz4: EncodePage needs a destination of PageBound bytes")
	}
	if IsSameFilled(page) {
		return KindSame, copy(dst, page[:8])
	}
	// PAGE-5: a block of RawThreshold bytes or more is stored raw; the
	// encoder gives up as soon as the block must reach that size.
	if n, err := e.CompressBlock(dst[:RawThreshold-1], page[:]); err == nil {
		return KindLZ4, n
	}
	return KindRaw, copy(dst, page[:])
}

// CompressBlock is the package-level CompressBlock on e's table.
func (e *Encoder) CompressBlock(dst, src []byte) (int, error) {
	n := len(src)
	if n > MaxBlockSize {
		return 0, ErrTooLarge
	}
	// With cap = len, the bounds checks of two-index slices, which Go
	// makes against the capacity, hold against the length.
	src = src[:n:n]
	e.gen = (e.gen + 1) & 0xffff
	if e.gen == 0 {
		clear(e.table[:])
		e.gen = 1
	}
	tag := e.gen << 16
	table := &e.table
	out, anchor := 0, 0
	// The block cannot fit once the literals pending since anchor reach
	// litLimit: the final block holds at least those literals and a token.
	litLimit := len(dst) - out + anchor
	if n >= mfLimit {
		last := n - mfLimit            // last visited position (PARSE-2, PARSE-6)
		matchLimit := n - lastLiterals // a match ends at or before it (PARSE-4)
		p := 0
		for {
			// Find the next position whose candidate verifies. The scan
			// stops after the last visited position or where the pending
			// literals alone no longer fit, whichever comes first.
			stop := min(last+1, litLimit)
			var c int
			p, c = scan(table, src, tag, p, stop)
			if p >= stop {
				if p >= litLimit {
					return 0, ErrShortBuffer
				}
				break
			}
			// PARSE-4: extend 8 bytes at a time, then byte by byte.
			end, ref := p+minMatch, c+minMatch
			for end+8 <= matchLimit {
				x := binary.LittleEndian.Uint64(src[end:end+8]) ^ binary.LittleEndian.Uint64(src[ref:ref+8])
				if x != 0 {
					end += bits.TrailingZeros64(x) >> 3
					goto extended
				}
				end += 8
				ref += 8
			}
			for end < matchLimit && src[end] == src[ref] {
				end++
				ref++
			}
		extended:
			// PARSE-7: token, literal length, literals, offset, match length.
			litLen, matchLen := p-anchor, end-p-minMatch
			need := 1 + litLen + 2
			if litLen >= 15 {
				need += (litLen-15)/255 + 1
			}
			if matchLen >= 15 {
				need += (matchLen-15)/255 + 1
			}
			if need > len(dst)-out {
				return 0, ErrShortBuffer
			}
			tok := &dst[out]
			out++
			if litLen >= 15 {
				*tok = 15 << 4
				out = putLength(dst, out, litLen-15)
			} else {
				*tok = byte(litLen) << 4
			}
			if litLen <= 16 && len(dst)-out >= 16 && len(src)-anchor >= 16 {
				// Short literals: one 16-byte move; the bytes past litLen
				// are overwritten by what follows or lie past the block.
				*(*[16]byte)(dst[out:]) = *(*[16]byte)(src[anchor:])
				out += litLen
			} else {
				out += copy(dst[out:], src[anchor:p])
			}
			binary.LittleEndian.PutUint16(dst[out:], uint16(p-c))
			out += 2
			if matchLen >= 15 {
				*tok |= 15
				out = putLength(dst, out, matchLen-15)
			} else {
				*tok |= byte(matchLen)
			}
			insert(table, src, tag, p+1, min(end, last+1))
			p, anchor = end, end
			litLimit = len(dst) - out + anchor
		}
	}
	// PARSE-6: the block ends with the remaining bytes as literals.
	litLen := n - anchor
	need := 1 + litLen
	if litLen >= 15 {
		need += (litLen-15)/255 + 1
	}
	if need > len(dst)-out {
		return 0, ErrShortBuffer
	}
	if litLen >= 15 {
		dst[out] = 15 << 4
		out = putLength(dst, out+1, litLen-15)
	} else {
		dst[out] = byte(litLen) << 4
		out++
	}
	out += copy(dst[out:], src[anchor:])
	return out, nil
}

// scan visits positions p, p+1, ... below stop, entering each in the table
// (PARSE-2), and returns the first whose candidate verifies (PARSE-3),
// with that candidate, or stop. The caller guarantees stop+7 <= len(src)
// (stop <= len(src)-11).
func scan(table *[1 << hashLog]uint64, src []byte, tag uint64, p, stop int) (int, int) {
	// Four positions per 8-byte load v: the word at p+k is v>>(8k) cut to
	// 32 bits, and sits in the top half of its key as v<<(32-8k) with the
	// low half cleared. An entry matches when its word equals the current
	// one and its tag is this block's: entry ^ key is then c+1, between 1
	// and 0xffff.
	for ; p+4 <= stop; p += 4 {
		v := binary.LittleEndian.Uint64(src[p : p+8])
		pos := tag | uint64(p+1)
		cur := v << 32 // each key is cur<<32 | tag, cur = u32 of one position
		h := hash(uint32(v))
		x := table[h] ^ (cur | tag)
		table[h] = cur | pos
		if x-1 < 0xffff {
			return p, int(x) - 1
		}
		cur = v << 24 &^ 0xffffffff
		h = hash(uint32(v >> 8))
		x = table[h] ^ (cur | tag)
		table[h] = cur | (pos + 1)
		if x-1 < 0xffff {
			return p + 1, int(x) - 1
		}
		cur = v << 16 &^ 0xffffffff
		h = hash(uint32(v >> 16))
		x = table[h] ^ (cur | tag)
		table[h] = cur | (pos + 2)
		if x-1 < 0xffff {
			return p + 2, int(x) - 1
		}
		cur = v << 8 &^ 0xffffffff
		h = hash(uint32(v >> 24))
		x = table[h] ^ (cur | tag)
		table[h] = cur | (pos + 3)
		if x-1 < 0xffff {
			return p + 3, int(x) - 1
		}
	}
	for ; p < stop; p++ {
		cur := uint64(binary.LittleEndian.Uint32(src[p : p+4]))
		h := hash(uint32(cur))
		key := cur<<32 | tag
		x := table[h] ^ key
		table[h] = key | uint64(p+1)
		if x-1 < 0xffff {
			return p, int(x) - 1
		}
	}
	return stop, 0
}

// insert enters positions lo to hi-1 in the table (PARSE-2: positions
// inside a match enter it too).
func insert(table *[1 << hashLog]uint64, src []byte, tag uint64, lo, hi int) {
	q := lo
	for ; q+4 <= hi; q += 4 {
		v := binary.LittleEndian.Uint64(src[q : q+8])
		pos := tag | uint64(q+1)
		table[hash(uint32(v))] = v<<32 | pos
		table[hash(uint32(v>>8))] = v<<24&^0xffffffff | (pos + 1)
		table[hash(uint32(v>>16))] = v<<16&^0xffffffff | (pos + 2)
		table[hash(uint32(v>>24))] = v<<8&^0xffffffff | (pos + 3)
	}
	for ; q < hi; q++ {
		cur := uint64(binary.LittleEndian.Uint32(src[q : q+4]))
		table[hash(uint32(cur))] = cur<<32 | tag | uint64(q+1)
	}
}

// putLength writes the extension bytes of a length whose 4-bit field is 15;
// v is the length less 15.
func putLength(dst []byte, out, v int) int {
	for ; v >= 255; v -= 255 {
		dst[out] = 255
		out++
	}
	dst[out] = byte(v)
	return out + 1
}
