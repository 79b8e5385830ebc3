package lz4frame

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/lz4warp/lz4warp/internal/xxh32"
)

// WriterOptions chooses the optional parts of the frames lz4warp writes.
type WriterOptions struct {
	BlockChecksum     bool  // follow each block with the xxHash32 of its stored bytes
	NoContentChecksum bool  // end the frame without the xxHash32 of its content
	ContentSize       int64 // the content's length in bytes, stored in the header; -1 or 0 for none
}

// AppendHeader appends the frame header of frames with opts: magic, FLG,
// BD (independent blocks of at most 64 KiB), the content size when known,
// and the header checksum.
func AppendHeader(dst []byte, opts WriterOptions) []byte {
	flg := byte(flagVersion | flagIndependent)
	if !opts.NoContentChecksum {
		flg |= flagContentCheck
	}
	if opts.BlockChecksum {
		flg |= flagBlockChecksum
	}
	if opts.ContentSize > 0 {
		flg |= flagContentSize
	}
	dst = binary.LittleEndian.AppendUint32(dst, Magic)
	start := len(dst)
	dst = append(dst, flg, 4<<4) // BD: block maximum size code 4, 64 KiB
	if opts.ContentSize > 0 {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(opts.ContentSize))
	}
	return append(dst, headerChecksum(dst[start:]))
}

// BlockBound is the most bytes AppendBlock appends for data of n bytes.
func BlockBound(n int) int { return 4 + n + 4 }

// AppendBlock appends one block holding data (at most 64 KiB, not empty:
// a block of size 0 would end the frame). block is data's LZ4 block; when
// it is nil, or not shorter than data, data is stored uncompressed instead.
func AppendBlock(dst, data, block []byte, blockChecksum bool) []byte {
	size := uint32(len(block))
	stored := block
	if block == nil || len(block) >= len(data) {
		size = uint32(len(data)) | uncompressedBit
		stored = data
	}
	dst = binary.LittleEndian.AppendUint32(dst, size)
	dst = append(dst, stored...)
	if blockChecksum {
		dst = binary.LittleEndian.AppendUint32(dst, xxh32.Checksum(stored))
	}
	return dst
}

// AppendEnd appends the end mark and, unless opts leave it out, the
// content checksum sum.
func AppendEnd(dst []byte, opts WriterOptions, sum uint32) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, 0)
	if !opts.NoContentChecksum {
		dst = binary.LittleEndian.AppendUint32(dst, sum)
	}
	return dst
}

// headerChecksum is the HC byte of a frame descriptor (FLG up to the last
// optional field).
func headerChecksum(desc []byte) byte { return byte(xxh32.Checksum(desc) >> 8) }

// Writer writes one frame of independent blocks on one goroutine, for tests
// and small outputs; package lz4warp's Writer frames blocks in parallel
// with the same functions. The caller compresses: each block is given both
// as the data it stands for and as its LZ4 block, or as the data alone to
// store it uncompressed. The frame ends at Close.
type Writer struct {
	w       io.Writer
	opts    WriterOptions
	content xxh32.Digest
	n       int64 // bytes written to w
	header  bool
	closed  bool
	err     error
	buf     []byte
}

// NewWriter returns a Writer writing one frame to w. The frame header is
// written with the first block, or at Close for an empty frame.
func NewWriter(w io.Writer, opts WriterOptions) *Writer {
	return &Writer{w: w, opts: opts}
}

func (w *Writer) flush() error {
	if w.err != nil {
		return w.err
	}
	n, err := w.w.Write(w.buf)
	w.n += int64(n)
	w.buf = w.buf[:0]
	w.err = err
	return err
}

// WriteBlock appends one block holding data (at most 64 KiB), as
// AppendBlock does; an empty data writes nothing.
func (w *Writer) WriteBlock(data, block []byte) error {
	if w.closed {
		return ErrClosed
	}
	if len(data) > MaxBlockSize64K {
		return fmt.Errorf("%w: %d bytes", ErrBlockSize, len(data))
	}
	if len(data) == 0 {
		return nil
	}
	if !w.header {
		w.header = true
		w.buf = AppendHeader(w.buf, w.opts)
	}
	w.content.Write(data)
	w.buf = AppendBlock(w.buf, data, block, w.opts.BlockChecksum)
	return w.flush()
}

// Close ends the frame: the header if no block was written, the end mark
// and the content checksum. It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if !w.header {
		w.header = true
		w.buf = AppendHeader(w.buf, w.opts)
	}
	w.buf = AppendEnd(w.buf, w.opts, w.content.Sum32())
	return w.flush()
}

// Written is the number of bytes written to the underlying writer so far.
func (w *Writer) Written() int64 { return w.n }
