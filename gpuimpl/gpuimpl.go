// Package gpuimpl is the CUDA backend of lz4warp: the warp-cooperative LZ4
// page kernel, generated as PTX from Go, and the pipeline that feeds it.
// Without the build tag cuda it reports that no GPU is available.
package gpuimpl

import (
	"errors"
	"time"
)

// PageSize is the size of one page.
const PageSize = 4096

var (
	// ErrNotAvailable reports a machine where no CUDA GPU can be used: no
	// driver library, a driver that fails to initialise, no device, or none
	// the kernel supports.
	ErrNotAvailable = errors.New("gpuimpl: no CUDA GPU available")
	// ErrFault reports a GPU fault during a batch (illegal address, launch
	// failure, out of memory); the batch's output is void.
	ErrFault = errors.New("gpuimpl: GPU fault")
	// ErrDeviceLost reports a fault after which the device cannot be used
	// again by this process: a sticky fault (illegal address, launch
	// failure) poisons every context of the process, old and new (RT-4).
	// Such errors also wrap ErrFault.
	ErrDeviceLost = errors.New("gpuimpl: device unusable in this process after a sticky fault")
)

// Device describes one CUDA device from its own attributes.
type Device struct {
	Index        int
	Name         string
	TotalMemory  uint64
	L2CacheSize  uint64
	Major, Minor int
}

// MaxBatchPages is the largest Options.BatchPages: a slot's packed payloads
// (up to OutSlot bytes a page) are counted and placed with 32-bit offsets
// (GPU-8), and a launch's grid stays within 2^24 blocks.
const MaxBatchPages = min((1<<32-1)/OutSlot, 1<<24/PagesPerBlock)

// Options configures an Engine.
type Options struct {
	DeviceIndex int
	BatchPages  int  // the most pages per kernel launch (one ring slot), at most MaxBatchPages
	RingSlots   int  // pipeline depth
	AsyncDMA    bool // overlap the stages across slots
}

// minChunk is the smallest chunk chunkPages cuts a batch into: about one
// wave of the page kernel on an H100 (132 SMs, 4 blocks of 4 pages each).
// There, smaller chunks made every batch size slower (results/gpu-notebook.md).
const minChunk = 2048

// tailChunk is the smallest chunk chunkPages cuts the last 2 × minChunk
// pages of a batch into; at minChunk they are not cut further.
var tailChunk = minChunk

// chunkPages is the size of a batch's next chunk when n of its pages remain
// to be issued (RT-6): batchPages (or the n left), or with asynchronous stages over more
// than one slot, where that would leave the ring few chunks to overlap, an
// eighth of the remaining pages with 4 slots (1 / (2 × slots)), but at
// least minChunk; of the last 2 × minChunk pages, half of those left, but
// at least tailChunk. So the last chunks, whose kernels and copies no later
// chunk hides, are short too.
func chunkPages(n, batchPages, slots int, async bool) int {
	if !async || slots < 2 {
		return min(n, batchPages)
	}
	share := (n + 2*slots - 1) / (2 * slots)
	least := minChunk
	if n < 2*minChunk {
		least = max(tailChunk, (n+1)/2)
	}
	return min(n, batchPages, max(least, share))
}

// Timings are measured with CUDA events (H2D, Kernel, D2H, Total) and, for
// the host's share of a batch, with the host clock (Stage, Assemble).
type Timings struct {
	H2D, Kernel, D2H, Total time.Duration
	Stage                   time.Duration // copying the pages into the pinned staging buffers
	Assemble                time.Duration // building the outputs from the meta words and slots
}

// Output is one compressed page as the kernel wrote it.
type Output struct {
	Kind uint8
	Data []byte
}
