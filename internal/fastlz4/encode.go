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
// bytes) into dst, the same bytes as reference.CompressBlock, and returns
// its length. It reports ErrShortBuffer exactly when the block is longer
// than dst; CompressBlockBound(len(src)) bytes are always enough. Bytes of
// dst past the block may be overwritten.
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
	src, dst = src[:n:n], dst[:len(dst):len(dst)]
	var err error
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
		p, cursor := 0, 0              // cursor: where the parse resumes (PARSE-5)
		for {
			// Find the next position whose candidate verifies. The scan
			// stops after the last visited position or where the pending
			// literals alone no longer fit, whichever comes first.
			stop := min(last+1, litLimit)
			var c int
			p, c = scan(table, src, tag, p, stop, cursor)
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
			if litLen, matchLen := p-anchor, end-p-minMatch; litLen < 15 && matchLen < 15 &&
				len(dst)-out >= 17 && len(src)-anchor >= 16 {
				// The common sequence: no length bytes, and room for a
				// 16-byte move of the literals (the bytes past them are
				// overwritten next or lie past the block).
				dst[out] = byte(litLen<<4 | matchLen)
				*(*[16]byte)(dst[out+1 : out+17]) = *(*[16]byte)(src[anchor : anchor+16])
				out += 1 + litLen
				dst[out] = byte(p - c)
				dst[out+1] = byte((p - c) >> 8)
				out += 2
			} else if out, err = putSequence(dst, out, src[anchor:p], p-c, matchLen); err != nil {
				return 0, err
			}
			// PARSE-2: the positions inside the match enter the table too:
			// the scan goes on from p+1, ignoring matches before end.
			p, cursor, anchor = p+1, end, end
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
// (PARSE-2), and returns the first at or after cursor whose candidate
// verifies (PARSE-3), with that candidate, or stop. Visiting the positions
// inside a match with the same loop, rather than a separate one, spares a
// hard-to-predict loop exit per sequence. The caller guarantees
// stop+7 <= len(src).
func scan(table *[1 << hashLog]uint64, src []byte, tag uint64, p, stop, cursor int) (int, int) {
	// Four positions per 8-byte load v: the word at p+k is v>>(8k) cut to
	// 32 bits, and sits in the top half of its key as v<<(32-8k) with the
	// low half cleared. An entry matches when its word equals the current
	// one and its tag is this block's: entry ^ key is then c+1, between 1
	// and 0xffff; before cursor the result is forced to all ones.
	for ; p+4 <= stop; p += 4 {
		v := binary.LittleEndian.Uint64(src[p : p+8])
		k0 := v<<32 | tag
		h0 := hash(uint32(v))
		c0 := (table[h0] ^ k0) - 1
		table[h0] = k0 | uint64(p+1)
		if p < cursor {
			c0 = ^uint64(0)
		}
		if c0 < 0xffff {
			return p, int(c0)
		}
		k1 := v<<24&^0xffffffff | tag
		h1 := hash(uint32(v >> 8))
		c1 := (table[h1] ^ k1) - 1
		table[h1] = k1 | uint64(p+2)
		if p+1 < cursor {
			c1 = ^uint64(0)
		}
		if c1 < 0xffff {
			return p + 1, int(c1)
		}
		k2 := v<<16&^0xffffffff | tag
		h2 := hash(uint32(v >> 16))
		c2 := (table[h2] ^ k2) - 1
		table[h2] = k2 | uint64(p+3)
		if p+2 < cursor {
			c2 = ^uint64(0)
		}
		if c2 < 0xffff {
			return p + 2, int(c2)
		}
		k3 := v<<8&^0xffffffff | tag
		h3 := hash(uint32(v >> 24))
		c3 := (table[h3] ^ k3) - 1
		table[h3] = k3 | uint64(p+4)
		if p+3 < cursor {
			c3 = ^uint64(0)
		}
		if c3 < 0xffff {
			return p + 3, int(c3)
		}
	}
	for ; p < stop; p++ {
		key := uint64(binary.LittleEndian.Uint32(src[p:p+4]))<<32 | tag
		h := hash(uint32(key >> 32))
		c := (table[h] ^ key) - 1
		table[h] = key | uint64(p+1)
		if p < cursor {
			c = ^uint64(0)
		}
		if c < 0xffff {
			return p, int(c)
		}
	}
	return stop, 0
}

// putSequence writes a sequence of the given literals and a match of
// matchLen+4 bytes at offset, or reports ErrShortBuffer when it does not
// fit in dst (PARSE-7).
func putSequence(dst []byte, out int, literals []byte, offset, matchLen int) (int, error) {
	litLen := len(literals)
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
	tok := out
	out++
	if litLen >= 15 {
		dst[tok] = 15 << 4
		out = putLength(dst, out, litLen-15)
	} else {
		dst[tok] = byte(litLen) << 4
	}
	out += copy(dst[out:], literals)
	binary.LittleEndian.PutUint16(dst[out:], uint16(offset))
	out += 2
	if matchLen >= 15 {
		dst[tok] |= 15
		out = putLength(dst, out, matchLen-15)
	} else {
		dst[tok] |= byte(matchLen)
	}
	return out, nil
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
