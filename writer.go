package lz4warp

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/internal/lz4frame"
	"github.com/lz4warp/lz4warp/internal/xxh32"
	"github.com/lz4warp/lz4warp/reference"
)

// Stream errors.
var (
	ErrWriterClosed = errors.New("lz4warp: writer closed")
	ErrContentSize  = errors.New("lz4warp: content size differs from the size declared")
)

// WriterOption sets an option of a Writer.
type WriterOption func(*writerOptions) error

type writerOptions struct {
	frame   lz4frame.WriterOptions
	backend Backend
}

// WriterContentChecksum sets whether the frame ends with the xxHash32 of
// its content (the default, as lz4 writes; lz4 --no-frame-crc leaves it
// out).
func WriterContentChecksum(on bool) WriterOption {
	return func(o *writerOptions) error { o.frame.NoContentChecksum = !on; return nil }
}

// WriterBlockChecksum sets whether each block is followed by the xxHash32
// of its stored bytes (lz4 -BX); off by default.
func WriterBlockChecksum(on bool) WriterOption {
	return func(o *writerOptions) error { o.frame.BlockChecksum = on; return nil }
}

// WriterContentSize declares the content's length in bytes, which the
// frame header then carries (lz4 --content-size); Close fails with
// ErrContentSize when a different number of bytes was written. A size of 0
// declares nothing, as in the frame format.
func WriterContentSize(n int64) WriterOption {
	return func(o *writerOptions) error {
		if n < 0 {
			return fmt.Errorf("%w: content size %d", ErrInvalidConfig, n)
		}
		o.frame.ContentSize = n
		return nil
	}
}

// WriterBackend compresses every page on backend b: BackendGPU needs a
// Compressor with a GPU, BackendSIMD runs the fast codec on all cores,
// BackendScalar the reference codec on one goroutine. The output is the
// same bytes on every backend (API-16). By default the Writer uses every
// core: with the content checksum, the default, the CPU path was the
// faster on the 16 cores of an H100 host (STREAM-2: 3.8 GB/s against 3.2
// to 3.3 for the command on a cached file; without the checksum the GPU
// path 5.8 against 4.2), so the GPU is used only when asked for.
func WriterBackend(b Backend) WriterOption {
	return func(o *writerOptions) error {
		switch b {
		case BackendScalar, BackendSIMD, BackendGPU:
		default:
			return fmt.Errorf("%w: Backend %v is unknown", ErrInvalidConfig, b)
		}
		o.backend = b
		return nil
	}
}

// Writer compresses what is written to it into one standard LZ4 frame
// (STREAM-1): 4 KiB independent blocks, each a page's canonical LZ4 block
// or the page stored as is, and by default the content checksum. Several
// batches are on their way at once: while the caller fills one, others
// are compressed (on the GPU through PageBuffers and CompressBufferAsync,
// or on every core), their content checksum is computed on a goroutine of
// its own, and finished ones are written in order (STREAM-2). Memory holds
// a fixed number of batches whatever the stream's length. A Writer is used
// by one goroutine at a time; Close ends the frame and the Writer's
// goroutines and releases its batches, so a Writer must be closed, even
// after an error. Reset ends a frame and starts another with the same
// batches, which spares the GPU's page-locking of new ones.
type Writer struct {
	w    io.Writer
	c    *Compressor
	opts writerOptions

	workers int          // goroutines compressing CPU batches
	cur     *streamBatch // being filled
	free    chan *streamBatch
	// The batches made so far, and the most there may be, of the CPU
	// (plain memory) and of the GPU (PageBuffers).
	plain, mostPlain   int
	pinned, mostPinned int
	// opening is set while the GPU opens in the background: the batches
	// go to the CPU until it is open (STREAM-6).
	opening bool
	// The GPU's batches are made on a goroutine of their own (makeGPU),
	// so that page-locking them, 20 to 30 ms each, holds up no filling.
	making     chan struct{}  // closed when it ends; nil when none runs
	stopMaking chan struct{}  // closed by end, to stop it
	madePinned int            // the batches it made, read once it ended
	kept       []*streamBatch // the batches between a frame's end and the next (Reset)

	hashes  chan *streamBatch // to the hashing goroutine, in order
	work    chan *streamBatch // from it to the compressing goroutines
	gpuWork chan *streamBatch // to the GPU's goroutine, in order
	order   chan *streamBatch // to the writing goroutine, in order
	done    chan struct{}     // closed when the writing goroutine ends

	content xxh32.Digest
	in      int64 // bytes accepted
	out     int64 // bytes written to w, for Written (after Close)

	mu     sync.Mutex
	err    error // the first error of any goroutine; sticky
	closed bool

	stages writerStages
}

// writerStages is where a Writer's time goes, in nanoseconds summed over
// its batches: the caller filling batches and waiting for a free one, and
// each goroutine's work and waits. BenchmarkWriter reports them per
// stream: a stage busy for about the whole stream's time is the one that
// holds the others back.
type writerStages struct {
	fill     atomic.Int64 // the caller copying or reading input into batches
	freeWait atomic.Int64 // the caller waiting for a batch to fill
	hash     atomic.Int64 // the content checksum
	start    atomic.Int64 // CompressBufferAsync (it waits when the GPU's ring is full)
	gpuWait  atomic.Int64 // PendingBatch.Wait
	frame    atomic.Int64 // compressing (CPU) or framing (GPU) batches, over all goroutines
	write    atomic.Int64 // writing to the underlying writer
}

// since adds the time from start to now to d.
func since(d *atomic.Int64, start time.Time) { d.Add(int64(time.Since(start))) }

// streamBatch is a run of input bytes on its way through a Writer.
type streamBatch struct {
	pages  []Page
	buf    *PageBuffer // the GPU's page-locked pages, or nil
	n      int         // input bytes in pages
	out    [][]byte    // its framed blocks, in order
	err    error
	framed chan struct{} // closed when out or err is set
	hashed chan struct{} // closed when its bytes are in the content checksum
}

// Batch sizes: the GPU takes batches of gpuBatchPages through PageBuffers
// (RingBufferSlots of them on their way per GPU, one filling and one being
// framed and written); the CPU takes batches of cpuBatchPages, two per
// core on their way.
const (
	gpuBatchPages = 8192
	cpuBatchPages = 256
)

// NewWriter returns a Writer compressing into w on every core, or on the
// backend WriterBackend names (c may be nil but for BackendGPU). With
// BackendGPU on a Compressor whose GPU is still opening in the background
// (Config.OpenInBackground), the Writer compresses on every core until
// the GPU is open, and fails with the Compressor's GPUError if it does not
// open (STREAM-6).
func NewWriter(w io.Writer, c *Compressor, opts ...WriterOption) (*Writer, error) {
	zw := &Writer{w: w, c: c, opts: writerOptions{backend: BackendSIMD}}
	for _, o := range opts {
		if err := o(&zw.opts); err != nil {
			return nil, err
		}
	}
	switch zw.opts.backend {
	case BackendGPU:
		zw.opening = c != nil && c.gpuOpening()
		if c == nil || !c.hasGPU() && !zw.opening {
			if c != nil {
				if err := c.GPUError(); err != nil {
					return nil, err
				}
			}
			return nil, ErrGPUNotAvailable
		}
		// RingBufferSlots batches on each GPU, one filling, and one
		// being framed and written; while the GPU opens, a bound on
		// as many GPUs as Config names.
		devices := len(c.Stats().Devices)
		if zw.opening {
			devices = max(1, len(c.cfg.Devices))
			if c.cfg.AllDevices {
				devices = maxOpeningDevices
			}
		}
		zw.mostPinned = c.cfg.RingBufferSlots*devices + 2
		fallthrough // and CPU batches while the GPU opens and its batches are made
	case BackendSIMD:
		zw.workers = runtime.GOMAXPROCS(0)
		zw.mostPlain = 2*zw.workers + 2
	default:
		zw.workers, zw.mostPlain = 1, 3
	}
	zw.start()
	return zw, nil
}

// maxOpeningDevices bounds the GPUs a Writer makes batches for when
// Config.AllDevices opens them in the background, before their number is
// known.
const maxOpeningDevices = 8

// start starts the goroutines of a frame, with the batches kept from the
// frame before, if any.
func (zw *Writer) start() {
	most := zw.mostPlain + zw.mostPinned
	zw.free = make(chan *streamBatch, most)
	zw.work = make(chan *streamBatch, most)
	zw.gpuWork = make(chan *streamBatch, most)
	zw.order = make(chan *streamBatch, most)
	zw.hashes = make(chan *streamBatch, most)
	zw.done = make(chan struct{})
	for _, b := range zw.kept {
		zw.free <- b
	}
	zw.kept = zw.kept[:0]
	// The goroutines take this frame's channels: those of a frame Reset
	// ended may still be ending while the next frame starts.
	if zw.opts.backend == BackendGPU {
		go zw.runGPU(zw.gpuWork, most)
	}
	for range zw.workers {
		go zw.runCPU(zw.work)
	}
	go zw.runHash(zw.hashes, zw.work)
	go zw.runWrite(zw.order, zw.free, zw.done)
}

func (zw *Writer) fail(err error) {
	zw.mu.Lock()
	if zw.err == nil {
		zw.err = err
	}
	zw.mu.Unlock()
}

func (zw *Writer) failed() error {
	zw.mu.Lock()
	defer zw.mu.Unlock()
	return zw.err
}

// batch returns the batch being filled, taking a free one (or making one,
// up to the limit) when there is none: a GPU batch once the GPU is open
// and its batches are made, else a CPU batch.
func (zw *Writer) batch() (*streamBatch, error) {
	if zw.cur != nil {
		return zw.cur, nil
	}
	for {
		if err := zw.failed(); err != nil {
			return nil, err
		}
		gpu, err := zw.gpuBatches()
		if err != nil {
			zw.fail(err)
			return nil, err
		}
		if gpu && zw.making == nil && zw.pinned < zw.mostPinned {
			zw.makeGPU(zw.mostPinned - zw.pinned)
		}
		b, err := zw.takeBatch(gpu)
		if err != nil {
			return nil, err
		}
		if gpu && b.buf == nil && !zw.stillMaking() {
			zw.plain-- // a CPU batch, no longer needed
			continue
		}
		if err := zw.failed(); err != nil {
			zw.free <- b
			return nil, err
		}
		b.n, b.err = 0, nil
		b.framed, b.hashed = make(chan struct{}), make(chan struct{})
		zw.cur = b
		return b, nil
	}
}

// gpuBatches reports whether the next batch goes to the GPU: on
// BackendGPU once the GPU is open. A GPU that failed to open in the
// background is the Writer's error (STREAM-6).
func (zw *Writer) gpuBatches() (bool, error) {
	if zw.opts.backend != BackendGPU {
		return false, nil
	}
	if zw.opening {
		if zw.c.gpuOpening() {
			return false, nil
		}
		zw.opening = false
		if err := zw.c.WaitGPU(); err != nil {
			return false, err
		}
		zw.mostPinned = min(zw.mostPinned, zw.c.cfg.RingBufferSlots*len(zw.c.Stats().Devices)+2)
	}
	return true, nil
}

// takeBatch takes a free batch, or makes a CPU batch when there are fewer
// than the most and the GPU's are not all made, or waits for one.
func (zw *Writer) takeBatch(gpu bool) (*streamBatch, error) {
	select {
	case b := <-zw.free:
		return b, nil
	default:
	}
	if (!gpu || zw.stillMaking()) && zw.plain < zw.mostPlain {
		zw.plain++
		return zw.newBatch(false)
	}
	wait := time.Now()
	defer since(&zw.stages.freeWait, wait)
	making := zw.making
	for {
		select {
		case b := <-zw.free:
			return b, nil
		case <-making: // a failed maker may leave no batch to wait for
			making = nil
			if err := zw.failed(); err != nil {
				return nil, err
			}
		}
	}
}

// makeGPU starts making n GPU batches into the free ones, one after the
// other, until end stops it.
func (zw *Writer) makeGPU(n int) {
	done, stop := make(chan struct{}), make(chan struct{})
	zw.making, zw.stopMaking = done, stop
	go func() {
		defer close(done)
		for range n {
			select {
			case <-stop:
				return
			default:
			}
			b, err := zw.newBatch(true)
			if err != nil {
				zw.fail(err)
				return
			}
			zw.madePinned++
			zw.free <- b
		}
	}()
}

// stillMaking reports whether GPU batches are still being made: until
// then, CPU batches are made and used.
func (zw *Writer) stillMaking() bool { return running(zw.making) }

// newBatch makes a batch: a PageBuffer of gpuBatchPages for the GPU, or
// cpuBatchPages of plain memory.
func (zw *Writer) newBatch(gpu bool) (*streamBatch, error) {
	b := &streamBatch{}
	if gpu {
		buf, err := zw.c.NewPageBuffer(min(gpuBatchPages, MaxBatchSize))
		if err != nil {
			return nil, err
		}
		b.buf, b.pages = buf, buf.Pages()
	} else {
		b.pages = make([]Page, cpuBatchPages)
	}
	return b, nil
}

// bytes views a batch's pages as one byte slice.
func (b *streamBatch) bytes() []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&b.pages[0][0])), len(b.pages)*PageSize)
}

// submit sends the batch being filled on its way: to the writing
// goroutine, which takes batches in order, to the hashing goroutine, and
// on the GPU at once to the GPU beside the hash (on the CPU the hashing
// goroutine passes it on, see runHash).
func (zw *Writer) submit() {
	b := zw.cur
	zw.cur = nil
	zw.order <- b
	zw.hashes <- b
	if b.buf != nil {
		zw.gpuWork <- b
	}
}

// Write compresses p into the frame. It returns an error of an earlier
// batch, or of writing to the underlying writer, as soon as one is known.
func (zw *Writer) Write(p []byte) (int, error) {
	if zw.closed {
		return 0, ErrWriterClosed
	}
	n := 0
	for len(p) > 0 {
		b, err := zw.batch()
		if err != nil {
			return n, err
		}
		fill := time.Now()
		k := copy(b.bytes()[b.n:], p)
		since(&zw.stages.fill, fill)
		b.n += k
		n += k
		p = p[k:]
		zw.in += int64(k)
		if b.n == len(b.pages)*PageSize {
			zw.submit()
		}
	}
	return n, zw.failed()
}

// ReadFrom compresses what r holds up to its end, reading it straight into
// the batches' pages. From an io.ReaderAt that is also an io.Seeker whose
// Seek works (a regular file), it reads each batch in pieces at once, with
// ReadAt from r's offset, and leaves r's offset at the end of what it read.
func (zw *Writer) ReadFrom(r io.Reader) (int64, error) {
	if zw.closed {
		return 0, ErrWriterClosed
	}
	read := func(p []byte) (int, error) { return io.ReadFull(r, p) }
	if rs, ok := r.(readSeekerAt); ok {
		if off, err := rs.Seek(0, io.SeekCurrent); err == nil {
			defer func() { rs.Seek(off, io.SeekStart) }()
			read = func(p []byte) (int, error) {
				n, err := readAtOnce(rs, p, off)
				off += int64(n)
				return n, err
			}
		}
	}
	var n int64
	for {
		b, err := zw.batch()
		if err != nil {
			return n, err
		}
		fill := time.Now()
		k, err := read(b.bytes()[b.n:])
		since(&zw.stages.fill, fill)
		b.n += k
		n += int64(k)
		zw.in += int64(k)
		if b.n == len(b.pages)*PageSize {
			zw.submit()
		}
		switch err {
		case nil:
		case io.EOF, io.ErrUnexpectedEOF:
			return n, zw.failed()
		default:
			return n, err
		}
	}
}

type readSeekerAt interface {
	io.ReaderAt
	io.Seeker
}

// readPiece is the least a goroutine of readAtOnce reads: below it,
// starting goroutines costs more than reading.
const readPiece = 256 << 10

// readAtOnce fills p from r at off, in up to 8 pieces read at once (a
// cached file's reads copy at a few GB/s per core), and returns what it
// read up to the first short piece, with that piece's error (io.EOF at the
// end).
func readAtOnce(r io.ReaderAt, p []byte, off int64) (int, error) {
	pieces := min(8, max(1, len(p)/readPiece))
	got := make([]int, pieces)
	errs := make([]error, pieces)
	var wg sync.WaitGroup
	for i := range pieces {
		lo, hi := len(p)*i/pieces, len(p)*(i+1)/pieces
		wg.Go(func() { got[i], errs[i] = r.ReadAt(p[lo:hi], off+int64(lo)) })
	}
	wg.Wait()
	n := 0
	for i := range pieces {
		n += got[i]
		if got[i] < len(p)*(i+1)/pieces-len(p)*i/pieces {
			return n, cmp.Or(errs[i], io.ErrUnexpectedEOF)
		}
	}
	return n, nil
}

// Close compresses what is left, ends the frame and waits until all of it
// is written to the underlying writer, which it does not close, and
// releases the Writer's batches. It returns the first error met, and
// ErrContentSize when WriterContentSize declared another length. Later
// calls return the same.
func (zw *Writer) Close() error {
	if zw.closed {
		return zw.failed()
	}
	zw.closed = true
	zw.end()
	for _, b := range zw.kept {
		if b.buf != nil {
			b.buf.Close()
		}
	}
	zw.kept, zw.plain, zw.pinned = nil, 0, 0
	return zw.failed()
}

// Reset ends the frame as Close does, without releasing the Writer's
// batches (on the GPU, page-locked buffers that take long to make), and
// makes the Writer write a new frame to w with the same options, as a new
// Writer would. It returns the error Close would have returned for the
// frame it ended; the new frame starts without it. Reset after Close
// starts a new frame with new batches.
func (zw *Writer) Reset(w io.Writer) error {
	var err error
	if !zw.closed {
		zw.end()
		err = zw.failed()
	}
	zw.w, zw.err, zw.closed = w, nil, false
	zw.content.Reset()
	zw.in, zw.out = 0, 0
	zw.start()
	return err
}

// end submits the last batch, ends the frame, waits for the goroutines to
// end and keeps the batches in kept.
func (zw *Writer) end() {
	if zw.opts.frame.ContentSize > 0 && zw.in != zw.opts.frame.ContentSize {
		zw.fail(fmt.Errorf("%w: %d bytes written, %d declared", ErrContentSize, zw.in, zw.opts.frame.ContentSize))
	}
	if _, err := zw.batch(); err == nil {
		zw.submit() // the last batch, perhaps empty, ends with the partial page
	}
	if zw.making != nil {
		close(zw.stopMaking)
		<-zw.making
		zw.pinned += zw.madePinned
		zw.making, zw.madePinned = nil, 0
	}
	close(zw.order)
	close(zw.hashes) // and the hashing goroutine closes work
	close(zw.gpuWork)
	<-zw.done
	for range zw.plain + zw.pinned {
		zw.kept = append(zw.kept, <-zw.free)
	}
}

// Written is the number of compressed bytes written to the underlying
// writer, known after Close.
func (zw *Writer) Written() int64 { return zw.out }

// runHash adds each batch's bytes to the content checksum, in order, and
// then hands a CPU batch to the compressing goroutines: hashing a
// batch before its compression, rather than beside it, reads the pages
// while the filling left them in cache, and a batch's hash never holds up
// its reuse: the compressing goroutines, which keep every core busy, have
// work only as the hash proceeds, so they cannot leave it waiting for a
// core while the batches it holds up wait for it. A GPU batch, which needs
// no core, is hashed beside its compression: before it, the hash (one
// core, 3 to 6 GB/s) stood between filling a batch and starting it on the
// GPU, and each batch took the time of both before the GPU had it.
func (zw *Writer) runHash(hashes <-chan *streamBatch, work chan<- *streamBatch) {
	defer close(work)
	hash := !zw.opts.frame.NoContentChecksum
	for b := range hashes {
		if hash {
			start := time.Now()
			zw.content.Write(b.bytes()[:b.n])
			since(&zw.stages.hash, start)
		}
		close(b.hashed)
		if b.buf == nil {
			work <- b
		}
	}
}

// runWrite writes the header, each batch's blocks in order, and the end of
// the frame after the last.
func (zw *Writer) runWrite(order <-chan *streamBatch, free chan<- *streamBatch, done chan struct{}) {
	defer close(done)
	write := func(p []byte) {
		if zw.failed() != nil {
			return
		}
		start := time.Now()
		n, err := zw.w.Write(p)
		since(&zw.stages.write, start)
		zw.out += int64(n)
		if err != nil {
			zw.fail(err)
		}
	}
	write(lz4frame.AppendHeader(nil, zw.opts.frame))
	for b := range order {
		<-b.framed
		if b.err != nil {
			zw.fail(b.err)
		}
		for _, seg := range b.out {
			write(seg)
		}
		<-b.hashed // the GPU's batches are hashed beside their compression
		free <- b
	}
	if zw.failed() == nil {
		write(lz4frame.AppendEnd(nil, zw.opts.frame, zw.content.Sum32()))
	}
}

// runCPU compresses and frames batches on one goroutine of the CPU
// backends.
func (zw *Writer) runCPU(work <-chan *streamBatch) {
	f := pageFramer{blockChecksum: zw.opts.frame.BlockChecksum}
	enc := new(fastlz4.Encoder)
	encode := enc.EncodePage
	if zw.opts.backend == BackendScalar {
		encode = reference.EncodePage
	}
	var payload [reference.PageBound]byte
	for b := range work {
		start := time.Now()
		full := b.n / PageSize
		out := b.segments(1)
		seg := emptied(out[0], (full+1)*lz4frame.BlockBound(PageSize))
		for i := range full {
			kind, n := encode(payload[:], &b.pages[i])
			seg = f.appendPage(seg, PageKind(kind), payload[:n], &b.pages[i])
		}
		out[0] = f.appendTail(seg, b)
		since(&zw.stages.frame, start)
		close(b.framed)
	}
}

// segments resizes the batch's output to n buffers, keeping the earlier
// buffers for reuse, and returns it.
func (b *streamBatch) segments(n int) [][]byte {
	if cap(b.out) < n {
		b.out = append(b.out[:cap(b.out)], make([][]byte, n-cap(b.out))...)
	}
	b.out = b.out[:n]
	return b.out
}

// emptied returns buf emptied, with room for at least n bytes.
func emptied(buf []byte, n int) []byte {
	if cap(buf) < n {
		return make([]byte, 0, n)
	}
	return buf[:0]
}

// runGPU starts each batch on the GPU as its turn comes and hands it to a
// goroutine that waits for it, so that RingBufferSlots batches are on the
// GPU at once.
func (zw *Writer) runGPU(work <-chan *streamBatch, most int) {
	started := make(chan *startedBatch, most)
	defer close(started)
	go zw.finishGPU(started)
	for b := range work {
		full := b.n / PageSize
		s := &startedBatch{b: b}
		if full > 0 {
			start := time.Now()
			s.p, s.err = zw.c.CompressBufferAsync(b.buf, full)
			since(&zw.stages.start, start)
		}
		started <- s
	}
}

type startedBatch struct {
	b   *streamBatch
	p   *PendingBatch
	err error
}

// finishGPU waits for each started batch in turn and has it framed on
// every core, without waiting for the framing: while one batch is framed
// it waits for the next (the writing goroutine takes them in order).
func (zw *Writer) finishGPU(started <-chan *startedBatch) {
	for s := range started {
		b := s.b
		var res *BatchResult
		if s.err == nil && s.p != nil {
			wait := time.Now()
			res, s.err = s.p.Wait()
			since(&zw.stages.gpuWait, wait)
		}
		full := b.n / PageSize
		if s.err == nil && res != nil && len(res.Pages) != full {
			s.err = fmt.Errorf("lz4warp: a batch of %d pages gave %d results", full, len(res.Pages))
		}
		if s.err != nil {
			b.err = s.err
			close(b.framed)
			continue
		}
		go zw.frameGPU(b, res)
	}
}

// frameGPU frames a batch's GPU results on every core, in ranges of pages
// that become the batch's output segments.
func (zw *Writer) frameGPU(b *streamBatch, res *BatchResult) {
	full := b.n / PageSize
	ranges := max(1, min(runtime.GOMAXPROCS(0), full/64))
	out := b.segments(ranges)
	var wg sync.WaitGroup
	for r := range ranges {
		lo, hi := full*r/ranges, full*(r+1)/ranges
		wg.Go(func() {
			start := time.Now()
			rf := &pageFramer{blockChecksum: zw.opts.frame.BlockChecksum}
			seg := emptied(out[r], (hi-lo+1)*lz4frame.BlockBound(PageSize))
			for i := lo; i < hi; i++ {
				p := res.Pages[i]
				seg = rf.appendPage(seg, p.Kind, p.Data, &b.pages[i])
			}
			if r == ranges-1 {
				seg = rf.appendTail(seg, b)
			}
			out[r] = seg
			since(&zw.stages.frame, start)
		})
	}
	wg.Wait()
	close(b.framed)
}

// pageFramer turns compressed pages into frame blocks (STREAM-1): an LZ4
// page is its block, a raw page is stored, and a same-filled page, which
// the frame format has no kind for, is its canonical LZ4 block, kept for
// the few fill words in use.
type pageFramer struct {
	blockChecksum bool
	words         [4]uint64
	blocks        [4][]byte
	next          int
}

func (f *pageFramer) appendPage(dst []byte, kind PageKind, data []byte, page *Page) []byte {
	var block []byte
	switch kind {
	case KindLZ4:
		block = data
	case KindSame:
		block = f.sameBlock(page)
	}
	return lz4frame.AppendBlock(dst, page[:], block, f.blockChecksum)
}

func (f *pageFramer) sameBlock(page *Page) []byte {
	word := binary.LittleEndian.Uint64(page[:])
	for i, w := range f.words {
		if w == word && f.blocks[i] != nil {
			return f.blocks[i]
		}
	}
	// The fast encoder writes the reference's bytes, several times faster:
	// on the GPU path, whose results carry no block for these pages, this
	// was most of the host's framing where fill words vary.
	dst := make([]byte, fastlz4.CompressBlockBound(PageSize))
	n, err := fastlz4.CompressBlock(dst, page[:])
	if err != nil {
		return nil // cannot happen with a bound-sized dst; store the page
	}
	i := f.next
	f.next = (f.next + 1) % len(f.words)
	f.words[i], f.blocks[i] = word, dst[:n]
	return f.blocks[i]
}

// appendTail appends the block of the batch's last, partial page, if any.
func (f *pageFramer) appendTail(dst []byte, b *streamBatch) []byte {
	tail := b.n % PageSize
	if tail == 0 {
		return dst
	}
	data := b.pages[b.n/PageSize][:tail]
	return lz4frame.AppendBlock(dst, data, shortBlock(data), f.blockChecksum)
}

// shortBlock compresses a last page shorter than 4 KiB with the canonical
// parse and the raw rule of PAGE-5 scaled to its length: nil (store it)
// unless the block is shorter than three quarters of the data (STREAM-1).
func shortBlock(data []byte) []byte {
	// The longest block kept: the largest n with n < 3L/4, that is
	// 4n < 3L, n = floor((3L-1)/4).
	limit := (3*len(data) - 1) / 4
	if limit < 1 {
		return nil
	}
	dst := make([]byte, limit)
	n, err := reference.CompressBlock(dst, data)
	if err != nil {
		return nil
	}
	return dst[:n]
}
