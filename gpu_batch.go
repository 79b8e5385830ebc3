package lz4warp

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/lz4warp/lz4warp/gpuimpl"
)

// CompressBatch on the GPU takes pages from ordinary Go memory (API-23).
// The GPU reads only page-locked memory, so the pages go through staging
// buffers that the Compressor keeps: PageBuffers of its own. A batch is cut
// into chunks; each chunk is copied into a free staging buffer by all the
// host's cores and started as a direct batch (RT-14, RT-15), which the GPU
// compresses while the next chunks are copied; its payloads are then
// copied out of the buffer, again over all cores, while later chunks run.
// So the host's copies overlap the GPU's work but for the first chunk's
// copy in and the last one's copy out, and the first chunks are small to
// keep those short.

// fromGoMode is how CompressBatch feeds the GPU from Go memory; the
// benchmarks set it to compare the ways (BenchmarkFromGo).
var fromGoMode = fromGoStaged

const (
	// fromGoStaged pipelines the chunks through the staging buffers.
	fromGoStaged = "staged"
	// fromGoRing hands the whole batch to the engine's ring (RT-6), which
	// copies every page into its slots' pinned memory, one chunk after
	// the other on the calling goroutine, and every payload out: how
	// CompressBatch worked before the staging buffers.
	fromGoRing = "ring"
)

// stagePages is the size of a staging buffer, the largest chunk; a chunk
// is firstStage pages, then twice the one before, up to stagePages. The
// benchmarks set them to compare.
var stagePages, firstStage = 4096, 1024

// stageChunk is the size of a batch's k-th chunk when left pages remain.
// A remainder below half a chunk joins the chunk before it, where the
// buffer takes it, rather than trail on its own.
func stageChunk(left, k int) int {
	n := min(stagePages, firstStage<<min(k, 20))
	if left-n < n/2 && left <= stagePages {
		n = left
	}
	return min(n, left)
}

// staging is the Compressor's staging buffers: those free, how many the
// current engine has, and the most it may have (0: RingBufferSlots, at
// least 2); freed signals a buffer coming back or the engine going.
type staging struct {
	free  []*gpuimpl.HostPages
	made  int
	most  int
	freed *sync.Cond
}

// errNoStaging reports that not one staging buffer could be page-locked.
var errNoStaging = errors.New("lz4warp: no staging buffer")

// compressFromGo compresses pages from Go memory on p's GPUs into res. It
// returns the timings, the payloads' total size and whether the CPU
// compressed some of the pages after faults (API-15, MD-5).
func (c *Compressor) compressFromGo(p *devicePool, res *BatchResult, pages []Page) (gpuimpl.Timings, int, bool, error) {
	if fromGoMode == fromGoStaged {
		t, stored, onCPU, err := c.compressStaged(p, res, pages)
		if !errors.Is(err, errNoStaging) {
			return t, stored, onCPU, err
		}
	}
	gb, err := p.compress(pages, nil) // outputs that own their payloads (RT-8)
	res.Pages = gb.pages
	return gb.timings, payloadBytes(gb.pages), gb.cpuPages > 0, err
}

// compressStaged is compressFromGo through the staging buffers, each chunk
// started on the least-loaded device (MD-2) and redone elsewhere after a
// fault (MD-5). The timings add up the chunks'. One goroutine copies chunks
// in while a staging buffer is free and copies payloads out when none is:
// a second goroutine copying payloads out beside the copies in was slower
// at 10,000 pages and, by data set, 13% slower to 25% faster at 100,000 on
// an H100 host, whose memory both sets of copies share
// (results/2026-11-28-h100-decode2).
func (c *Compressor) compressStaged(p *devicePool, res *BatchResult, pages []Page) (gpuimpl.Timings, int, bool, error) {
	res.Pages = res.ownPages(len(pages))
	type stagedChunk struct {
		h     *gpuimpl.HostPages
		q     *poolPending
		lo, n int // the pages [lo, lo+n) of the batch that h holds
	}
	var (
		t      gpuimpl.Timings
		queue  []stagedChunk // oldest first
		stored int
		onCPU  bool
		failed error // the first error; the chunks on their way are waited for
	)
	for lo, k := 0, 0; failed == nil && lo < len(pages) || len(queue) > 0; {
		if failed == nil && lo < len(pages) {
			h, err := c.takeStage(p, len(queue) == 0)
			if err != nil {
				failed = err
				continue
			}
			if h != nil {
				n := stageChunk(len(pages)-lo, k)
				start := time.Now()
				c.stagePages(h.Pages[:n], pages[lo:lo+n])
				t.Stage += time.Since(start)
				q, err := p.start(h.Pages[:n], h)
				if err != nil {
					c.putStage(p, h)
					failed = err
					continue
				}
				queue = append(queue, stagedChunk{h, q, lo, n})
				lo, k = lo+n, k+1
				continue
			}
		}
		f := queue[0]
		queue = queue[1:]
		gb, err := f.q.Wait()
		switch {
		case failed != nil:
		case err != nil:
			failed = err
		default:
			start := time.Now()
			stored += c.ownPayloads(res.Pages[f.lo:f.lo+f.n], gb.pages, res.arena)
			t.Assemble += time.Since(start)
			ft := gb.timings
			t.H2D, t.Kernel, t.D2H, t.Total = t.H2D+ft.H2D, t.Kernel+ft.Kernel, t.D2H+ft.D2H, t.Total+ft.Total
			onCPU = onCPU || gb.cpuPages > 0
		}
		c.putStage(p, f.h)
	}
	// The host's copies are the batch's transfers: the device reads the
	// pages and writes the payloads through the staging buffers' mapping.
	t.H2D, t.D2H = t.H2D+t.Stage, t.D2H+t.Assemble
	return t, stored, onCPU, failed
}

// stagePages copies src into dst, a staging buffer's pages, over the
// workers.
func (c *Compressor) stagePages(dst, src []Page) {
	c.cpu.forChunks(len(src), len(src), func(a, b int) { copy(dst[a:b], src[a:b]) })
}

// takeStage returns a free staging buffer of pool p, page-locked for each
// of its devices, making one while there are fewer than the most; when
// none is free it waits for one if block is set, and returns nil
// otherwise. Where the pool is gone it returns errGPUDropped, and
// errNoStaging where not one buffer can be made.
func (c *Compressor) takeStage(p *devicePool, block bool) (*gpuimpl.HostPages, error) {
	c.gpuMu.Lock()
	defer c.gpuMu.Unlock()
	s := &c.stage
	for {
		if c.gpu != p {
			return nil, errGPUDropped
		}
		if n := len(s.free); n > 0 {
			h := s.free[n-1]
			s.free = s.free[:n-1]
			return h, nil
		}
		if s.most == 0 {
			s.most = max(2, c.cfg.RingBufferSlots)
		}
		if s.made < s.most {
			h, err := p.newHost(stagePages)
			if err == nil {
				s.made++
				return h, nil
			}
			if s.made == 0 {
				return nil, errNoStaging
			}
			s.most = s.made // the driver locks no more: do with those made
		}
		if !block {
			return nil, nil
		}
		s.freed.Wait()
	}
}

// errGPUDropped reports a batch that found the GPUs dropped after sticky
// faults while it ran: its chunks still to start go to the CPU.
var errGPUDropped = fmt.Errorf("%w: the GPUs were dropped after sticky faults", gpuimpl.ErrFault)

// dropStaging closes the staging buffers, which are all free: the next
// batch makes new ones. gpuMu is held.
func (c *Compressor) dropStaging() {
	for _, h := range c.stage.free {
		h.Close()
	}
	c.stage.free, c.stage.made, c.stage.most = nil, 0, 0
}

// putStage gives back a staging buffer of pool p, or closes it when p has
// been dropped.
func (c *Compressor) putStage(p *devicePool, h *gpuimpl.HostPages) {
	c.gpuMu.Lock()
	defer c.gpuMu.Unlock()
	if c.gpu == p {
		c.stage.free = append(c.stage.free, h)
	} else {
		h.Close()
	}
	c.stage.freed.Broadcast()
}

// ownPayloads copies the payloads of out, which live in a staging buffer,
// into a, or where a is nil or full into one new allocation per chunk of
// pages, over the Compressor's workers, and sets dst to them. It returns
// their total size. The GPU packs a chunk's payloads back to back, each
// rounded up to 16 bytes (GPU-8), so the payloads of consecutive pages are
// copied as one span, padding included: one large copy instead of one per
// page (a raw page's payload, its input page, is a span of its own).
func (c *Compressor) ownPayloads(dst []CompressedPage, out []CompressedPage, a *arena) int {
	var stored atomic.Int64
	c.cpu.forChunks(len(out), len(out), func(lo, hi int) {
		spans, in := packedSpans(out[lo:hi])
		total := 0
		for _, s := range spans {
			total += len(s)
		}
		buf := a.take(total)
		if buf == nil {
			buf = bytes.Join(spans, nil) // not zeroed before it is filled
		} else {
			at := 0
			for _, s := range spans {
				at += copy(buf[at:], s)
			}
		}
		// Each payload lies in buf where its span was copied, at its
		// distance from the span's start.
		at := make([]int, len(spans))
		for k := 1; k < len(spans); k++ {
			at[k] = at[k-1] + len(spans[k-1])
		}
		payloads := 0
		for i := lo; i < hi; i++ {
			data, k := out[i].Data, in[i-lo]
			from := 0
			if len(data) > 0 {
				from = at[k] + int(spanStart(data)-spanStart(spans[k]))
			}
			dst[i] = CompressedPage{Kind: out[i].Kind, Data: buf[from : from+len(data) : from+len(data)]}
			payloads += len(data)
		}
		stored.Add(int64(payloads))
	})
	return int(stored.Load())
}

func spanStart(s []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(s))) }

// packedSpans returns the memory that holds the payloads of out, as spans
// of payloads that follow one another with at most 15 bytes between them,
// and the span of each payload (0 for an empty one). The packed payloads
// of a chunk are one span whatever raw pages lie between them: a payload
// may extend the span last extended or the one extended before it, so that
// the packed payloads and the raw pages (their input pages, elsewhere) each
// keep theirs.
func packedSpans(out []CompressedPage) (spans [][]byte, in []int) {
	in = make([]int, len(out))
	last, other := -1, -1
	extends := func(k int, p uintptr) bool {
		if k < 0 {
			return false
		}
		end := spanStart(spans[k]) + uintptr(len(spans[k]))
		return p >= end && p-end < 16
	}
	for i, o := range out {
		if len(o.Data) == 0 {
			continue
		}
		p := spanStart(o.Data)
		switch {
		case extends(last, p):
		case extends(other, p):
			last, other = other, last
		default:
			spans = append(spans, o.Data[:0])
			last, other = len(spans)-1, last
		}
		spans[last] = unsafe.Slice(unsafe.SliceData(spans[last]), p+uintptr(len(o.Data))-spanStart(spans[last]))
		in[i] = last
	}
	return spans, in
}
