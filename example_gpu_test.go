package lz4warp_test

import (
	"errors"
	"fmt"

	"github.com/lz4warp/lz4warp"
)

// These examples run on every machine: with a GPU they use it, without one
// they fall back to the CPU, with the same output.

// Insisting on the GPU fails without one; NewCompressor then falls back to
// the CPU backends.
func ExampleNewGPUBatchCompressor() {
	cfg := lz4warp.DefaultConfig()
	c, err := lz4warp.NewGPUBatchCompressor(cfg)
	if errors.Is(err, lz4warp.ErrGPUNotAvailable) {
		// err says why: no driver library, the driver's error, no device.
		c, err = lz4warp.NewCompressor(cfg)
	}
	if err != nil {
		panic(err)
	}
	defer c.Close()
	res, err := c.CompressBatch(make([]lz4warp.Page, cfg.BatchSize))
	if err != nil {
		panic(err)
	}
	fmt.Println(len(res.Pages), "pages compressed")
	// Output:
	// 1000 pages compressed
}

func ExampleDevices() {
	devs, err := lz4warp.Devices()
	if err != nil {
		fmt.Println(err) // why no GPU can be used, e.g. no driver library
		return
	}
	for _, d := range devs {
		fmt.Printf("%d: %s, sm_%d%d, L2 %d MiB, batch %d\n", d.Index, d.Name,
			d.ComputeCapability[0], d.ComputeCapability[1], d.L2CacheSize>>20, d.OptimalBatchSize())
	}
	fmt.Println(len(devs), "CUDA devices")
}

func ExampleGPUAvailable() {
	gpu := lz4warp.GPUAvailable()
	fmt.Println("GPU:", gpu)
	fmt.Println("5000 pages go to", lz4warp.SelectBackend(5000, gpu))
}

// GPUError tells why a Compressor uses no GPU, down to the driver's error.
func ExampleCompressor_GPUError() {
	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		panic(err)
	}
	defer c.Close()
	var cudaErr *lz4warp.CUDAError
	switch err := c.GPUError(); {
	case err == nil:
		fmt.Println("the GPU is in use")
	case errors.Is(err, lz4warp.ErrNoDriver):
		fmt.Println("no CUDA driver installed:", err)
	case errors.As(err, &cudaErr):
		fmt.Println("the driver failed:", cudaErr.Op, cudaErr.Code.Name())
	default:
		fmt.Println("no GPU used:", err)
	}
}

// A Compressor on several GPUs: Devices lists them, AllDevices takes every
// supported one. Streams of batches go to the least-loaded device and a
// large batch is split across them, with the same bytes as on one device.
// Stats.Devices gives each device's share; without a GPU it is empty and
// the CPU compresses.
func ExampleConfig_devices() {
	cfg := lz4warp.DefaultConfig()
	cfg.AllDevices = true // or cfg.Devices = []int{0, 1}
	c, err := lz4warp.NewCompressor(cfg)
	if err != nil {
		panic(err)
	}
	defer c.Close()
	res, err := c.CompressBatch(make([]lz4warp.Page, 20000))
	if err != nil {
		panic(err)
	}
	var onGPUs uint64
	for _, d := range c.Stats().Devices {
		onGPUs += d.PagesCompressed // and d.ThroughputGBps(), d.Fallbacks
	}
	fmt.Println(len(res.Pages), "pages; the GPUs' shares add up:", onGPUs == 0 || onGPUs == 20000)
	cfg.Devices = []int{1, 1}
	cfg.AllDevices = false
	fmt.Println(cfg.Validate())
	// Output:
	// 20000 pages; the GPUs' shares add up: true
	// lz4warp: invalid configuration: Devices lists device 1 twice, at 0 and 1
}
