package lz4warp

import (
	"runtime"
	"sync"

	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/reference"
)

// The CPU backends give the same bytes (API-16): BackendScalar runs the
// reference codec on the calling goroutine; BackendSIMD runs package fastlz4
// over one goroutine per core. "SIMD" is the word-at-a-time codec: 8-byte
// loads, XOR and trailing-zero counts in general-purpose registers, not
// vector instructions.

// compressScalar compresses the batch on the calling goroutine.
func compressScalar(pages []Page) []CompressedPage {
	out := make([]CompressedPage, len(pages))
	compressRange(pages, out, reference.EncodePage)
	return out
}

// compressParallel spreads the pages over all cores.
func compressParallel(pages []Page) []CompressedPage {
	out := make([]CompressedPage, len(pages))
	parallelRanges(len(pages), func(lo, hi int) {
		enc := encoders.Get().(*fastlz4.Encoder)
		defer encoders.Put(enc)
		compressRange(pages[lo:hi], out[lo:hi], enc.EncodePage)
	})
	return out
}

// encoders keeps fastlz4's hash tables (32 KiB each) from batch to batch.
var encoders = sync.Pool{New: func() any { return new(fastlz4.Encoder) }}

// compressRange encodes pages into a few buffers, so that a batch holds its
// compressed bytes in a few allocations rather than one per page. Each page
// is encoded straight into the current buffer's free tail; when fewer than
// PageBound bytes are free, a new buffer follows, sized for half the pages
// left but at most rangeBuffer bytes. Buffers are never grown: growing one
// copied it, and for incompressible pages, which fill twice the first
// estimate, a batch allocated four times its size.
func compressRange(pages []Page, out []CompressedPage, encode func([]byte, *[PageSize]byte) (reference.Kind, int)) {
	var buf []byte
	for i := range pages {
		if cap(buf)-len(buf) < reference.PageBound {
			buf = make([]byte, 0, min(rangeBuffer, (len(pages)-i)*PageSize/2)+reference.PageBound)
		}
		kind, n := encode(buf[len(buf):len(buf)+reference.PageBound], &pages[i])
		out[i] = CompressedPage{Kind: PageKind(kind), Data: buf[len(buf) : len(buf)+n : len(buf)+n]}
		buf = buf[:len(buf)+n]
	}
}

// rangeBuffer bounds compressRange's buffers, so that the unused tail of a
// range's last buffer stays small.
const rangeBuffer = 1 << 20

// decompressParallel decodes pages into dst with one goroutine per core.
func decompressParallel(pages []CompressedPage, dst []Page) error {
	var mu sync.Mutex
	var bad []*PageError
	parallelRanges(len(pages), func(lo, hi int) {
		if b := decompressRange(pages, dst, lo, hi); b != nil {
			mu.Lock()
			bad = append(bad, b...)
			mu.Unlock()
		}
	})
	return decodeError(bad)
}

// decompressRange decodes pages[lo:hi] into dst[lo:hi] and returns the
// errors of those that fail.
func decompressRange(pages []CompressedPage, dst []Page, lo, hi int) []*PageError {
	var bad []*PageError
	for i := lo; i < hi; i++ {
		if err := fastlz4.DecodePage(&dst[i], reference.Kind(pages[i].Kind), pages[i].Data); err != nil {
			bad = append(bad, &PageError{Index: i, Err: err})
		}
	}
	return bad
}

// parallelRanges calls fn on contiguous ranges of [0, n) from one goroutine
// per core and waits for them.
func parallelRanges(n int, fn func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(lo, hi)
		}()
	}
	wg.Wait()
}
