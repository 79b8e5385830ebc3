// Package lz4frame reads and writes the LZ4 frame format (lz4_Frame_format.md
// of the LZ4 project): the format of .lz4 files, which the lz4 command and
// every LZ4 library read.
//
// The Writer writes what lz4warp produces: independent blocks of at most
// 64 KiB, each given by the caller as an LZ4 block or stored uncompressed,
// and a content checksum. The Reader reads any frame: linked or
// independent blocks of every maximum size, block checksums, content size,
// concatenated frames, skippable frames and the legacy format.
package lz4frame

import (
	"errors"
	"fmt"
)

// Magic numbers (little-endian on the wire).
const (
	Magic          = 0x184D2204 // an LZ4 frame
	LegacyMagic    = 0x184C2102 // the legacy format of lz4 -l
	SkippableMagic = 0x184D2A50 // skippable frames: 0x184D2A50 to 0x184D2A5F
	skippableMask  = 0xFFFFFFF0
)

// Frame descriptor bits.
const (
	flagVersion       = 0x40 // version 01 in bits 7-6
	flagIndependent   = 0x20
	flagBlockChecksum = 0x10
	flagContentSize   = 0x08
	flagContentCheck  = 0x04
	flagReserved      = 0x02
	flagDictID        = 0x01
	bdReserved        = 0x8F
)

// Block sizes.
const (
	MaxBlockSize64K = 64 << 10 // block maximum size code 4, the one the Writer uses
	maxBlockSize4M  = 4 << 20  // code 7, the largest
	legacyBlockSize = 8 << 20  // every legacy block but the last decodes to 8 MiB
	windowSize      = 64 << 10 // how far back a linked block's matches reach
	uncompressedBit = 1 << 31  // in a block size word: the block is stored as is
)

// blockMaxSize returns the block maximum size of a BD byte's code (4 to 7).
func blockMaxSize(code byte) int { return 1 << (8 + 2*int(code)) }

// Sentinel errors; every error of the Reader is an *Error wrapping one.
// Package lz4warp's Reader returns them, hence their prefix.
var (
	ErrNotLZ4      = errors.New("lz4warp: not LZ4 data")
	ErrTruncated   = errors.New("lz4warp: truncated input")
	ErrCorrupt     = errors.New("lz4warp: corrupt input")
	ErrChecksum    = errors.New("lz4warp: checksum mismatch")
	ErrUnsupported = errors.New("lz4warp: unsupported frame")
	ErrBlockSize   = errors.New("lz4warp: frame block larger than 64 KiB")
	ErrClosed      = errors.New("lz4warp: frame writer closed")
)

// Error is a failure to read a stream, at a byte offset of the compressed
// input.
type Error struct {
	Offset int64  // byte offset in the compressed input where the bad element starts
	Err    error  // one of the sentinel errors
	Detail string // what was wrong
}

func (e *Error) Error() string {
	return fmt.Sprintf("%v at byte offset %d: %s", e.Err, e.Offset, e.Detail)
}

// Unwrap returns the sentinel error.
func (e *Error) Unwrap() error { return e.Err }
