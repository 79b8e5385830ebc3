package lz4warp

import (
	"bytes"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/reference"
)

// The CPU backends give the same bytes (API-16): BackendScalar runs the
// reference codec on the calling goroutine; BackendSIMD runs package fastlz4
// over up to one goroutine per core. "SIMD" is the word-at-a-time codec:
// 8-byte loads, XOR and trailing-zero counts in general-purpose registers,
// not vector instructions.
//
// A batch is cut into chunks of at most maxChunk pages that the workers take
// in turn from an atomic counter (API-22), so that a core that finishes
// early takes more and no core waits for a slow range. A worker encodes a
// chunk into its own scratch memory, which stays in its cache, and then
// moves the chunk's payloads in one piece into the batch's arena, or into
// one new allocation per chunk: no allocation per page, no shared cache
// line written per page.

// maxChunk is the most pages a worker takes at once: enough that taking a
// chunk (an atomic add) costs nothing beside encoding it (some 100 us), few
// enough that the cores finish within a chunk of one another.
const maxChunk = 128

// minChunk is the fewest pages of a chunk when the batch is cut for many
// workers: below it, handing out chunks costs more than it spreads.
const minChunk = 16

// chunkSize cuts n pages for workers: about four chunks per worker, within
// [minChunk, maxChunk].
func chunkSize(n, workers int) int {
	return min(maxChunk, max(minChunk, (n+4*workers-1)/(4*workers)))
}

// afterChunk, when set, is called by a worker after each chunk, its token
// given back: tests set it to hold a batch between chunks.
var afterChunk func()

// cpuWorker is one worker's scratch: the encoder's hash table and room for
// a chunk's payloads.
type cpuWorker struct {
	enc     fastlz4.Encoder
	scratch [maxChunk * reference.PageBound]byte
}

// cpuWorkers keeps the workers' scratch from batch to batch.
var cpuWorkers = sync.Pool{New: func() any { return new(cpuWorker) }}

// cpuLimit is the number of goroutines a batch may use and, when the
// Compressor bounds them (Config.CPUWorkers), the tokens that every worker
// of its batches holds while it works on a chunk (API-21).
type cpuLimit struct {
	workers int           // 0: GOMAXPROCS when the batch starts
	tokens  chan struct{} // nil: no bound beyond GOMAXPROCS
}

func newCPULimit(workers int) cpuLimit {
	if workers <= 0 {
		return cpuLimit{}
	}
	return cpuLimit{workers: workers, tokens: make(chan struct{}, workers)}
}

// forChunks calls fn(lo, hi) on the chunks of [0, n) from up to l.workers
// goroutines, the caller's among them, each of which takes its next chunk
// from an atomic counter, and waits for them; it returns the number of
// goroutines.
func (l cpuLimit) forChunks(n, maxWorkers int, fn func(lo, hi int)) int {
	workers := l.workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if n <= 0 {
		return 0
	}
	workers = max(1, min(workers, maxWorkers))
	size := chunkSize(n, workers)
	workers = max(1, min(workers, (n+size-1)/size))
	var next atomic.Int64
	work := func() {
		for {
			hi := int(next.Add(int64(size)))
			lo := hi - size
			if lo >= n {
				return
			}
			if l.tokens != nil {
				l.tokens <- struct{}{}
			}
			fn(lo, min(hi, n))
			if l.tokens != nil {
				<-l.tokens
			}
			if afterChunk != nil {
				afterChunk()
			}
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return workers
}

// arena is the payload memory a batch's chunks take their room from (API-22):
// a result's arena, reused by CompressBatchInto. A chunk that finds too
// little room left gets an allocation of its own, and the arena's next
// batch gets more room.
type arena struct {
	buf  []byte
	used atomic.Int64
}

// take returns n bytes of the arena, or nil when too few are left.
func (a *arena) take(n int) []byte {
	if a == nil {
		return nil
	}
	end := int(a.used.Add(int64(n)))
	if end > len(a.buf) {
		return nil
	}
	return a.buf[end-n : end : end]
}

// place returns a copy of payloads in the arena, or in a new allocation
// when the arena has too little room. A new allocation is not zeroed first:
// bytes.Clone allocates memory that it then overwrites.
func (a *arena) place(payloads []byte) []byte {
	if dst := a.take(len(payloads)); dst != nil {
		copy(dst, payloads)
		return dst
	}
	return bytes.Clone(payloads)
}

// fit makes the arena ready for a batch, growing it to what the batch
// before needed when that did not fit.
func (a *arena) fit() {
	if used := int(a.used.Load()); used > len(a.buf) {
		a.buf = make([]byte, used+used/8)
	}
	a.reuse()
}

// reuse gives the whole arena to the next payloads; a nil arena has none.
func (a *arena) reuse() {
	if a != nil {
		a.used.Store(0)
	}
}

// cpuEncoder encodes one page with a worker's scratch.
type cpuEncoder func(w *cpuWorker, dst []byte, page *Page) (reference.Kind, int)

func fastEncode(w *cpuWorker, dst []byte, page *Page) (reference.Kind, int) {
	return w.enc.EncodePage(dst, page)
}

func referenceEncode(_ *cpuWorker, dst []byte, page *Page) (reference.Kind, int) {
	return reference.EncodePage(dst, page)
}

// compressCPU compresses pages into out (as long as pages) with encode on
// up to maxWorkers goroutines, the payloads in a, or, where a is nil or
// full, in one allocation per chunk. It returns the payloads' total size.
func (l cpuLimit) compressCPU(pages []Page, out []CompressedPage, a *arena, encode cpuEncoder, maxWorkers int) int {
	var stored atomic.Int64
	l.forChunks(len(pages), maxWorkers, func(lo, hi int) {
		w := cpuWorkers.Get().(*cpuWorker)
		defer cpuWorkers.Put(w)
		used := 0
		for i := lo; i < hi; i++ {
			kind, n := encode(w, w.scratch[used:used+reference.PageBound], &pages[i])
			out[i] = CompressedPage{Kind: PageKind(kind), Data: w.scratch[used : used+n]}
			used += n
		}
		payloads := a.place(w.scratch[:used])
		at := 0
		for i := lo; i < hi; i++ {
			n := len(out[i].Data)
			out[i].Data = payloads[at : at+n : at+n]
			at += n
		}
		stored.Add(int64(used))
	})
	return int(stored.Load())
}

// compressScalar compresses the batch with the reference codec on the
// calling goroutine.
func compressScalar(pages []Page) []CompressedPage {
	out := make([]CompressedPage, len(pages))
	cpuLimit{}.compressCPU(pages, out, nil, referenceEncode, 1)
	return out
}

// compressParallel compresses the batch with fastlz4 on up to GOMAXPROCS
// goroutines.
func compressParallel(pages []Page) []CompressedPage {
	out := make([]CompressedPage, len(pages))
	cpuLimit{}.compressCPU(pages, out, nil, fastEncode, len(pages))
	return out
}

// decodeCPU decodes pages into dst with the fast decoder, on up to l's
// workers for BackendSIMD and on the calling goroutine otherwise, and
// returns a *DecodeError listing the pages that fail, in order (API-12).
func (l cpuLimit) decodeCPU(b Backend, pages []CompressedPage, dst []Page) error {
	workers := len(pages)
	if b == BackendScalar {
		workers = 1
	}
	return l.decodeOn(workers, pages, dst)
}

// decodeOn is decodeCPU on up to workers goroutines.
func (l cpuLimit) decodeOn(workers int, pages []CompressedPage, dst []Page) error {
	var mu sync.Mutex
	var bad []*PageError
	l.forChunks(len(pages), workers, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if err := fastlz4.DecodePage(&dst[i], reference.Kind(pages[i].Kind), pages[i].Data); err != nil {
				mu.Lock()
				bad = append(bad, &PageError{Index: i, Err: err})
				mu.Unlock()
			}
		}
	})
	return decodeError(bad)
}

// decompressParallel decodes pages into dst with the fast decoder on up to
// GOMAXPROCS goroutines.
func decompressParallel(pages []CompressedPage, dst []Page) error {
	return cpuLimit{}.decodeCPU(BackendSIMD, pages, dst)
}
