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
// for many blocks costs no allocation. An Encoder is not safe for
// concurrent use; the package-level functions draw Encoders from a pool.
type Encoder struct {
	// table[h] is 1 + the latest position whose hash is h, 0 when none:
	// positions are below 65,535, so they fit in 16 bits with the offset.
	table [1 << hashLog]uint16
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
	clear(e.table[:])
	table := &e.table
	out, anchor := 0, 0
	// The block cannot fit once the literals pending since anchor reach
	// litLimit: the final block holds at least those literals and a token.
	litLimit := len(dst) - out + anchor
	if n >= mfLimit {
		last := n - mfLimit            // last visited position (PARSE-2, PARSE-6)
		matchLimit := n - lastLiterals // a match ends at or before it (PARSE-4)
		for p := 0; p <= last; {
			cur := binary.LittleEndian.Uint32(src[p:])
			h := hash(cur)
			c := int(table[h]) - 1
			table[h] = uint16(p + 1)
			if c < 0 || binary.LittleEndian.Uint32(src[c:]) != cur { // PARSE-3
				p++
				if p >= litLimit {
					return 0, ErrShortBuffer
				}
				continue
			}
			// PARSE-4: extend 8 bytes at a time, then byte by byte.
			end, ref := p+minMatch, c+minMatch
			for end+8 <= matchLimit {
				x := binary.LittleEndian.Uint64(src[end:]) ^ binary.LittleEndian.Uint64(src[ref:])
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
			out += copy(dst[out:], src[anchor:p])
			binary.LittleEndian.PutUint16(dst[out:], uint16(p-c))
			out += 2
			if matchLen >= 15 {
				*tok |= 15
				out = putLength(dst, out, matchLen-15)
			} else {
				*tok |= byte(matchLen)
			}
			// PARSE-2: positions inside the match enter the table too.
			for q := p + 1; q < end && q <= last; q++ {
				table[hash(binary.LittleEndian.Uint32(src[q:]))] = uint16(q + 1)
			}
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
