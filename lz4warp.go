// Package lz4warp compresses batches of 4 KiB memory pages with LZ4, on the
// CPU or on an NVIDIA GPU, and every backend produces the same bytes: the
// canonical parse of spec/parse.md, which package reference implements.
//
// A compressed page is same-filled (one 8-byte word), an LZ4 block readable
// by any LZ4 block decoder, or raw (spec/page-format.md).
//
// A Compressor (NewCompressor) compresses a batch with CompressBatch,
// choosing the backend by the batch's size (SelectBackend), and restores it
// with DecompressBatch. A PageBuffer (NewPageBuffer) holds pages in memory
// that the GPU reads and writes directly: CompressBuffer compresses them,
// CompressBufferAsync starts a batch and returns at once, its
// PendingBatch.Wait ends it.
//
// Rule IDs in parentheses, such as (API-3) or (RT-9), name the rules of the
// specification, spec/*.md in the module's source tree (spec/README.md lists
// the files; spec/api.md holds the API-* rules of this package); the tests
// that check a rule cite its ID.
//
// Memory: the payloads of a batch share memory. The CPU backends encode
// into buffers of up to 1 MiB, and a GPU batch copies the payloads of 256
// pages at a time into one allocation; a payload of CompressBuffer points
// into the PageBuffer. So keeping one CompressedPage.Data keeps all of its
// buffer reachable: copy a payload (bytes.Clone) to keep it alone.
package lz4warp

import (
	"errors"
	"fmt"

	"github.com/lz4warp/lz4warp/reference"
)

// PageSize is the size of one page in bytes (PAGE-1).
const PageSize = reference.PageSize

// Page is one uncompressed page.
type Page = [PageSize]byte

// Sentinel errors; errors.Is finds them in the errors the package returns.
var (
	// ErrInvalidConfig: a Config field out of range (Config.Validate) or an
	// unknown Backend.
	ErrInvalidConfig = errors.New("lz4warp: invalid configuration")
	// ErrGPUNotAvailable: no supported CUDA GPU could be opened; the error
	// also wraps the cause where there is one (a *cudart.Error of the driver).
	ErrGPUNotAvailable = errors.New("lz4warp: no supported CUDA GPU available")
	// ErrCorrupt: a compressed page that does not decode (every *PageError
	// matches it).
	ErrCorrupt = errors.New("lz4warp: corrupt compressed page")
	// ErrShortBuffer: a destination with fewer pages than the batch.
	ErrShortBuffer = errors.New("lz4warp: destination too short")
	// ErrClosed: a call on a closed Compressor.
	ErrClosed = errors.New("lz4warp: compressor closed")
	// ErrBadBuffer: a PageBuffer that is closed or of another Compressor, a
	// page count outside its pages, or a buffer of fewer than 1 page.
	ErrBadBuffer = errors.New("lz4warp: page buffer closed, of another compressor, or too short")
)

// Algorithm is a compression algorithm.
type Algorithm int

// AlgorithmLZ4 is LZ4 with the canonical parse; it is the only algorithm.
const AlgorithmLZ4 Algorithm = 0

// String returns the algorithm's name, "lz4".
func (a Algorithm) String() string {
	if a == AlgorithmLZ4 {
		return "lz4"
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

// Backend is where a batch is compressed.
type Backend int

const (
	BackendScalar Backend = iota // the reference codec on one goroutine
	BackendSIMD                  // the word-at-a-time codec on all cores
	BackendGPU                   // the warp-cooperative CUDA kernel
)

// String returns the backend's name: "scalar", "simd" or "gpu" (API-13).
func (b Backend) String() string {
	switch b {
	case BackendScalar:
		return "scalar"
	case BackendSIMD:
		return "simd"
	case BackendGPU:
		return "gpu"
	}
	return fmt.Sprintf("Backend(%d)", int(b))
}

// PageKind is how a compressed page is stored (PAGE-2).
type PageKind uint8

const (
	KindSame = PageKind(reference.KindSame) // Data is the 8-byte fill word
	KindLZ4  = PageKind(reference.KindLZ4)  // Data is an LZ4 block
	KindRaw  = PageKind(reference.KindRaw)  // Data is the page itself
)

// String returns the kind's name: "same", "lz4" or "raw".
func (k PageKind) String() string { return reference.Kind(k).String() }

// CompressedPage is one compressed page.
type CompressedPage struct {
	Kind PageKind // how Data stores the page
	// Data is the payload: 8 bytes (KindSame), an LZ4 block of 1 to 3,071
	// bytes (KindLZ4) or the page's 4,096 bytes (KindRaw). It shares memory
	// with other payloads of its batch (see the package documentation).
	Data []byte
}

// PageError is the failure to decode one page of a batch.
type PageError struct {
	Index int   // the page's index in the batch
	Err   error // why it failed, wrapping the decoder's error
}

// Error says which page failed and why.
func (e *PageError) Error() string { return fmt.Sprintf("lz4warp: page %d: %v", e.Index, e.Err) }

// Unwrap returns the cause.
func (e *PageError) Unwrap() error { return e.Err }

// Is makes every PageError match ErrCorrupt.
func (e *PageError) Is(target error) bool { return target == ErrCorrupt }

// DecodeError lists the pages of a batch that could not be decoded; every
// other page of the batch was decoded (API-12). errors.As finds each
// *PageError through it.
type DecodeError struct {
	Pages []*PageError // the pages that failed, in increasing Index
}

// Error counts the pages that failed and names the first three.
func (e *DecodeError) Error() string {
	msg := fmt.Sprintf("lz4warp: %d corrupt page(s) in batch", len(e.Pages))
	for i, p := range e.Pages {
		if i == 3 {
			return msg + fmt.Sprintf("; and %d more", len(e.Pages)-i)
		}
		msg += fmt.Sprintf("; page %d: %v", p.Index, p.Err)
	}
	return msg
}

// Unwrap returns the page errors.
func (e *DecodeError) Unwrap() []error {
	errs := make([]error, len(e.Pages))
	for i, p := range e.Pages {
		errs[i] = p
	}
	return errs
}
