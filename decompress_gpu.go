package lz4warp

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"
	"unsafe"

	"github.com/lz4warp/lz4warp/gpuimpl"
	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/reference"
)

// GPUMinDecodeBatch is the fewest pages stored compressed (KindSame and
// KindLZ4) of a batch that DecompressBuffer decodes with the GPU, into a
// page-locked PageBuffer, the CPU decoding a share of it meanwhile
// (API-25, API-29). Measured on an H200 against its host's 16 cores
// (results/2026-11-28-gpu-decode5), the shared batch led the CPU from
// 3,000 text pages and from 5,000 mixed pages (4,100 of them compressed),
// was level on 3,000 mixed pages (2,470 compressed) and on zero pages at
// every size, and trailed at 1,000 pages; raw pages, which cross PCIe
// both ways whole, do not count: on random pages the CPU alone led.
const GPUMinDecodeBatch = 4000

// SelectDecodeBackend chooses the backend that decodes a batch holding
// compressed pages stored compressed (KindSame or KindLZ4), not raw
// (API-25). gpuBuffer reports that the pages go into a page-locked
// PageBuffer of a Compressor with a GPU (DecompressBuffer): then the GPU
// decodes batches of at least GPUMinDecodeBatch such pages, sharing them
// with the CPU (API-29). Otherwise, and always for DecompressBatch, whose
// pages go into Go memory, the fast decoder decodes them in chunks over
// the workers (BackendSIMD, API-22), a small batch on the calling
// goroutine. Into Go memory the GPU was slower than the 16-core CPU at
// every batch size measured, since every page crosses PCIe into staging
// memory and is then copied again. Every backend gives the same pages and
// errors.
func SelectDecodeBackend(compressed int, gpuBuffer bool) Backend {
	if gpuBuffer && compressed >= GPUMinDecodeBatch {
		return BackendGPU
	}
	return BackendSIMD
}

// storedCompressed counts the pages of kind KindSame or KindLZ4,
// SelectDecodeBackend's measure of a batch.
func storedCompressed(pages []CompressedPage) int {
	n := 0
	for _, p := range pages {
		if p.Kind == KindSame || p.Kind == KindLZ4 {
			n++
		}
	}
	return n
}

// DecompressBatchOn decodes pages into dst on backend b, whatever their
// number (API-26): for benchmarks and tools that compare backends. Pages,
// errors, fallbacks and statistics are DecompressBatch's; BackendGPU needs
// a GPU this Compressor opened (ErrGPUNotAvailable otherwise).
func (c *Compressor) DecompressBatchOn(b Backend, pages []CompressedPage, dst []Page) error {
	c.life.RLock()
	defer c.life.RUnlock()
	p := c.pool()
	if err := c.checkDecode(b, len(pages), len(dst)); err != nil {
		return err
	}
	return c.decompress(p, b, pages, dst, nil)
}

// checkDecode checks that a batch of n pages into room pages may be
// decoded on backend b; life's read lock is held.
func (c *Compressor) checkDecode(b Backend, n, room int) error {
	switch {
	case c.closed:
		return ErrClosed
	case b != BackendScalar && b != BackendSIMD && b != BackendGPU:
		return fmt.Errorf("%w: Backend %v is unknown", ErrInvalidConfig, b)
	case b == BackendGPU && !c.awaitGPU():
		return cmp.Or(c.GPUError(), ErrGPUNotAvailable)
	case room < n:
		return fmt.Errorf("%w: %d pages into %d", ErrShortBuffer, n, room)
	}
	return nil
}

// decompress decodes pages into dst on backend b and accounts for the
// batch; on the GPU, p's, dst is host.Pages when host is not nil. A GPU
// fault decodes the batch on another GPU or the CPU (API-15), as does a
// batch that finds p dropped. The CPU's decoding holds no lock (API-20).
func (c *Compressor) decompress(p *devicePool, b Backend, pages []CompressedPage, dst []Page, host *gpuimpl.HostPages) error {
	start := time.Now()
	if b == BackendGPU {
		var status []uint32
		var err error
		if p != nil {
			status, err = p.decompress(pages, dst, host)
		}
		return c.finishDecode(p, pages, dst, status, err, start)
	}
	err := c.cpu.decodeCPU(b, pages, dst)
	c.accountDecode(len(pages), err, start)
	return err
}

// finishDecode makes the error of a GPU decode batch from its statuses
// (decodeErrors), or where no GPU decoded it (status nil, after faults)
// decodes the batch on the CPU (API-15), and accounts for it.
func (c *Compressor) finishDecode(p *devicePool, pages []CompressedPage, dst []Page, status []uint32, gerr error, start time.Time) error {
	if gerr != nil {
		return gerr
	}
	err := c.gpuDecodeErr(p, pages, dst, status)
	c.accountDecode(len(pages), err, start)
	return err
}

// gpuDecodeErr is the error of the GPU's decode batch from its statuses
// (decodeErrors), or where no GPU decoded it (status nil, after faults)
// that of the batch decoded on the CPU, counted as a fallback (API-15).
func (c *Compressor) gpuDecodeErr(p *devicePool, pages []CompressedPage, dst []Page, status []uint32) error {
	var err error
	if status != nil {
		err = decodeErrors(pages, dst, status)
	} else if len(pages) > 0 {
		c.statsMu.Lock()
		c.stats.GPUFallbacks++
		c.statsMu.Unlock()
		err = c.cpu.decodeCPU(BackendSIMD, pages, dst)
	}
	if p != nil {
		c.dropLostGPUs(p)
	}
	return err
}

// decodeDevice returns the least-loaded live device not in skip, or nil,
// and counts n pages as decoding on it until decoded (MD-10). Decoding
// counts in the devices' loads but not in their compression statistics
// (MD-6).
func (p *devicePool) decodeDevice(skip []*poolDevice, n int) *poolDevice {
	p.mu.Lock()
	defer p.mu.Unlock()
	if live := p.byLoad(skip); len(live) > 0 {
		live[0].decoding += n
		return live[0]
	}
	return nil
}

// decoded ends the decoding of n pages on d, which decoded them unless err.
func (p *devicePool) decoded(d *poolDevice, n int, err error) {
	p.mu.Lock()
	d.decoding -= n
	if err == nil {
		d.stats.PagesDecoded += uint64(n)
	}
	p.mu.Unlock()
}

// decompress decodes pages on the devices into dst, or host's pages when
// host is not nil, and returns their statuses. A large batch is cut into
// parts for the least-loaded devices as MD-3 cuts a compression batch,
// each part decoded on its own goroutine (MD-10). A part that faults is
// decoded on another device; where none is left, decompress returns no
// statuses, for the caller to decode the batch on the CPU (MD-5).
func (p *devicePool) decompress(pages []CompressedPage, dst []Page, host *gpuimpl.HostPages) ([]uint32, error) {
	status := make([]uint32, len(pages))
	parts := p.cut(len(pages), func(d *poolDevice, n int) { d.decoding += n })
	if parts == nil {
		return nil, nil
	}
	errs := make([]error, len(parts))
	onCPU := make([]bool, len(parts))
	run := func(i int) {
		pt := parts[i]
		var to []Page
		if dst != nil {
			to = dst[pt.lo:pt.hi]
		}
		onCPU[i], errs[i] = p.decodePart(pt.dev, pages[pt.lo:pt.hi], to, host.Range(pt.lo, pt.hi), status[pt.lo:pt.hi], nil)
	}
	eachPart(len(parts), run)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if slices.Contains(onCPU, true) {
		return nil, nil
	}
	return status, nil
}

// decodePart decodes pages on d, where they count as decoding, and after
// a fault on the least-loaded device not in tried, filling status. It
// reports whether no device was left to decode them.
func (p *devicePool) decodePart(d *poolDevice, pages []CompressedPage, dst []Page, host *gpuimpl.HostPages, status []uint32, tried []*poolDevice) (onCPU bool, err error) {
	for ; d != nil; d = p.decodeDevice(tried, len(pages)) {
		d.run.Lock()
		if host != nil {
			_, err = d.engine.DecompressHost(outputs(pages), host, status)
		} else {
			_, err = d.engine.Decompress(outputs(pages), dst, status)
		}
		d.run.Unlock()
		p.decoded(d, len(pages), err)
		if !p.fault(d, err) {
			return false, err
		}
		tried = append(tried, d)
	}
	return true, nil
}

// poolDecode is a decode batch that devicePool.startDecompress gave to a
// device.
type poolDecode struct {
	p     *devicePool
	d     *poolDevice
	pages []CompressedPage
	host  *gpuimpl.HostPages
	w     *gpuimpl.DecodePending
}

// startDecompress starts decoding pages into host's pages on a device and
// returns without waiting for it; after a fault at the start, the batch is
// decoded at once as decompress does, and status (or no status, for the
// CPU) is returned instead.
func (p *devicePool) startDecompress(pages []CompressedPage, host *gpuimpl.HostPages) (*poolDecode, []uint32, error) {
	d := p.decodeDevice(nil, len(pages))
	if d == nil {
		return nil, nil, nil
	}
	d.run.Lock()
	w, err := d.engine.StartDecompressHost(outputs(pages), host)
	d.run.Unlock()
	if err != nil {
		status, err := p.redecode(d, pages, host, err)
		return nil, status, err
	}
	return &poolDecode{p: p, d: d, pages: pages, host: host, w: w}, nil, nil
}

// redecode ends a batch of pages on d that ended with err and, after a
// fault, decodes it at once on the other devices (decodePart), returning
// their statuses or none for the CPU.
func (p *devicePool) redecode(d *poolDevice, pages []CompressedPage, host *gpuimpl.HostPages, err error) ([]uint32, error) {
	p.decoded(d, len(pages), err)
	if !p.fault(d, err) {
		return nil, err
	}
	status := make([]uint32, len(pages))
	tried := []*poolDevice{d}
	if onCPU, err := p.decodePart(p.decodeDevice(tried, len(pages)), pages, nil, host, status, tried); onCPU || err != nil {
		return nil, err
	}
	return status, nil
}

// Wait returns the batch's statuses: the device's, or after a fault those
// of another device, or none where the CPU is to decode it (MD-5).
func (q *poolDecode) Wait() ([]uint32, error) {
	status := make([]uint32, len(q.pages))
	q.d.run.Lock()
	_, err := q.w.Wait(status)
	q.d.run.Unlock()
	if err == nil {
		q.p.decoded(q.d, len(q.pages), nil)
		return status, nil
	}
	return q.p.redecode(q.d, q.pages, q.host, err)
}

// accountDecode adds a decode batch of n pages that began at start and
// ended with err to the statistics (API-14).
func (c *Compressor) accountDecode(n int, err error, start time.Time) {
	var de *DecodeError
	if errors.As(err, &de) {
		n -= len(de.Pages)
	}
	c.statsMu.Lock()
	defer c.statsMu.Unlock()
	c.stats.PagesDecompressed += uint64(n)
	c.stats.DecompressTime += time.Since(start)
}

// decodeErrors makes the *DecodeError of a GPU batch from its statuses
// (GPU-11): a page of status DecodeBadPayload (a payload of the wrong
// length or kind, one too long for the GPU, or a malformed block the
// kernel left to the CPU) is decoded on the CPU, which gives its verdict;
// any other status gives fastlz4's error for the page, so that the error
// is the one the CPU backends return (API-25).
func decodeErrors(pages []CompressedPage, dst []Page, status []uint32) error {
	var bad []*PageError
	for i, s := range status {
		if s == gpuimpl.DecodeOK {
			continue
		}
		var err error
		if code, _ := gpuimpl.SplitStatus(s); code == gpuimpl.DecodeBadPayload {
			err = fastlz4.DecodePage(&dst[i], reference.Kind(pages[i].Kind), pages[i].Data)
		} else {
			err = gpuimpl.StatusError(s)
		}
		if err != nil {
			bad = append(bad, &PageError{Index: i, Err: err})
		}
	}
	return decodeError(bad)
}

// decodeError is the *DecodeError of the failed pages, sorted by index, or
// nil for none.
func decodeError(bad []*PageError) error {
	if bad == nil {
		return nil
	}
	slices.SortFunc(bad, func(a, b *PageError) int { return a.Index - b.Index })
	return &DecodeError{Pages: bad}
}

// outputs views pages as the GPU engine's Outputs, which have the same
// layout (a test checks it).
func outputs(pages []CompressedPage) []gpuimpl.Output {
	return unsafe.Slice((*gpuimpl.Output)(unsafe.Pointer(unsafe.SliceData(pages))), len(pages))
}

// DecompressBuffer decodes pages into buf.Pages()[:len(pages)] with the
// pages, errors, fallbacks and statistics of DecompressBatch, on the
// backend SelectDecodeBackend picks for a page-locked buffer (API-25,
// API-27): from GPUMinDecodeBatch compressed pages the GPU and the CPU at
// once (API-29). The GPU decodes the batch's first pages, which the DMA
// engine copies into the buffer, so that they cross PCIe once, while the
// workers decode the others; the share follows the two sides' measured
// speeds. A buffer that is not page-locked, or a Compressor without a
// GPU, decodes on the CPU.
func (c *Compressor) DecompressBuffer(buf *PageBuffer, pages []CompressedPage) error {
	c.life.RLock()
	defer c.life.RUnlock()
	if err := c.checkBuffer(buf, len(pages)); err != nil {
		return err
	}
	p := c.pool()
	if SelectDecodeBackend(storedCompressed(pages), p != nil && buf.host != nil) == BackendGPU {
		return c.decompressShared(p, pages, buf.pages[:len(pages)], buf.host)
	}
	return c.decompress(nil, BackendSIMD, pages, buf.pages[:len(pages)], nil)
}

// PendingDecode is a decode batch that DecompressBufferAsync started
// (API-27).
type PendingDecode struct {
	c     *Compressor
	buf   *PageBuffer
	pages []CompressedPage
	dst   []Page // the buffer's pages the batch decodes into
	start time.Time
	gpu   *poolDecode // the GPU's batch until Wait takes it
	pool  *devicePool // where gpu runs
	err   error
	done  bool
}

// DecompressBufferAsync starts decoding pages into buf.Pages() and
// returns without waiting for the GPU; Wait returns the batch's error
// (API-27). From GPUMinDecodeBatch compressed pages (SelectDecodeBackend)
// the GPU decodes the whole batch, leaving the CPU to the caller; below
// it, or without a GPU or a page-locked buffer, the CPU decodes the batch
// before DecompressBufferAsync returns. Until Wait the buffer's pages and
// the payloads must not change, and the buffer takes no other batch.
func (c *Compressor) DecompressBufferAsync(buf *PageBuffer, pages []CompressedPage) (*PendingDecode, error) {
	return c.decompressBufferAsync(buf, pages, SelectDecodeBackend(storedCompressed(pages), true))
}

// decompressBufferAsync is DecompressBufferAsync on the GPU where b is
// BackendGPU and the buffer is page-locked on a Compressor with a GPU.
func (c *Compressor) decompressBufferAsync(buf *PageBuffer, pages []CompressedPage, b Backend) (*PendingDecode, error) {
	c.life.RLock()
	defer c.life.RUnlock()
	if err := c.checkBuffer(buf, len(pages)); err != nil {
		return nil, err
	}
	p := &PendingDecode{c: c, buf: buf, pages: pages, dst: buf.pages[:len(pages)], start: time.Now()}
	if gpu := c.pool(); gpu != nil && buf.host != nil && b == BackendGPU {
		gp, status, err := gpu.startDecompress(pages, buf.host)
		if gp != nil {
			p.gpu, p.pool = gp, gpu
			buf.decoding = p
			return p, nil
		}
		if err != nil {
			return nil, err
		}
		p.err, p.done = c.finishDecode(gpu, pages, p.dst, status, nil, p.start), true
		return p, nil
	}
	p.err, p.done = c.decompress(nil, BackendSIMD, pages, p.dst, nil), true
	return p, nil
}

// Wait returns the batch's error, as DecompressBuffer's (API-27); the
// buffer then takes other batches. Later calls return the same error.
func (p *PendingDecode) Wait() error {
	c := p.c
	if !p.done {
		p.done = true
		status, gerr := p.gpu.Wait()
		p.gpu = nil
		p.err = c.finishDecode(p.pool, p.pages, p.dst, status, gerr, p.start)
	}
	if p.buf.decoding == p {
		p.buf.decoding = nil
	}
	return p.err
}
