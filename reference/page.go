package reference

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// PageSize is the size of a memory page (PAGE-1).
const PageSize = 4096

// RawThreshold is the size at which an LZ4 page is stored raw instead
// (PAGE-5): a block of RawThreshold bytes or more saves less than a quarter
// of the page, zram's historic "huge page" limit.
const RawThreshold = PageSize * 3 / 4

// SameWordSize is the size of the fill word of a same-filled page (PAGE-3).
const SameWordSize = 8

// Kind is how a compressed page is stored (PAGE-2). The zero value is no
// valid kind, so that an unset page is never mistaken for data.
type Kind uint8

const (
	KindSame Kind = 1 // every 8-byte word equals the first; the word is stored
	KindLZ4  Kind = 2 // an LZ4 block of fewer than RawThreshold bytes
	KindRaw  Kind = 3 // the page itself
)

func (k Kind) String() string {
	switch k {
	case KindSame:
		return "same"
	case KindLZ4:
		return "lz4"
	case KindRaw:
		return "raw"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// ErrBadKind reports a compressed page with an unknown kind or a payload
// whose length does not fit its kind.
var ErrBadKind = errors.New("reference: invalid compressed page")

// PageBound is the largest payload EncodePage writes.
const PageBound = PageSize

// IsSameFilled reports whether every 8-byte word of page equals the first
// (PAGE-3).
func IsSameFilled(page *[PageSize]byte) bool {
	first := binary.LittleEndian.Uint64(page[:])
	for i := SameWordSize; i < PageSize; i += SameWordSize {
		if binary.LittleEndian.Uint64(page[i:]) != first {
			return false
		}
	}
	return true
}

// EncodePage compresses one page into dst, which must hold PageBound bytes,
// and returns the kind and the payload length (PAGE-3 to PAGE-5).
func EncodePage(dst []byte, page *[PageSize]byte) (Kind, int) {
	if len(dst) < PageBound {
		panic("reference: EncodePage needs a destination of PageBound bytes")
	}
	if IsSameFilled(page) {
		return KindSame, copy(dst, page[:SameWordSize])
	}
	n, err := CompressBlock(dst[:RawThreshold-1], page[:])
	if err == nil {
		return KindLZ4, n
	}
	return KindRaw, copy(dst, page[:])
}

// DecodePage restores a page from its kind and payload (PAGE-6). It returns
// an error, never a panic, for any payload that is not a valid page.
func DecodePage(dst *[PageSize]byte, kind Kind, data []byte) error {
	switch kind {
	case KindSame:
		if len(data) != SameWordSize {
			return fmt.Errorf("%w: same-filled payload of %d bytes, want %d", ErrBadKind, len(data), SameWordSize)
		}
		for i := 0; i < PageSize; i += SameWordSize {
			copy(dst[i:], data)
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
