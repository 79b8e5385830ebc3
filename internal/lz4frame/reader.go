package lz4frame

import (
	"bufio"
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
// Memory is bounded: one block of the largest size (4 MiB, 8 MiB in the
// legacy format) and the 64 KiB window of linked blocks; for frames of
// independent blocks, which it decodes on several goroutines, at most
// 32 MiB of blocks (stored and decoded) in flight.
type Reader struct {
	src *bufio.Reader
	off int64 // bytes consumed from src
	err error // sticky

	state   readerState
	frame   frameInfo
	content xxh32.Digest // of the current frame's decompressed data
	size    uint64

	buf    []byte // window history followed by the current block's output
	hist   int    // bytes of history at the start of buf
	end    int    // end of the latest decoded data in buf
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

// group is a run of independent blocks read ahead together.
type group struct {
	blocks  []*pendingBlock
	next    int           // the next block to serve
	endAt   int64         // offset of the end mark that ends the group, or -1
	err     error         // an error met while reading the group, after its blocks
	decoded chan struct{} // closed when every block is decoded
	hashed  chan struct{} // closed when the blocks are in the content checksum
}

// pendingBlock is an independent block read ahead.
type pendingBlock struct {
	at       int64 // offset of its size word
	stored   []byte
	raw      bool
	sumAt    int64 // offset of its block checksum, -1 for none
	sum      uint32
	out      []byte // the block's data: dec[:n], or stored when raw
	dec      []byte // decoding buffer, kept across uses
	err      error
	blockMax int
}

// Read-ahead limits for independent blocks: maxGroups groups of at most
// maxGroupBytes each, counting stored bytes and the decoding buffer.
const (
	maxGroups     = 3
	groupBytes    = 8 << 20
	maxGroupBytes = 32 << 20
)

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
	return &Reader{src: bufio.NewReaderSize(r, 256<<10), workers: runtime.GOMAXPROCS(0)}
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

// WriteTo implements io.WriterTo, writing each block's data directly.
func (r *Reader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for {
		if len(r.cur) > 0 {
			n, err := w.Write(r.cur)
			total += int64(n)
			r.cur = r.cur[n:]
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
	r.end = r.hist
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
	r.end = 0
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
		r.end = 0
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
	r.end = end
	r.cur = r.buf[:end]
	return nil
}

// nextQueued serves the next read-ahead block of an independent frame. Groups
// of blocks are read on the calling goroutine and decoded on others; while
// the caller serves one group, the next ones decode and an earlier one is
// hashed into the content checksum, each group on its own goroutine after
// the group before it. Errors met while reading ahead surface after the
// blocks before them.
func (r *Reader) nextQueued() error {
	for len(r.groups) == 0 || r.groups[0].next == len(r.groups[0].blocks) {
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
		<-r.groups[0].decoded
	}
	g := r.groups[0]
	b := g.blocks[g.next]
	g.next++
	if b.err != nil {
		<-g.hashed
		r.err = b.err
		return r.err
	}
	r.cur = b.out
	r.size += uint64(len(b.out))
	if len(r.groups) < maxGroups && g.next == 1 && g.err == nil && g.endAt < 0 {
		r.fillGroups()
	}
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

// freeGroup returns a group whose blocks may be reused: one that was served
// and hashed, waiting for the oldest one's hash when all are in use.
func (r *Reader) freeGroup() *group {
	if len(r.finished) > 0 && len(r.finished)+len(r.groups) >= maxGroups {
		g := r.finished[0]
		r.finished = r.finished[1:]
		<-g.hashed
		return g
	}
	for i, g := range r.finished {
		select {
		case <-g.hashed:
			r.finished = append(r.finished[:i], r.finished[i+1:]...)
			return g
		default:
		}
	}
	return &group{}
}

// readGroup reads blocks into g up to the group's limits, the end mark or
// an error, and starts decoding them and hashing them after the group
// before.
func (r *Reader) readGroup(g *group) {
	f := &r.frame
	pool := g.blocks
	g.blocks, g.next, g.endAt, g.err = g.blocks[:0], 0, -1, nil
	g.decoded, g.hashed = make(chan struct{}), make(chan struct{})
	budget := groupBudget(f.blockMax, r.workers)
	for budget > 0 {
		at := r.off
		if err := r.readFull(r.word[:4], "block size"); err != nil {
			break
		}
		word := binary.LittleEndian.Uint32(r.word[:4])
		if word == 0 {
			g.endAt = at
			break
		}
		size := int(word &^ uncompressedBit)
		if size > f.blockMax {
			r.fail(at, ErrCorrupt, "block of %d bytes in a frame of %d-byte blocks", size, f.blockMax)
			break
		}
		var b *pendingBlock
		if i := len(g.blocks); i < len(pool) {
			b = pool[i]
		} else {
			b = &pendingBlock{}
		}
		// Buffers of an earlier frame's larger blocks are dropped, so that
		// the group's memory follows this frame's block size.
		stored, dec := b.stored, b.dec
		if cap(stored) > f.blockMax {
			stored = nil
		}
		if cap(dec) > f.blockMax {
			dec = nil
		}
		*b = pendingBlock{at: at, stored: grow(stored, size), raw: word&uncompressedBit != 0, sumAt: -1, dec: dec, blockMax: f.blockMax}
		g.blocks = append(g.blocks, b)
		if err := r.readFullAt(b.stored, "block", at); err != nil {
			g.blocks = g.blocks[:len(g.blocks)-1]
			break
		}
		if f.blockChecksum {
			b.sumAt = r.off
			if err := r.readFull(r.word[:4], "block checksum"); err != nil {
				g.blocks = g.blocks[:len(g.blocks)-1]
				break
			}
			b.sum = binary.LittleEndian.Uint32(r.word[:4])
		}
		budget -= size + min(f.blockMax, decodedBound(size))
	}
	if r.err != nil { // surfaces once the blocks before it are served
		g.err, r.err = r.err, nil
	}
	prev := r.lastHashed
	r.lastHashed = g.hashed
	hash := f.contentChecksum
	go func() {
		decodeAll(g.blocks, r.workers)
		close(g.decoded)
		if prev != nil {
			<-prev
		}
		if hash {
			for _, b := range g.blocks {
				if b.err != nil {
					break
				}
				r.content.Write(b.out)
			}
		}
		close(g.hashed)
	}()
	r.groups = append(r.groups, g)
}

// groupBudget is how many bytes of blocks (stored and decoded) a group
// reads ahead: enough for every worker to take a few blocks, within
// maxGroupBytes.
func groupBudget(blockMax, workers int) int {
	return min(max(groupBytes, 2*workers*blockMax), maxGroupBytes)
}

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// decodeAll decodes the blocks on up to workers goroutines.
func decodeAll(blocks []*pendingBlock, workers int) {
	if len(blocks) <= 1 || workers <= 1 {
		for _, b := range blocks {
			b.decode()
		}
		return
	}
	var next atomic.Int32
	var wg sync.WaitGroup
	for range min(workers, len(blocks)) - 1 {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(blocks); i = int(next.Add(1)) - 1 {
				blocks[i].decode()
			}
		})
	}
	for i := int(next.Add(1)) - 1; i < len(blocks); i = int(next.Add(1)) - 1 {
		blocks[i].decode()
	}
	wg.Wait()
}

func (b *pendingBlock) decode() {
	if b.sumAt >= 0 {
		if want := xxh32.Checksum(b.stored); b.sum != want {
			b.err = newError(b.sumAt, ErrChecksum, "block checksum %#08x, want %#08x", b.sum, want)
			return
		}
	}
	if b.raw {
		b.out = b.stored
		return
	}
	b.dec = grow(b.dec, min(b.blockMax, decodedBound(len(b.stored))))
	n, err := fastlz4.DecompressBlockPrefix(b.dec, 0, b.stored)
	if err != nil {
		b.err = blockError(b.at, err)
		return
	}
	b.out = b.dec[:n]
}

// blockError is the error of a block at byte at that did not decode.
func blockError(at int64, err error) error {
	detail := "a match reaches before the start of the data, or the block is cut short"
	if errors.Is(err, fastlz4.ErrShortBuffer) {
		detail = "the block decodes to more than the block maximum size"
	}
	return newError(at, ErrCorrupt, "block at byte %d: %s", at, detail)
}
