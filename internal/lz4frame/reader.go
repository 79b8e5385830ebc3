package lz4frame

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Reader decompresses a stream of LZ4 frames: any number of LZ4 frames,
// skippable frames and legacy frames, one after the other. An empty stream
// holds no frame and reads as empty, as with the lz4 command. Every error
// is an *Error that gives the byte offset in the compressed stream.
//
// Memory is bounded by the largest block size (4 MiB, 8 MiB in the legacy
// format) plus the 64 KiB window of linked blocks.
type Reader struct {
	src *bufio.Reader
	off int64 // bytes consumed from src
	err error // sticky

	state   readerState
	frame   frameInfo
	content XXH32 // of the current frame's decompressed data
	size    uint64

	buf      []byte // window history followed by the current block's output
	hist     int    // bytes of history at the start of buf
	out, end int    // unread decoded data is buf[out:end]
	block    []byte // the current block's stored bytes
	word     [8]byte
	frames   int
}

type readerState int

const (
	stateMagic  readerState = iota // between frames
	stateBlocks                    // inside an LZ4 frame
	stateLegacy                    // inside a legacy frame
)

type frameInfo struct {
	start           int64
	linked          bool
	blockChecksum   bool
	contentChecksum bool
	hasSize         bool
	contentSize     uint64
	blockMax        int
}

// NewReader returns a Reader decompressing r.
func NewReader(r io.Reader) *Reader {
	return &Reader{src: bufio.NewReaderSize(r, 64<<10)}
}

// Offset is the number of compressed bytes consumed so far.
func (r *Reader) Offset() int64 { return r.off }

// Frames is the number of LZ4 and legacy frames begun so far.
func (r *Reader) Frames() int { return r.frames }

func (r *Reader) fail(off int64, sentinel error, format string, args ...any) error {
	r.err = &Error{Offset: off, Err: sentinel, Detail: fmt.Sprintf(format, args...)}
	return r.err
}

// readFull reads len(p) bytes; what describes the element, for errors.
func (r *Reader) readFull(p []byte, what string) error {
	return r.readFullAt(p, what, r.off)
}

// readFullAt is readFull for an element that starts at byte start, before
// the current offset.
func (r *Reader) readFullAt(p []byte, what string, start int64) error {
	n, err := io.ReadFull(r.src, p)
	r.off += int64(n)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return r.fail(start, ErrTruncated, "%s of %d bytes cut short: the input ends at byte %d", what, len(p), r.off)
	}
	if err != nil {
		r.err = err
	}
	return err
}

// Read implements io.Reader.
func (r *Reader) Read(p []byte) (int, error) {
	for r.out == r.end {
		if r.err != nil {
			return 0, r.err
		}
		if err := r.next(); err != nil {
			return 0, err
		}
	}
	n := copy(p, r.buf[r.out:r.end])
	r.out += n
	return n, nil
}

// WriteTo implements io.WriterTo, writing each block's data directly.
func (r *Reader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for {
		if r.out < r.end {
			n, err := w.Write(r.buf[r.out:r.end])
			total += int64(n)
			r.out += n
			if err != nil {
				return total, err
			}
			continue
		}
		if r.err != nil {
			if r.err == io.EOF {
				return total, nil
			}
			return total, r.err
		}
		if err := r.next(); err != nil && err != io.EOF {
			return total, err
		}
	}
}

// next decodes the next block into buf[out:end], or sets r.err.
func (r *Reader) next() error {
	switch r.state {
	case stateBlocks:
		return r.nextBlock()
	case stateLegacy:
		return r.nextLegacy()
	}
	return r.nextFrame()
}

// nextFrame reads a magic number and what follows it.
func (r *Reader) nextFrame() error {
	start := r.off
	n, err := io.ReadFull(r.src, r.word[:4])
	r.off += int64(n)
	if err == io.EOF {
		r.err = io.EOF
		return io.EOF
	}
	if err == io.ErrUnexpectedEOF {
		return r.fail(start, ErrTruncated, "magic number cut short: the input ends at byte %d", r.off)
	}
	if err != nil {
		r.err = err
		return err
	}
	return r.startFrame(start, binary.LittleEndian.Uint32(r.word[:4]))
}

func (r *Reader) startFrame(start int64, magic uint32) error {
	switch {
	case magic == Magic:
		r.frames++
		return r.readDescriptor(start)
	case magic == LegacyMagic:
		r.frames++
		r.state = stateLegacy
		r.frame = frameInfo{start: start, blockMax: legacyBlockSize}
		r.hist = 0
		return nil
	case magic&skippableMask == SkippableMagic:
		if err := r.readFull(r.word[:4], "skippable frame size"); err != nil {
			return err
		}
		size := int64(binary.LittleEndian.Uint32(r.word[:4]))
		skipped, err := r.src.Discard(int(size))
		r.off += int64(skipped)
		if err == io.EOF {
			return r.fail(start, ErrTruncated, "skippable frame of %d bytes cut short: the input ends at byte %d", size, r.off)
		}
		if err != nil {
			r.err = err
		}
		return err
	}
	if r.frames == 0 && start == 0 {
		return r.fail(start, ErrNotLZ4, "magic number %#08x is not an LZ4 frame's", magic)
	}
	return r.fail(start, ErrCorrupt, "magic number %#08x: neither an LZ4, legacy nor skippable frame", magic)
}

func (r *Reader) readDescriptor(start int64) error {
	desc := r.word[:2]
	if err := r.readFull(desc, "frame descriptor"); err != nil {
		return err
	}
	flg, bd := desc[0], desc[1]
	if flg>>6 != 1 {
		return r.fail(start+4, ErrUnsupported, "frame version %d, want 1", flg>>6)
	}
	if flg&flagReserved != 0 || bd&bdReserved != 0 {
		return r.fail(start+4, ErrCorrupt, "reserved bits set in the frame descriptor (FLG %#02x, BD %#02x)", flg, bd)
	}
	code := (bd >> 4) & 7
	if code < 4 {
		return r.fail(start+5, ErrCorrupt, "block maximum size code %d, want 4 to 7", code)
	}
	f := frameInfo{
		start: start, linked: flg&flagIndependent == 0, blockChecksum: flg&flagBlockChecksum != 0,
		contentChecksum: flg&flagContentCheck != 0, hasSize: flg&flagContentSize != 0,
		blockMax: blockMaxSize(code),
	}
	all := []byte{flg, bd}
	if f.hasSize {
		if err := r.readFull(r.word[:8], "content size"); err != nil {
			return err
		}
		f.contentSize = binary.LittleEndian.Uint64(r.word[:8])
		all = append(all, r.word[:8]...)
	}
	var dictID uint32
	if flg&flagDictID != 0 {
		if err := r.readFull(r.word[:4], "dictionary ID"); err != nil {
			return err
		}
		dictID = binary.LittleEndian.Uint32(r.word[:4])
		all = append(all, r.word[:4]...)
	}
	hcAt := r.off
	if err := r.readFull(r.word[:1], "header checksum"); err != nil {
		return err
	}
	if want := headerChecksum(all); r.word[0] != want {
		return r.fail(hcAt, ErrChecksum, "header checksum %#02x, want %#02x", r.word[0], want)
	}
	if flg&flagDictID != 0 {
		return r.fail(start, ErrUnsupported, "the frame needs dictionary %#08x", dictID)
	}
	r.frame = f
	r.state = stateBlocks
	r.content.Reset()
	r.size = 0
	r.hist = 0
	return nil
}

// decodedBound is more than an LZ4 block of n bytes can decode to: each
// byte adds at most 255 to a length, and a token at most 15+19 bytes. The
// Reader sizes its buffer by it, so that small inputs need little memory.
func decodedBound(n int) int { return n*255 + 64 }

// prepare makes room for a block of up to max bytes after the history.
func (r *Reader) prepare(max int) []byte {
	if r.frame.linked {
		// Keep the last 64 KiB of output as the window of the next block.
		if r.end > windowSize {
			copy(r.buf, r.buf[r.end-windowSize:r.end])
			r.hist = windowSize
		} else {
			r.hist = r.end
		}
	} else {
		r.hist = 0
	}
	if need := r.hist + max; len(r.buf) < need {
		grown := make([]byte, need)
		copy(grown, r.buf[:r.hist])
		r.buf = grown
	}
	r.out, r.end = r.hist, r.hist
	return r.buf[:r.hist+max]
}

func (r *Reader) nextBlock() error {
	f := &r.frame
	at := r.off
	if err := r.readFull(r.word[:4], "block size"); err != nil {
		return err
	}
	word := binary.LittleEndian.Uint32(r.word[:4])
	if word == 0 {
		return r.endFrame(at)
	}
	size := int(word &^ uncompressedBit)
	if size > f.blockMax {
		return r.fail(at, ErrCorrupt, "block of %d bytes in a frame of %d-byte blocks", size, f.blockMax)
	}
	if cap(r.block) < size {
		r.block = make([]byte, size, max(size, MaxBlockSize64K))
	}
	block := r.block[:size]
	if err := r.readFullAt(block, "block", at); err != nil {
		return err
	}
	if f.blockChecksum {
		sumAt := r.off
		if err := r.readFull(r.word[:4], "block checksum"); err != nil {
			return err
		}
		if got, want := binary.LittleEndian.Uint32(r.word[:4]), Checksum32(block); got != want {
			return r.fail(sumAt, ErrChecksum, "block checksum %#08x, want %#08x", got, want)
		}
	}
	dst := r.prepare(min(f.blockMax, decodedBound(size)))
	if word&uncompressedBit != 0 {
		r.end = r.hist + copy(dst[r.hist:], block)
	} else {
		end, pos, err := decodeBlock(dst, r.hist, block)
		if err != nil {
			return r.fail(at+4+int64(pos), ErrCorrupt, "block at byte %d: %v", at, err)
		}
		r.end = end
	}
	data := r.buf[r.out:r.end]
	r.size += uint64(len(data))
	if f.contentChecksum {
		r.content.Write(data)
	}
	return nil
}

func (r *Reader) endFrame(at int64) error {
	f := &r.frame
	r.state = stateMagic
	r.out, r.end = 0, 0
	if f.hasSize && r.size != f.contentSize {
		return r.fail(at, ErrCorrupt, "frame holds %d bytes, its header says %d", r.size, f.contentSize)
	}
	if f.contentChecksum {
		sumAt := r.off
		if err := r.readFull(r.word[:4], "content checksum"); err != nil {
			return err
		}
		if got, want := binary.LittleEndian.Uint32(r.word[:4]), r.content.Sum32(); got != want {
			return r.fail(sumAt, ErrChecksum, "content checksum %#08x, want %#08x", got, want)
		}
	}
	return nil
}

// legacyBound is LZ4_compressBound of a legacy block, its largest stored size.
const legacyBound = legacyBlockSize + legacyBlockSize/255 + 16

func (r *Reader) nextLegacy() error {
	at := r.off
	n, err := io.ReadFull(r.src, r.word[:4])
	r.off += int64(n)
	if err == io.EOF { // a legacy frame ends with the input
		r.state = stateMagic
		r.err = io.EOF
		return io.EOF
	}
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return r.fail(at, ErrTruncated, "block size cut short: the input ends at byte %d", r.off)
		}
		r.err = err
		return err
	}
	word := binary.LittleEndian.Uint32(r.word[:4])
	if word == Magic || word == LegacyMagic || word&skippableMask == SkippableMagic {
		r.state = stateMagic // the next frame begins
		r.out, r.end = 0, 0
		return r.startFrame(at, word)
	}
	size := int(word)
	if size > legacyBound {
		return r.fail(at, ErrCorrupt, "legacy block of %d bytes, more than %d", word, legacyBound)
	}
	if cap(r.block) < size {
		r.block = make([]byte, size)
	}
	block := r.block[:size]
	if err := r.readFullAt(block, "block", at); err != nil {
		return err
	}
	dst := r.prepare(min(legacyBlockSize, decodedBound(size)))
	end, pos, err := decodeBlock(dst, 0, block)
	if err != nil {
		return r.fail(at+4+int64(pos), ErrCorrupt, "block at byte %d: %v", at, err)
	}
	r.end = end
	return nil
}
