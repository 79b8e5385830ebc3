package lz4frame

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/internal/xxh32"
)

// Reader decompresses a stream of LZ4 frames: any number of LZ4 frames,
// skippable frames and legacy frames, one after the other. An empty stream
// holds no frame and reads as empty, as with the lz4 command. Every error
// is an *Error that gives the byte offset in the compressed stream.
//
// Frames of independent blocks are read in large chunks: the block headers
// of a chunk are parsed in one pass, its blocks are decoded in batches on
// several goroutines straight into each batch's output, the content
// checksum is computed on a goroutine of its own, and WriteTo writes a
// batch's output at once. Memory follows the bytes present, not a frame's
// claims, and is bounded: maxGroups groups of at most chunkLimit stored
// bytes and maxGroupDecoded bytes of decoded bound each; linked and legacy
// blocks take one block of the largest size (4 MiB, 8 MiB in the legacy
// format) and the 64 KiB window.
type Reader struct {
	src    io.Reader
	in     []byte // input read ahead: in[pos:lim] is not consumed yet
	pos    int
	lim    int
	srcErr error // what ended src: io.EOF at its end; sticky
	off    int64 // bytes consumed
	err    error // sticky

	state   readerState
	frame   frameInfo
	content xxh32.Digest // of the current frame's decompressed data
	size    uint64

	buf    []byte // window history followed by the current block's output
	hist   int    // bytes of history at the start of buf
	end    int    // end of the LZ4 frame's latest decoded block in buf
	cur    []byte // decoded data not yet read
	block  []byte // the current block's stored bytes
	word   [8]byte
	frames int

	// Independent blocks are read ahead in groups and decoded concurrently.
	workers    int
	groups     []*group        // read ahead, served in order; groups[0] is being served
	finished   []*group        // served, perhaps still being hashed, for reuse
	lastHashed <-chan struct{} // closed when the frame's last group read is hashed
}

// group is a run of independent blocks read ahead together: one chunk of
// the input, its blocks, and the batches of blocks the decoders take.
type group struct {
	chunk   []byte // the input bytes the blocks lie in
	blocks  []blockRef
	batches []batch
	next    int           // the next batch to serve
	errNext bool          // the batch served last failed after its output: report it next
	endAt   int64         // offset of the end mark that ends the group, or -1
	err     error         // an error met while reading the group, after its blocks
	hashed  chan struct{} // closed when every batch is decoded and in the content checksum
}

// blockRef is an independent block in its group's chunk.
type blockRef struct {
	at         int64 // offset of its size word
	start, end int   // its stored bytes, chunk[start:end]
	raw        bool
	sumAt      int64 // offset of its block checksum, -1 for none
	sum        uint32
}

// batch is a run of a group's blocks that one decoder decodes in order,
// one block after the other in out.
type batch struct {
	first, last int           // its blocks, group.blocks[first:last]
	bound       int           // the most its blocks can decode to
	out         []byte        // the decoded data, kept across uses
	err         error         // the first block that failed; out holds those before it
	done        chan struct{} // closed when decoded
}

// Read-ahead limits for independent blocks: maxGroups groups, each of at
// most chunkLimit input bytes (reading readStep bytes at a time, so that
// little is read past the group's end) whose blocks decode to at most
// maxGroupDecoded bytes by decodedBound; decoders take batches of about
// batchStored stored bytes and at most batchBlocks blocks.
const (
	maxGroups       = 4
	chunkBytes      = 1 << 20
	readStep        = 256 << 10
	maxGroupDecoded = 8 << 20
	batchStored     = 32 << 10
	batchBlocks     = 256
	inputSize       = 64 << 10 // the input buffer before any read-ahead
)

// chunkLimit is the most input bytes a group of blockMax-byte blocks holds:
// room for two blocks with their size words and checksums, and at least
// chunkBytes.
func chunkLimit(blockMax int) int { return max(chunkBytes, 2*(blockMax+8)) }

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

// NewReader returns a Reader decompressing r, with one decoding goroutine
// per core for frames of independent blocks.
func NewReader(r io.Reader) *Reader {
	return &Reader{src: r, workers: runtime.GOMAXPROCS(0)}
}

// SetConcurrency sets how many goroutines decode independent blocks; 1
// decodes every block on the reading goroutine. Call it before reading.
func (r *Reader) SetConcurrency(n int) { r.workers = max(n, 1) }

// Offset is the number of compressed bytes consumed so far.
func (r *Reader) Offset() int64 { return r.off }

// Frames is the number of LZ4 and legacy frames begun so far.
func (r *Reader) Frames() int { return r.frames }

func (r *Reader) fail(off int64, sentinel error, format string, args ...any) error {
	r.err = newError(off, sentinel, format, args...)
	return r.err
}

func newError(off int64, sentinel error, format string, args ...any) error {
	return &Error{Offset: off, Err: sentinel, Detail: fmt.Sprintf(format, args...)}
}

// buffered is the number of input bytes read ahead and not consumed.
func (r *Reader) buffered() int { return r.lim - r.pos }

func (r *Reader) consume(n int) {
	r.pos += n
	r.off += int64(n)
}

// maxEmptyReads is how many reads in a row may return neither bytes nor an
// error before src counts as stuck (io.ErrNoProgress), as with bufio.Reader.
const maxEmptyReads = 100

// readSrc reads from src into p, which is not empty, until a read returns
// bytes or src ends, and returns the bytes read. It records what ends src:
// its error, or io.ErrNoProgress after maxEmptyReads empty reads in a row.
func (r *Reader) readSrc(p []byte) int {
	for empty := 1; r.srcErr == nil; empty++ {
		n, err := r.src.Read(p)
		if err != nil {
			r.srcErr = err
		} else if n == 0 && empty == maxEmptyReads {
			r.srcErr = io.ErrNoProgress
		}
		if n > 0 {
			return n
		}
	}
	return 0
}

// fill reads from src until n bytes are buffered, and reports whether they
// are; when not, src ended (r.srcErr). n is less than inputSize.
func (r *Reader) fill(n int) bool {
	if r.in == nil {
		r.in = make([]byte, inputSize)
	}
	if len(r.in)-r.pos < n { // move what is left to the front
		r.lim = copy(r.in, r.in[r.pos:r.lim])
		r.pos = 0
	}
	for r.buffered() < n && r.srcErr == nil {
		r.lim += r.readSrc(r.in[r.lim:])
	}
	return r.buffered() >= n
}

// atEnd reports whether src ended cleanly with nothing left to read.
func (r *Reader) atEnd() bool { return !r.fill(1) && r.srcErr == io.EOF }

// srcFailed sets the error of a read cut short at start: a truncated
// element when src ended, src's error otherwise.
func (r *Reader) srcFailed(start int64, what string, n int) error {
	if r.srcErr == io.EOF {
		return r.fail(start, ErrTruncated, "%s of %d bytes cut short: the input ends at byte %d", what, n, r.off)
	}
	r.err = r.srcErr
	return r.err
}

// readFull reads len(p) bytes; what describes the element, for errors.
func (r *Reader) readFull(p []byte, what string) error {
	return r.readFullAt(p, what, r.off)
}

// readFullAt is readFull for an element that starts at byte start, before
// the current offset. What the input buffer lacks of a large element is
// read straight into p.
func (r *Reader) readFullAt(p []byte, what string, start int64) error {
	n := copy(p, r.in[r.pos:r.lim])
	r.consume(n)
	for n < len(p) && r.srcErr == nil {
		if len(p)-n >= inputSize { // the buffer is empty: read straight into p
			k := r.readSrc(p[n:])
			n += k
			r.off += int64(k)
			continue
		}
		r.fill(len(p) - n)
		k := copy(p[n:], r.in[r.pos:r.lim])
		r.consume(k)
		n += k
	}
	if n < len(p) {
		return r.srcFailed(start, what, len(p))
	}
	return nil
}

// Read implements io.Reader.
func (r *Reader) Read(p []byte) (int, error) {
	for len(r.cur) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		if err := r.next(); err != nil {
			return 0, err
		}
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

// WriteTo implements io.WriterTo, writing each batch's (or linked or legacy
// block's) data directly. A write that takes less than it was given
// without an error is io.ErrShortWrite, as with io.Copy.
func (r *Reader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for {
		if len(r.cur) > 0 {
			n, err := w.Write(r.cur)
			total += int64(n)
			r.cur = r.cur[n:]
			if err == nil && len(r.cur) > 0 {
				err = io.ErrShortWrite
			}
			if err != nil {
				return total, err
			}
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
	if r.atEnd() {
		r.err = io.EOF
		return io.EOF
	}
	start := r.off
	if err := r.readFull(r.word[:4], "magic number"); err != nil {
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
		return nil
	case magic&skippableMask == SkippableMagic:
		if err := r.readFull(r.word[:4], "skippable frame size"); err != nil {
			return err
		}
		size := int(binary.LittleEndian.Uint32(r.word[:4]))
		for left := size; left > 0; {
			if !r.fill(1) {
				return r.srcFailed(start, "skippable frame", size)
			}
			k := min(left, r.buffered())
			r.consume(k)
			left -= k
		}
		return nil
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
	r.end = 0 // no history before the frame's first block
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
	return r.buf[:r.hist+max]
}

func (r *Reader) nextBlock() error {
	if !r.frame.linked && r.workers > 1 {
		return r.nextQueued()
	}
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
		if got, want := binary.LittleEndian.Uint32(r.word[:4]), xxh32.Checksum(block); got != want {
			return r.fail(sumAt, ErrChecksum, "block checksum %#08x, want %#08x", got, want)
		}
	}
	dst := r.prepare(min(f.blockMax, decodedBound(size)))
	if word&uncompressedBit != 0 {
		r.end = r.hist + copy(dst[r.hist:], block)
	} else {
		end, err := fastlz4.DecompressBlockPrefix(dst, r.hist, block)
		if err != nil {
			r.err = blockError(at, err)
			return r.err
		}
		r.end = end
	}
	r.serve(r.buf[r.hist:r.end])
	return nil
}

// serve makes the next decoded data readable and counts it.
func (r *Reader) serve(data []byte) {
	r.cur = data
	r.size += uint64(len(data))
	if r.frame.contentChecksum {
		r.content.Write(data)
	}
}

func (r *Reader) endFrame(at int64) error {
	f := &r.frame
	r.state = stateMagic
	// A content size of 0 is unknown, as liblz4 reads it.
	if f.hasSize && f.contentSize != 0 && r.size != f.contentSize {
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
	if r.atEnd() { // a legacy frame ends with the input
		r.err = io.EOF
		return io.EOF
	}
	at := r.off
	if err := r.readFull(r.word[:4], "block size"); err != nil {
		return err
	}
	word := binary.LittleEndian.Uint32(r.word[:4])
	if word == Magic || word == LegacyMagic || word&skippableMask == SkippableMagic {
		r.state = stateMagic // the next frame begins
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
	end, err := fastlz4.DecompressBlockPrefix(dst, 0, block)
	if err != nil {
		r.err = blockError(at, err)
		return r.err
	}
	r.cur = r.buf[:end]
	return nil
}

// nextQueued serves the next batch of an independent frame once it is
// decoded. Groups of blocks are read on the calling goroutine and decoded
// on others; while the caller serves one group, the next ones decode, and
// each batch is hashed into the content checksum as it is decoded, group
// after group. Errors met while reading ahead surface after the blocks
// before them.
func (r *Reader) nextQueued() error {
	for len(r.groups) == 0 || r.groups[0].next == len(r.groups[0].batches) && !r.groups[0].errNext {
		if len(r.groups) > 0 {
			g := r.groups[0]
			r.groups = r.groups[1:]
			r.finished = append(r.finished, g)
			if g.err != nil || g.endAt >= 0 {
				// Nothing was read past its end: it is the last group.
				<-g.hashed
				if g.err != nil {
					r.err = g.err
					return r.err
				}
				r.lastHashed = nil
				return r.endFrame(g.endAt)
			}
		}
		r.fillGroups()
	}
	g := r.groups[0]
	if g.errNext {
		<-g.hashed
		r.err = g.batches[g.next-1].err
		return r.err
	}
	b := &g.batches[g.next]
	<-b.done
	g.next++
	g.errNext = b.err != nil
	r.cur = b.out
	r.size += uint64(len(b.out))
	return nil
}

// fillGroups reads groups until maxGroups are on their way or the last one
// ends the frame (or met an error).
func (r *Reader) fillGroups() {
	for len(r.groups) < maxGroups {
		if n := len(r.groups); n > 0 && (r.groups[n-1].err != nil || r.groups[n-1].endAt >= 0) {
			return
		}
		r.readGroup(r.freeGroup())
	}
}

// freeGroup returns a group whose buffers may be reused: the oldest one
// served, once hashed, or a new one when none was.
func (r *Reader) freeGroup() *group {
	if len(r.finished) == 0 {
		return &group{}
	}
	g := r.finished[0]
	r.finished = r.finished[1:]
	<-g.hashed
	return g
}

// readGroup takes the input buffer as g's chunk, reads into it and parses
// block headers until the group's limits, the end mark or an error, moves
// what follows the group's last block to a buffer of its own, and starts
// decoding the group and hashing it after the group before.
func (r *Reader) readGroup(g *group) {
	f := &r.frame
	limit := chunkLimit(f.blockMax)
	trailer := 4 // the next block's size word
	if f.blockChecksum {
		trailer += 4
	}
	// The chunk starts with the unconsumed input, which the buffer of the
	// group's last use (or a new one) takes.
	if r.pos > 0 || len(r.in) < inputSize {
		if cap(g.chunk) < max(inputSize, r.buffered()) || cap(g.chunk) > limit {
			g.chunk = make([]byte, max(inputSize, r.buffered()))
		}
		buf := g.chunk[:cap(g.chunk)]
		r.lim = copy(buf, r.in[r.pos:r.lim])
		r.pos, r.in, g.chunk = 0, buf, r.in
	}
	g.blocks, g.next, g.errNext, g.endAt, g.err = g.blocks[:0], 0, false, -1, nil
	g.hashed = make(chan struct{})
	p, bound := 0, 0
parse:
	for {
		for bound < maxGroupDecoded {
			at := r.off + int64(p)
			if r.lim-p < 4 {
				break
			}
			word := binary.LittleEndian.Uint32(r.in[p:])
			if word == 0 {
				g.endAt = at
				p += 4
				break parse
			}
			size := int(word &^ uncompressedBit)
			if size > f.blockMax {
				r.fail(at, ErrCorrupt, "block of %d bytes in a frame of %d-byte blocks", size, f.blockMax)
				break parse
			}
			n := p + size + trailer // the block's end, its checksum included
			if p > 0 && n > limit {
				break parse // past the chunk's limit: the next group's
			}
			if r.lim < n {
				if n > len(r.in) { // grow within the chunk's limit
					r.grow(max(n, min(2*len(r.in), limit)))
				}
				break
			}
			b := blockRef{at: at, start: p + 4, end: p + 4 + size, raw: word&uncompressedBit != 0, sumAt: -1}
			if f.blockChecksum {
				b.sumAt = r.off + int64(b.end)
				b.sum = binary.LittleEndian.Uint32(r.in[b.end:])
			}
			g.blocks = append(g.blocks, b)
			bound += decodedRoom(b.end-b.start, b.raw, f.blockMax)
			p = b.end + trailer - 4
		}
		if bound >= maxGroupDecoded {
			break
		}
		if r.lim == len(r.in) {
			if len(r.in) >= limit && len(g.blocks) > 0 {
				break
			}
			r.grow(min(2*len(r.in), limit))
		}
		if r.srcErr != nil {
			r.truncatedGroup(p)
			p = r.lim
			break
		}
		r.lim += r.readSrc(r.in[r.lim:min(len(r.in), r.lim+max(readStep, f.blockMax+8))])
	}
	// The group keeps the chunk; the input after it moves to the buffer the
	// group held.
	r.off += int64(p)
	g.chunk, r.in = r.in, g.chunk
	rest := r.lim - p
	if cap(r.in) < max(rest, inputSize) || cap(r.in) > limit {
		// As large as this group's chunk, which held that much input.
		r.in = make([]byte, max(rest, len(g.chunk)))
	}
	r.pos, r.lim = 0, copy(r.in, g.chunk[p:r.lim])
	if r.err != nil { // surfaces once the blocks before it are served
		g.err, r.err = r.err, nil
	}
	g.split(f.blockMax)
	prev := r.lastHashed
	r.lastHashed = g.hashed
	go decodeAll(g, r.workers, f.blockMax)
	// Each batch is hashed once decoded, while its output is in cache.
	hash := f.contentChecksum
	go func() {
		if prev != nil {
			<-prev
		}
		for i := range g.batches {
			b := &g.batches[i]
			<-b.done
			if hash {
				r.content.Write(b.out)
			}
		}
		close(g.hashed)
	}()
	r.groups = append(r.groups, g)
}

// truncatedGroup sets the error of src's end at in[p:lim], inside the
// block that starts at p, as the sequential reader words it.
func (r *Reader) truncatedGroup(p int) {
	if r.srcErr != io.EOF {
		r.err = r.srcErr
		return
	}
	at, ends := r.off+int64(p), r.off+int64(r.lim)
	if r.lim-p < 4 {
		r.fail(at, ErrTruncated, "block size of 4 bytes cut short: the input ends at byte %d", ends)
		return
	}
	size := int(binary.LittleEndian.Uint32(r.in[p:]) &^ uncompressedBit)
	if r.lim-p < 4+size {
		r.fail(at, ErrTruncated, "block of %d bytes cut short: the input ends at byte %d", size, ends)
		return
	}
	r.fail(at+4+int64(size), ErrTruncated, "block checksum of 4 bytes cut short: the input ends at byte %d", ends)
}

// grow makes the input buffer n bytes long, keeping in[:lim] (the group
// being read starts at 0).
func (r *Reader) grow(n int) {
	if n <= len(r.in) {
		return
	}
	buf := make([]byte, n)
	copy(buf, r.in[:r.lim])
	r.in = buf
}

// decodedRoom is the most a block of n stored bytes decodes to.
func decodedRoom(n int, raw bool, blockMax int) int {
	if raw {
		return n
	}
	return min(blockMax, decodedBound(n))
}

// split cuts the group's blocks into batches of about batchStored stored
// bytes. It drops the batches' output buffers when together they hold
// more than twice a group's bound, which batches of different sizes could
// leave across uses (one use grows them to at most a group's bound).
func (g *group) split(blockMax int) {
	held := 0
	for _, b := range g.batches[:cap(g.batches)] {
		held += cap(b.out)
	}
	keep := held <= 2*maxGroupDecoded
	g.batches = g.batches[:0]
	for first := 0; first < len(g.blocks); {
		last, stored, bound := first, 0, 0
		for last < len(g.blocks) && last-first < batchBlocks && stored < batchStored {
			b := &g.blocks[last]
			stored += b.end - b.start
			bound += decodedRoom(b.end-b.start, b.raw, blockMax)
			last++
		}
		var out []byte
		if i := len(g.batches); keep && i < cap(g.batches) {
			out = g.batches[:i+1][i].out
		}
		g.batches = append(g.batches, batch{first: first, last: last, bound: bound, out: out, done: make(chan struct{})})
		first = last
	}
}

// decodeAll decodes the group's batches in order on up to workers
// goroutines.
func decodeAll(g *group, workers, blockMax int) {
	batches := g.batches
	var next atomic.Int32
	work := func() {
		for i := int(next.Add(1)) - 1; i < len(batches); i = int(next.Add(1)) - 1 {
			g.decode(&batches[i], blockMax)
			close(batches[i].done)
		}
	}
	var wg sync.WaitGroup
	for range min(workers, len(batches)) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}

// decode decodes a batch's blocks one after the other into its output,
// which grows as they need up to the batch's bound.
func (g *group) decode(bt *batch, blockMax int) {
	out := bt.out[:0]
	bt.err = nil
	defer func() { bt.out = out }()
	blocks := g.blocks[bt.first:bt.last]
	for _, b := range blocks {
		stored := g.chunk[b.start:b.end]
		if b.sumAt >= 0 {
			if want := xxh32.Checksum(stored); b.sum != want {
				bt.err = newError(b.sumAt, ErrChecksum, "block checksum %#08x, want %#08x", b.sum, want)
				return
			}
		}
		room := decodedRoom(len(stored), b.raw, blockMax)
		if cap(out)-len(out) < room {
			// Room for the rest at a ratio of 4, or twice as much.
			want := len(out) + room + 4*(blocks[len(blocks)-1].end-b.end)
			grown := make([]byte, len(out), min(max(2*cap(out), want), bt.bound))
			copy(grown, out)
			out = grown
		}
		if b.raw {
			out = append(out, stored...)
			continue
		}
		n, err := fastlz4.DecompressBlockPrefix(out[len(out):len(out)+room], 0, stored)
		if err != nil {
			bt.err = blockError(b.at, err)
			return
		}
		out = out[:len(out)+n]
	}
}

// blockError is the error of a block at byte at that did not decode.
func blockError(at int64, err error) error {
	detail := "a match reaches before the start of the data, or the block is cut short"
	if errors.Is(err, fastlz4.ErrShortBuffer) {
		detail = "the block decodes to more than the block maximum size"
	}
	return newError(at, ErrCorrupt, "block at byte %d: %s", at, detail)
}
