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
	// ErrNotAvailable reports a build without CUDA or a machine without a GPU.
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

// Options configures an Engine.
type Options struct {
	DeviceIndex int
	BatchPages  int  // the most pages per kernel launch (one ring slot)
	RingSlots   int  // pipeline depth
	AsyncDMA    bool // overlap the stages across slots
}

// minChunk is the smallest chunk chunkPages cuts a batch into: about one
// wave of the page kernel on an H100 (132 SMs, 4 blocks of 4 pages each).
// There, smaller chunks made every batch size slower (spec/gpu-results.md).
const minChunk = 2048

// chunkPages is the number of pages per chunk for a batch of n pages (RT-6):
// batchPages, or with asynchronous stages over more than one slot, where
// that would leave the ring with few chunks to overlap, a share of about an
// eighth of the batch per chunk with 4 slots, but at least minChunk.
func chunkPages(n, batchPages, slots int, async bool) int {
	if !async || slots < 2 {
		return batchPages
	}
	share := (n + 2*slots - 1) / (2 * slots)
	return min(batchPages, max(minChunk, share))
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
