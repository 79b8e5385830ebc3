package fastlz4

import (
	"encoding/binary"
	"fmt"
)

// MaxLengthField bounds a decoded length field, as reference.DecompressBlock
// does: no valid block needs a longer one, and a longer one is ErrCorrupt.
// The GPU's decoder checks the same bound.
const MaxLengthField = MaxBlockSize + 65535

// decodeFast takes a sequence only when it starts with this many bytes of
// src and of dst left (decode_amd64.s says why these suffice).
const (
	fastSrcRoom = 19
	fastDstRoom = 38
)

// fastLoop is decodeFast; a test replaces it to check that a decode
// without the fast flag (a CPU without SSSE3) never enters the assembly.
var fastLoop = decodeFast

// DecompressBlock decodes the LZ4 block src into dst and returns the number
// of bytes written. It accepts and rejects the same inputs as
// reference.DecompressBlock, with ErrCorrupt where the reference reports
// its ErrCorrupt and ErrShortBuffer where it reports its ErrShortBuffer.
// It never reads outside src nor writes outside dst; bytes of dst past the
// returned length may be overwritten. With an error it returns 0.
func DecompressBlock(dst, src []byte) (int, error) {
	return decompressBlock(dst, src, useFast)
}

// DecompressBlockPrefix decodes the LZ4 block src into dst[prefix:], where
// dst[:prefix] is the data before the block that its matches may reach:
// the window of linked blocks in an LZ4 frame, or a dictionary. It returns
// the end of the output in dst. Unlike DecompressBlock it takes blocks of
// any size: a length field is bounded by dst alone, so blocks of up to
// 4 MiB (the LZ4 frame format's largest) decode. It reports ErrCorrupt or
// ErrShortBuffer (the block decodes past the end of dst); it never reads
// outside src nor writes outside dst[prefix:], and bytes past the returned
// end may be overwritten.
func DecompressBlockPrefix(dst []byte, prefix int, src []byte) (int, error) {
	if prefix < 0 || prefix > len(dst) {
		return 0, ErrShortBuffer
	}
	return decompressFrom(dst, src, prefix, maxPrefixLength, useFast)
}

// maxPrefixLength bounds DecompressBlockPrefix's length fields far above
// any block's, so that sums of lengths cannot overflow; dst bounds them
// first.
const maxPrefixLength = 1 << 30

// decompressBlock is DecompressBlock, with the assembly loop when fast is
// set and in Go alone otherwise.
func decompressBlock(dst, src []byte, fast bool) (int, error) {
	return decompressFrom(dst, src, 0, MaxLengthField, fast)
}

// decompressFrom decodes src into dst from out, where dst[:out] is history
// the matches may reach, with length fields bounded by maxLen (the
// assembly loop leaves any length above MaxLengthField to the Go path).
func decompressFrom(dst, src []byte, out, maxLen int, fast bool) (int, error) {
	// With cap = len, the bounds checks of two-index slices, which Go
	// makes against the capacity, hold against the length.
	dst, src = dst[:len(dst):len(dst)], src[:len(src):len(src)]
	in := 0
	for {
		if fast && len(src)-in >= fastSrcRoom && len(dst)-out >= fastDstRoom {
			// Whole sequences, up to the first it leaves to the checks
			// below: anything unusual.
			var last bool
			if in, out, last = fastLoop(dst, src, in, out); last {
				return out, nil
			}
		}
		// With room on both sides, a sequence takes the fast path: every
		// check of sequence that can fail there, in the same order, and
		// no other.
		if len(src)-in >= 18 && len(dst)-out >= 16 {
			s := (*[18]byte)(src[in : in+18])
			token := s[0]
			var offset int
			if lit := uint(token >> 4); lit < 15 {
				// Fewer than 15 literals: one 16-byte move, inside
				// both windows.
				*(*[16]byte)(dst[out : out+16]) = *(*[16]byte)(s[1:17])
				offset = int(s[1+lit]) | int(s[2+lit])<<8
				in += 3 + int(lit)
				out += int(lit)
			} else {
				litLen, next, err := readLength(src, in+1, 15, maxLen)
				if err != nil {
					return 0, err
				}
				if litLen > len(src)-next {
					return 0, ErrCorrupt
				}
				if litLen > len(dst)-out {
					return 0, ErrShortBuffer
				}
				copy(dst[out:out+litLen], src[next:next+litLen])
				in, out = next+litLen, out+litLen
				if in == len(src) {
					return out, nil // the last sequence has literals only
				}
				if len(src)-in < 2 {
					return 0, ErrCorrupt
				}
				offset = int(src[in]) | int(src[in+1])<<8
				in += 2
			}
			if offset == 0 || offset > out {
				return 0, ErrCorrupt
			}
			matchLen := int(token&15) + minMatch
			if matchLen == 15+minMatch {
				var err error
				if matchLen, in, err = readLength(src, in, 15, maxLen); err != nil {
					return 0, err
				}
				matchLen += minMatch
			}
			if matchLen <= 24 && offset >= 8 && len(dst)-out >= 24 {
				// A short match: fixed moves that may write past it,
				// inside dst, each reading only bytes written before it.
				m := (*[24]byte)(dst[out : out+24])
				f := (*[24]byte)(dst[out-offset : out-offset+24])
				*(*[8]byte)(m[0:8]) = *(*[8]byte)(f[0:8])
				*(*[8]byte)(m[8:16]) = *(*[8]byte)(f[8:16])
				*(*[8]byte)(m[16:24]) = *(*[8]byte)(f[16:24])
			} else {
				if matchLen > len(dst)-out {
					return 0, ErrShortBuffer
				}
				copyMatch(dst, out, offset, matchLen)
			}
			out += matchLen
			continue
		}
		var err error
		var done bool
		if in, out, done, err = sequenceLimit(dst, src, in, out, maxLen); err != nil {
			return 0, err
		} else if done {
			return out, nil
		}
	}
}

// sequence decodes one sequence at src[in:] into dst[out:], with every
// check of reference.DecompressBlock in its order. done reports the last
// sequence; on an error, out is 0.
func sequence(dst, src []byte, in, out int) (int, int, bool, error) {
	return sequenceLimit(dst, src, in, out, MaxLengthField)
}

// sequenceLimit is sequence with length fields bounded by maxLen.
func sequenceLimit(dst, src []byte, in, out, maxLen int) (int, int, bool, error) {
	if in >= len(src) {
		return 0, 0, false, ErrCorrupt
	}
	token := src[in]
	in++
	litLen, in, err := readLength(src, in, int(token>>4), maxLen)
	if err != nil {
		return 0, 0, false, err
	}
	if litLen > len(src)-in {
		return 0, 0, false, ErrCorrupt
	}
	if litLen > len(dst)-out {
		return 0, 0, false, ErrShortBuffer
	}
	out += copy(dst[out:], src[in:in+litLen])
	in += litLen
	if in == len(src) {
		return in, out, true, nil // the last sequence has literals only
	}
	if len(src)-in < 2 {
		return 0, 0, false, ErrCorrupt
	}
	offset := int(binary.LittleEndian.Uint16(src[in:]))
	in += 2
	if offset == 0 || offset > out {
		return 0, 0, false, ErrCorrupt
	}
	matchLen, in, err := readLength(src, in, int(token&15), maxLen)
	if err != nil {
		return 0, 0, false, err
	}
	matchLen += minMatch
	if matchLen > len(dst)-out {
		return 0, 0, false, ErrShortBuffer
	}
	copyMatch(dst, out, offset, matchLen)
	return in, out + matchLen, false, nil
}

// copyMatch copies length bytes from out-offset to out, where the source
// may overlap the destination (offset < length repeats a pattern). The
// caller has checked that out+length <= len(dst) and offset <= out. Chunks
// may write past out+length while they stay inside dst; the last bytes that
// no chunk can cover are copied one at a time.
func copyMatch(dst []byte, out, offset, length int) {
	from, end := out-offset, out+length
	switch {
	case offset >= 16:
		// Each 16-byte load reads only bytes written before it.
		for ; out < end && out+16 <= len(dst); out, from = out+16, from+16 {
			*(*[16]byte)(dst[out : out+16]) = *(*[16]byte)(dst[from : from+16])
		}
	case offset >= 8:
		for ; out < end && out+8 <= len(dst); out, from = out+8, from+8 {
			*(*[8]byte)(dst[out : out+8]) = *(*[8]byte)(dst[from : from+8])
		}
	case out+8 <= len(dst):
		// A period shorter than 8: write the first 8 bytes one at a time,
		// then copy 8 bytes at a time from a whole number of periods back,
		// at least 8 bytes away.
		d := (*[8]byte)(dst[out : out+8])
		for i := range d {
			d[i] = dst[from+i]
		}
		step := offset * ((8 + offset - 1) / offset)
		for out += 8; out < end && out+8 <= len(dst); out += 8 {
			*(*[8]byte)(dst[out : out+8]) = *(*[8]byte)(dst[out-step : out-step+8])
		}
	}
	for ; out < end; out++ {
		dst[out] = dst[out-offset]
	}
}

// readLength adds the extension bytes of a 4-bit length field v when it
// holds 15, up to maxLen.
func readLength(src []byte, in, v, maxLen int) (int, int, error) {
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
		if v > maxLen {
			return 0, 0, ErrCorrupt
		}
		if b != 255 {
			return v, in, nil
		}
	}
}

// fillPageGo stores word, little-endian, in every 8 bytes of page: the
// same-filled page of PAGE-3.
func fillPageGo(page *[PageSize]byte, word uint64) {
	if word == 0 {
		clear(page[:]) // the common same-filled page
		return
	}
	var line [64]byte
	for i := 0; i < len(line); i += 8 {
		binary.LittleEndian.PutUint64(line[i:], word)
	}
	for i := 0; i < PageSize; i += len(line) {
		*(*[64]byte)(page[i : i+64]) = line
	}
}

// DecodePage restores a page from its kind and payload, accepting exactly
// the payloads reference.DecodePage accepts (PAGE-6).
func DecodePage(dst *[PageSize]byte, kind Kind, data []byte) error {
	if err := PayloadError(kind, len(data)); err != nil {
		return err
	}
	switch kind {
	case KindSame:
		fillPage(dst, binary.LittleEndian.Uint64(data))
	case KindLZ4:
		n, err := DecompressBlock(dst[:], data)
		if err != nil {
			return err
		}
		if n != PageSize {
			return ShortPageError(n)
		}
	case KindRaw:
		copy(dst[:], data)
	}
	return nil
}

// PayloadError is DecodePage's error for a payload of n bytes of the given
// kind that no decoding is needed to reject (an unknown kind, a same-filled
// payload of other than 8 bytes, a raw one of other than 4,096), nil for
// any other.
func PayloadError(kind Kind, n int) error {
	switch kind {
	case KindSame:
		if n != 8 {
			return fmt.Errorf("%w: same-filled payload of %d bytes, want 8", ErrBadKind, n)
		}
	case KindLZ4:
	case KindRaw:
		if n != PageSize {
			return fmt.Errorf("%w: raw payload of %d bytes, want %d", ErrBadKind, n, PageSize)
		}
	default:
		return fmt.Errorf("%w: unknown kind %d", ErrBadKind, uint8(kind))
	}
	return nil
}

// ShortPageError is DecodePage's error for an LZ4 block that decodes,
// without an error, to n bytes other than a page's.
func ShortPageError(n int) error {
	return fmt.Errorf("%w: block decodes to %d bytes, want %d", ErrCorrupt, n, PageSize)
}
