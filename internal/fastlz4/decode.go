package fastlz4

import (
	"encoding/binary"
	"fmt"
)

// maxLength bounds a decoded length field, as reference.DecompressBlock
// does: no valid block needs a longer one.
const maxLength = MaxBlockSize + 65535

// DecompressBlock decodes the LZ4 block src into dst and returns the number
// of bytes written. It accepts and rejects the same inputs as
// reference.DecompressBlock, with ErrCorrupt where the reference reports
// its ErrCorrupt and ErrShortBuffer where it reports its ErrShortBuffer.
// It never reads outside src nor writes outside dst; bytes of dst past the
// returned length may be overwritten.
func DecompressBlock(dst, src []byte) (int, error) {
	in, out := 0, 0
	for {
		// The common sequence, with room on both sides: fewer than 15
		// literals and a match of at most 18 bytes. It takes every check
		// of the general path below that can fail and no other.
		if len(src)-in >= 17 && len(dst)-out >= 40 {
			token := src[in]
			if token < 15<<4 && token&15 < 15 {
				litLen := int(token >> 4)
				*(*[16]byte)(dst[out:]) = *(*[16]byte)(src[in+1:])
				in += 1 + litLen
				out += litLen
				// in+2 <= len(src): at most 15 of the 17 bytes are used.
				offset := int(src[in]) | int(src[in+1])<<8
				in += 2
				if offset == 0 || offset > out {
					return 0, ErrCorrupt
				}
				// out+24 <= len(dst): at most 14 of the 40 bytes are used.
				if offset >= 8 {
					from := out - offset
					binary.LittleEndian.PutUint64(dst[out:], binary.LittleEndian.Uint64(dst[from:]))
					binary.LittleEndian.PutUint64(dst[out+8:], binary.LittleEndian.Uint64(dst[from+8:]))
					binary.LittleEndian.PutUint64(dst[out+16:], binary.LittleEndian.Uint64(dst[from+16:]))
				} else {
					copyMatch(dst, out, offset, int(token&15)+minMatch)
				}
				out += int(token&15) + minMatch
				continue
			}
		}
		if in >= len(src) {
			return 0, ErrCorrupt
		}
		token := src[in]
		in++
		litLen := int(token >> 4)
		if litLen < 15 && len(src)-in >= 16 && len(dst)-out >= 16 {
			// Short literals with room on both sides: copy 16 bytes at once.
			copy(dst[out:out+16], src[in:in+16])
		} else {
			if litLen == 15 {
				var err error
				if litLen, in, err = readLength(src, in, litLen); err != nil {
					return 0, err
				}
			}
			if litLen > len(src)-in {
				return 0, ErrCorrupt
			}
			if litLen > len(dst)-out {
				return 0, ErrShortBuffer
			}
			copy(dst[out:], src[in:in+litLen])
		}
		out += litLen
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
		matchLen := int(token & 15)
		if matchLen == 15 {
			var err error
			if matchLen, in, err = readLength(src, in, matchLen); err != nil {
				return 0, err
			}
		}
		matchLen += minMatch
		if matchLen > len(dst)-out {
			return 0, ErrShortBuffer
		}
		copyMatch(dst, out, offset, matchLen)
		out += matchLen
	}
}

// copyMatch copies length bytes from out-offset to out, where the source
// may overlap the destination (offset < length repeats a pattern). The
// caller has checked that out+length <= len(dst) and offset <= out.
func copyMatch(dst []byte, out, offset, length int) {
	from, end := out-offset, out+length
	if end+8 > len(dst) {
		// Near the end of dst: byte by byte, never past end.
		for i := out; i < end; i++ {
			dst[i] = dst[i-offset]
		}
		return
	}
	// Writes up to 15 bytes past end, still inside dst.
	if offset >= 16 && end+16 <= len(dst) {
		for ; out < end; out, from = out+16, from+16 {
			*(*[16]byte)(dst[out:]) = *(*[16]byte)(dst[from:])
		}
		return
	}
	if offset >= 8 {
		// Each 8-byte load reads only bytes written before it.
		for ; out < end; out, from = out+8, from+8 {
			binary.LittleEndian.PutUint64(dst[out:], binary.LittleEndian.Uint64(dst[from:]))
		}
		return
	}
	// A period shorter than 8: write the first 8 bytes one at a time, then
	// copy 8 bytes at a time from a whole number of periods back, at least
	// 8 bytes away.
	for i := 0; i < 8; i++ {
		dst[out+i] = dst[from+i]
	}
	step := offset * ((8 + offset - 1) / offset)
	for out += 8; out < end; out += 8 {
		binary.LittleEndian.PutUint64(dst[out:], binary.LittleEndian.Uint64(dst[out-step:]))
	}
}

// readLength adds the extension bytes of a 4-bit length field that holds 15.
func readLength(src []byte, in, v int) (int, int, error) {
	for {
		if in >= len(src) {
			return 0, 0, ErrCorrupt
		}
		b := src[in]
		in++
		v += int(b)
		if v > maxLength {
			return 0, 0, ErrCorrupt
		}
		if b != 255 {
			return v, in, nil
		}
	}
}

// DecodePage restores a page from its kind and payload, accepting exactly
// the payloads reference.DecodePage accepts (PAGE-6).
func DecodePage(dst *[PageSize]byte, kind Kind, data []byte) error {
	switch kind {
	case KindSame:
		if len(data) != 8 {
			return fmt.Errorf("%w: same-filled payload of %d bytes, want 8", ErrBadKind, len(data))
		}
		w := binary.LittleEndian.Uint64(data)
		for i := 0; i < PageSize; i += 8 {
			binary.LittleEndian.PutUint64(dst[i:], w)
		}
		return nil
	case KindLZ4:
		n, err := DecompressBlock(dst[:], data)
		if err != nil {
			return err
		}
		if n != PageSize {
			return fmt.Errorf("%w: block decodes to %d bytes, want %d", ErrCorrupt, n, PageSize)
		}
		return nil
	case KindRaw:
		if len(data) != PageSize {
			return fmt.Errorf("%w: raw payload of %d bytes, want %d", ErrBadKind, len(data), PageSize)
		}
		copy(dst[:], data)
		return nil
	}
	return fmt.Errorf("%w: unknown kind %d", ErrBadKind, uint8(kind))
}
