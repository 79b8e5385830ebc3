package lz4frame

import (
	"encoding/binary"
	"errors"
)

var (
	errBlockTruncated = errors.New("sequence runs past the end of the block")
	errBlockOffset    = errors.New("match offset reaches before the start of the data")
	errBlockZeroOff   = errors.New("match offset 0")
	errBlockTooLong   = errors.New("block decodes to more than the block maximum size")
)

// decodeBlock decodes the LZ4 block src into dst[pos:], where dst[:pos] is
// the history its matches may reach (the previous 64 KiB of a linked frame,
// nothing for an independent block). It returns the new end of the data,
// or the position in src where decoding failed and why. It never reads
// outside src nor writes outside dst.
func decodeBlock(dst []byte, pos int, src []byte) (int, int, error) {
	in, out := 0, pos
	for {
		if in >= len(src) {
			return 0, in, errBlockTruncated
		}
		seqStart := in
		token := src[in]
		in++
		litLen := int(token >> 4)
		if litLen < 15 && len(src)-in >= 16 && len(dst)-out >= 16 {
			// Short literals: copy 16 bytes in two words; the bytes past
			// litLen are overwritten by what follows.
			binary.LittleEndian.PutUint64(dst[out:], binary.LittleEndian.Uint64(src[in:]))
			binary.LittleEndian.PutUint64(dst[out+8:], binary.LittleEndian.Uint64(src[in+8:]))
			out += litLen
			in += litLen
			goto match
		}
		if litLen == 15 {
			var err error
			if litLen, in, err = readLength(src, in, litLen); err != nil {
				return 0, seqStart, err
			}
		}
		if litLen > len(src)-in {
			return 0, seqStart, errBlockTruncated
		}
		if litLen > len(dst)-out {
			return 0, seqStart, errBlockTooLong
		}
		out += copy(dst[out:], src[in:in+litLen])
		in += litLen
	match:
		if in == len(src) {
			return out, in, nil // the last sequence has literals only
		}
		if len(src)-in < 2 {
			return 0, seqStart, errBlockTruncated
		}
		offset := int(binary.LittleEndian.Uint16(src[in:]))
		in += 2
		if offset == 0 {
			return 0, seqStart, errBlockZeroOff
		}
		if offset > out {
			return 0, seqStart, errBlockOffset
		}
		matchLen := int(token & 15)
		if matchLen == 15 {
			var err error
			if matchLen, in, err = readLength(src, in, matchLen); err != nil {
				return 0, seqStart, err
			}
		}
		matchLen += 4
		if matchLen > len(dst)-out {
			return 0, seqStart, errBlockTooLong
		}
		start, end := out-offset, out+matchLen
		if offset >= 8 && len(dst)-end >= 8 {
			// Word by word: with an offset of 8 or more each word read is
			// already written. The last word may spill past end.
			for ; out < end; out, start = out+8, start+8 {
				binary.LittleEndian.PutUint64(dst[out:], binary.LittleEndian.Uint64(dst[start:]))
			}
			out = end
			continue
		}
		if offset >= matchLen {
			copy(dst[out:end], dst[start:])
			out = end
			continue
		}
		// An overlapping match repeats the last offset bytes: copying the
		// whole valid run each time doubles it.
		for out < end {
			out += copy(dst[out:end], dst[start:out])
		}
	}
}

// readLength adds the extension bytes of a length field of 15. Lengths are
// capped far above any block so that the sum cannot overflow.
func readLength(src []byte, in, v int) (int, int, error) {
	for {
		if in >= len(src) {
			return 0, in, errBlockTruncated
		}
		b := src[in]
		in++
		v += int(b)
		if v > 1<<30 {
			return 0, in, errBlockTooLong
		}
		if b != 255 {
			return v, in, nil
		}
	}
}
