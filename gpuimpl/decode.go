package gpuimpl

import (
	"encoding/binary"
	"runtime"
	"sync"
	"sync/atomic"
)

// DecodeChunk is the most pages of one decode launch: a batch's chunks
// are copied in, decoded and copied out on three streams, so that one
// chunk's payloads cross PCIe while the kernel decodes the chunk before
// and the pages of the one before that go out, and the host lays out the
// next (RT-17).
const DecodeChunk = 8192

// firstDecodeChunk is the size of a batch's first chunk, which the device
// waits for the host to lay out; each chunk after it is twice the one
// before, up to DecodeChunk.
const firstDecodeChunk = 1024

// decodeChunks cuts a batch of n pages into its chunks' sizes.
func decodeChunks(n int) []int {
	var sizes []int
	for size := firstDecodeChunk; n > 0; size = min(2*size, DecodeChunk) {
		sizes = append(sizes, min(size, n))
		n -= sizes[len(sizes)-1]
	}
	return sizes
}

// decodeLayout places a chunk's descriptors and payloads in one piece of
// memory, as the decode kernel reads them (GPU-11): the descriptors, then
// the payloads, each at a multiple of PayloadAlign from the payloads'
// start, which is a multiple of PayloadAlign too.
type decodeLayout struct {
	offsets []uint32 // each payload's offset from the payloads' start
	payload int      // where the payloads start
	size    int      // the whole piece
}

// layoutChunk lays out pages' payloads; offsets has room for len(pages).
func layoutChunk(pages []Output, offsets []uint32) decodeLayout {
	l := decodeLayout{offsets: offsets[:len(pages)], payload: align(DescBytes * len(pages))}
	at := 0
	for i, p := range pages {
		_, data := gpuPayload(p)
		l.offsets[i] = uint32(at)
		at = align(at + len(data))
	}
	l.size = l.payload + at
	return l
}

func align(n int) int { return (n + PayloadAlign - 1) &^ (PayloadAlign - 1) }

// fill lays out pages in piece, which holds l.size bytes, from up to one
// goroutine per core.
func (l decodeLayout) fill(piece []byte, pages []Output) {
	parallel(len(pages), fillGrain, func(lo, hi int) { l.fillRange(piece, pages, lo, hi) })
}

// fillRange writes the descriptors of pages[lo:hi] and copies their
// payloads into piece. Each payload's bytes up to the next multiple of
// PayloadAlign are written, its padding as zeros, so that the streaming
// stores fill whole lines of the staging buffer.
func (l decodeLayout) fillRange(piece []byte, pages []Output, lo, hi int) {
	for i := lo; i < hi; i++ {
		kind, data := gpuPayload(pages[i])
		d := piece[DescBytes*i : DescBytes*(i+1)]
		binary.LittleEndian.PutUint32(d, l.offsets[i])
		binary.LittleEndian.PutUint32(d[4:], uint32(len(data)))
		binary.LittleEndian.PutUint32(d[8:], uint32(kind))
		binary.LittleEndian.PutUint32(d[12:], 0)
		stage(piece[l.payload+int(l.offsets[i]):], data)
	}
	storeFence()
}

// stage copies src to dst, which is aligned to PayloadAlign, and zeroes
// the bytes after it up to the next multiple of PayloadAlign.
func stage(dst, src []byte) {
	whole := len(src) &^ (PayloadAlign - 1)
	if len(dst) < align(len(src)) {
		panic("gpuimpl: staging room too short")
	}
	if whole > 0 {
		copyStreaming(&dst[0], &src[0], whole)
	}
	if whole < len(src) {
		var last [PayloadAlign]byte
		copy(last[:], src[whole:])
		copyStreaming(&dst[whole], &last[0], PayloadAlign)
	}
}

// fillGrain is the pages of one task of a batch's layout.
const fillGrain = 128

// batchLayout is a decode batch's chunks in the staging buffer: chunk k
// holds sizes[k] pages from page firsts[k], laid out by layouts[k] at
// byte pieces[k].
type batchLayout struct {
	sizes, firsts []int
	layouts       []decodeLayout
	pieces        []int
	size          int // bytes of staging the batch takes
}

// layoutBatch lays out a batch of pages in chunks (decodeChunks), each
// chunk's piece on a 256-byte boundary; offsets has room for len(pages).
func layoutBatch(pages []Output, offsets []uint32) batchLayout {
	b := batchLayout{sizes: decodeChunks(len(pages))}
	b.firsts, b.pieces = make([]int, len(b.sizes)), make([]int, len(b.sizes))
	b.layouts = make([]decodeLayout, len(b.sizes))
	for k, lo := 0, 0; k < len(b.sizes); lo, k = lo+b.sizes[k], k+1 {
		b.firsts[k] = lo
		b.layouts[k] = layoutChunk(pages[lo:lo+b.sizes[k]], offsets[lo:lo+b.sizes[k]])
		b.pieces[k] = b.size
		b.size += (b.layouts[k].size + 255) &^ 255
	}
	return b
}

// fill lays out the batch's pages in staging and calls ready(k, piece,
// first page) on the calling goroutine for chunk after chunk, in order, as
// soon as each is laid out, until ready returns an error, which fill
// returns. The batch's tasks of fillGrain pages, in order, go to the
// calling goroutine and up to one more goroutine per core, started once
// for the batch: waking the cores of an idle process takes some hundreds
// of microseconds, which one wake a chunk paid again and again.
func (b batchLayout) fill(staging []byte, pages []Output, ready func(k int, piece []byte, lo int) error) error {
	type task struct{ chunk, lo, hi int }
	var tasks []task
	need := make([]int32, len(b.sizes))
	for k, n := range b.sizes {
		for lo := 0; lo < n; lo += fillGrain {
			tasks = append(tasks, task{k, lo, min(lo+fillGrain, n)})
			need[k]++
		}
	}
	piece := func(k int) []byte { return staging[b.pieces[k] : b.pieces[k]+b.layouts[k].size] }
	var next atomic.Int64
	done := make([]atomic.Int32, len(b.sizes))
	work := func() bool {
		i := next.Add(1) - 1
		if i >= int64(len(tasks)) {
			return false
		}
		t := tasks[i]
		first := b.firsts[t.chunk]
		b.layouts[t.chunk].fillRange(piece(t.chunk), pages[first:first+b.sizes[t.chunk]], t.lo, t.hi)
		done[t.chunk].Add(1)
		return true
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(tasks)) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for work() {
			}
		}()
	}
	var err error
	for k := 0; k < len(b.sizes) && err == nil; k++ {
		for done[k].Load() < need[k] {
			if !work() {
				runtime.Gosched()
			}
		}
		err = ready(k, piece(k), b.firsts[k])
	}
	if err != nil {
		next.Store(int64(len(tasks))) // the tasks left are not needed
	}
	wg.Wait()
	return err
}

// maxDecodePayload is the longest payload the engine takes to the GPU:
// the most of an LZ4 payload the kernel stages, some
// bytes more than the longest block that decodes to a page (PAGE-6). A
// longer payload gets a descriptor of kind 0, whose status is
// DecodeBadPayload, and its verdict from the CPU (GPU-11).
const maxDecodePayload = DecodeWarpBytes - decodePad

// gpuPayload is what of p the GPU reads: its data, or nothing for a payload
// longer than maxDecodePayload, whose kind it reads as 0.
func gpuPayload(p Output) (kind uint8, data []byte) {
	if len(p.Data) > maxDecodePayload {
		return 0, nil
	}
	return p.Kind, p.Data
}
