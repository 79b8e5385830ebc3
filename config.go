package lz4warp

import (
	"fmt"

	"github.com/lz4warp/lz4warp/gpuimpl"
)

// MaxBatchSize is the largest Config.BatchSize in pages: the most one GPU
// launch takes (a ring slot's payloads are placed with 32-bit offsets).
const MaxBatchSize = gpuimpl.MaxBatchPages

// Config configures a Compressor (API-1, API-2).
type Config struct {
	DeviceIndex     int       // CUDA device ordinal, 0 for the first, when Devices is empty
	Devices         []int     // CUDA device ordinals to use at once (MD-1); empty for DeviceIndex alone
	AllDevices      bool      // use every supported CUDA device (MD-1); Devices and DeviceIndex left unset
	Algorithm       Algorithm // only AlgorithmLZ4
	BatchSize       int       // pages per GPU launch (a ring slot's size), 1 to MaxBatchSize
	AsyncDMA        bool      // overlap H2D copies, kernels and D2H copies across ring slots
	RingBufferSlots int       // ring slots, each a batch on its way (pipeline depth), at least 1
	// CPUWorkers bounds the goroutines, and so the cores, that the
	// Compressor's CPU work uses at once, over all its concurrent calls;
	// 0 means GOMAXPROCS, read at each call (API-21).
	CPUWorkers int
	// OpenInBackground makes the constructors return at once and open the
	// GPU on a goroutine of their own, which takes 0.2 to 1 s in a new
	// process; until it is open, batches that SelectBackend gives the GPU
	// run on the CPU, with the same bytes, and calls that name BackendGPU
	// wait for it (API-28, Compressor.WaitGPU).
	OpenInBackground bool
}

// DefaultConfig returns the documented defaults: device 0, LZ4, 1,000 pages
// per batch, asynchronous DMA, 4 ring slots, every core (API-1).
func DefaultConfig() Config {
	return Config{DeviceIndex: 0, Algorithm: AlgorithmLZ4, BatchSize: 1000, AsyncDMA: true, RingBufferSlots: 4}
}

// Validate reports the first invalid field, wrapping ErrInvalidConfig (API-2).
func (c Config) Validate() error {
	switch {
	case c.DeviceIndex < 0:
		return fmt.Errorf("%w: DeviceIndex %d is negative", ErrInvalidConfig, c.DeviceIndex)
	case c.Algorithm != AlgorithmLZ4:
		return fmt.Errorf("%w: Algorithm %v is unknown", ErrInvalidConfig, c.Algorithm)
	case c.BatchSize < 1:
		return fmt.Errorf("%w: BatchSize %d is less than 1", ErrInvalidConfig, c.BatchSize)
	case c.BatchSize > MaxBatchSize:
		return fmt.Errorf("%w: BatchSize %d is more than %d, the most pages a GPU launch takes", ErrInvalidConfig, c.BatchSize, MaxBatchSize)
	case c.RingBufferSlots < 1:
		return fmt.Errorf("%w: RingBufferSlots %d is less than 1", ErrInvalidConfig, c.RingBufferSlots)
	case c.CPUWorkers < 0:
		return fmt.Errorf("%w: CPUWorkers %d is negative", ErrInvalidConfig, c.CPUWorkers)
	}
	return c.validateDevices()
}
