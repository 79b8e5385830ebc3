package lz4warp

import (
	"io"

	"github.com/lz4warp/lz4warp/internal/lz4frame"
)

// Errors of a Reader: every one is a *FrameError wrapping one of these.
var (
	ErrNotLZ4      = lz4frame.ErrNotLZ4      // the stream does not start with an LZ4 magic number
	ErrTruncated   = lz4frame.ErrTruncated   // the stream ends inside a frame
	ErrFrame       = lz4frame.ErrCorrupt     // a frame or block is malformed
	ErrChecksum    = lz4frame.ErrChecksum    // a header, block or content checksum differs
	ErrUnsupported = lz4frame.ErrUnsupported // a frame version or dictionary this reader lacks
)

// FrameError is a Reader's failure, at a byte offset of the compressed
// stream: Offset is where the faulty element (header, block, checksum)
// starts, Err one of the Reader's sentinel errors, Detail what was wrong.
type FrameError = lz4frame.Error

// Reader decompresses a stream of LZ4 frames (STREAM-3): every frame the
// lz4 command writes (block sizes of 64 KiB to 4 MiB, linked or
// independent blocks, block checksums, content size, the legacy format),
// skippable frames and several frames one after the other. Independent
// blocks are read in large chunks and decoded in batches in parallel on
// every core by the project's fast decoder, and the content checksum is
// computed beside them. Memory is bounded whatever a frame claims: a few
// groups of at most 1 MiB of input (two blocks of 4 MiB) and 8 MiB of
// decoded bound, one block of 8 MiB in the legacy format, and the 64 KiB
// window of linked blocks. Corrupt, truncated or hostile input gives a
// *FrameError with its byte offset, never a panic (STREAM-4).
type Reader struct {
	r *lz4frame.Reader
}

// NewReader returns a Reader decompressing r.
func NewReader(r io.Reader) *Reader { return &Reader{r: lz4frame.NewReader(r)} }

// Read implements io.Reader.
func (r *Reader) Read(p []byte) (int, error) { return r.r.Read(p) }

// WriteTo writes the decompressed stream to w without an intermediate
// copy, a batch of blocks (often hundreds of KiB) per call, until the
// stream ends or an error.
func (r *Reader) WriteTo(w io.Writer) (int64, error) { return r.r.WriteTo(w) }

// Offset is the number of compressed bytes consumed so far.
func (r *Reader) Offset() int64 { return r.r.Offset() }
