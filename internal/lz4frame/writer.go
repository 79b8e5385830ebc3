package lz4frame

import (
	"encoding/binary"
	"fmt"
	"io"
)

// WriterOptions chooses the optional parts of the frames a Writer writes.
type WriterOptions struct {
	BlockChecksum bool // follow each block with the xxHash32 of its stored bytes
}

// Writer writes one LZ4 frame of independent blocks of at most 64 KiB, with
// a content checksum. The caller compresses: each block is given both as
// the data it stands for and as its LZ4 block, or as the data alone to store
// it uncompressed. The frame ends, with its checksum, at Close.
type Writer struct {
	w       io.Writer
	opts    WriterOptions
	content XXH32
	n       int64 // bytes written to w
	header  bool
	closed  bool
	err     error
	scratch [8]byte
}

// NewWriter returns a Writer writing one frame to w. The frame header is
// written with the first block, or at Close for an empty frame.
func NewWriter(w io.Writer, opts WriterOptions) *Writer {
	return &Writer{w: w, opts: opts}
}

// Header returns the 7-byte frame header the Writer writes: magic, FLG, BD
// and the header checksum.
func (w *Writer) Header() []byte {
	flg := byte(flagVersion | flagIndependent | flagContentCheck)
	if w.opts.BlockChecksum {
		flg |= flagBlockChecksum
	}
	h := binary.LittleEndian.AppendUint32(nil, Magic)
	h = append(h, flg, 4<<4) // BD: block maximum size code 4, 64 KiB
	return append(h, headerChecksum(h[4:]))
}

// headerChecksum is the HC byte of a frame descriptor (FLG up to the last
// optional field).
func headerChecksum(desc []byte) byte { return byte(Checksum32(desc) >> 8) }

func (w *Writer) write(p []byte) error {
	if w.err != nil {
		return w.err
	}
	n, err := w.w.Write(p)
	w.n += int64(n)
	if err != nil {
		w.err = err
	}
	return err
}

func (w *Writer) writeHeader() error {
	if w.header {
		return nil
	}
	w.header = true
	return w.write(w.Header())
}

// WriteBlock appends one block holding data (at most 64 KiB). block is
// data's LZ4 block; when it is nil, or not shorter than data, data is stored
// uncompressed instead. An empty data writes nothing: a block of size 0
// would end the frame.
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
	if err := w.writeHeader(); err != nil {
		return err
	}
	w.content.Write(data)
	size := uint32(len(block))
	stored := block
	if block == nil || len(block) >= len(data) {
		size = uint32(len(data)) | uncompressedBit
		stored = data
	}
	binary.LittleEndian.PutUint32(w.scratch[:], size)
	if err := w.write(w.scratch[:4]); err != nil {
		return err
	}
	if err := w.write(stored); err != nil {
		return err
	}
	if w.opts.BlockChecksum {
		binary.LittleEndian.PutUint32(w.scratch[:], Checksum32(stored))
		return w.write(w.scratch[:4])
	}
	return nil
}

// Close ends the frame: the header if no block was written, the end mark
// and the content checksum. It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	if err := w.writeHeader(); err != nil {
		return err
	}
	w.closed = true
	binary.LittleEndian.PutUint32(w.scratch[0:], 0)
	binary.LittleEndian.PutUint32(w.scratch[4:], w.content.Sum32())
	return w.write(w.scratch[:8])
}

// Written is the number of bytes written to the underlying writer so far.
func (w *Writer) Written() int64 { return w.n }
