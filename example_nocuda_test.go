//go:build !cuda

package lz4warp_test

import (
	"errors"
	"fmt"

	"github.com/lz4warp/lz4warp"
)

// These examples show a build without -tags cuda, which sees no GPU on any
// machine; built with -tags cuda on a machine with a GPU they find it.

// Insisting on the GPU fails without one; NewCompressor then falls back to
// the CPU backends.
func ExampleNewGPUBatchCompressor() {
	cfg := lz4warp.DefaultConfig()
	c, err := lz4warp.NewGPUBatchCompressor(cfg)
	if errors.Is(err, lz4warp.ErrGPUNotAvailable) {
		fmt.Println(err)
		c, err = lz4warp.NewCompressor(cfg)
	}
	if err != nil {
		panic(err)
	}
	defer c.Close()
	res, _ := c.CompressBatch(make([]lz4warp.Page, cfg.BatchSize))
	fmt.Println(len(res.Pages), "pages on", res.Backend)
	// Output:
	// lz4warp: no supported CUDA GPU available
	// 1000 pages on simd
}

func ExampleDevices() {
	devs, err := lz4warp.Devices()
	if err != nil {
		panic(err)
	}
	for _, d := range devs {
		fmt.Printf("%d: %s, sm_%d%d, L2 %d MiB, batch %d\n", d.Index, d.Name,
			d.ComputeCapability[0], d.ComputeCapability[1], d.L2CacheSize>>20, d.OptimalBatchSize())
	}
	fmt.Println(len(devs), "CUDA devices")
	// Output:
	// 0 CUDA devices
}

func ExampleGPUAvailable() {
	fmt.Println("GPU:", lz4warp.GPUAvailable())
	fmt.Println("backend for 5000 pages:", lz4warp.SelectBackend(5000, lz4warp.GPUAvailable()))
	// Output:
	// GPU: false
	// backend for 5000 pages: simd
}

// GPUError tells why a Compressor that could have used a GPU does not.
func ExampleCompressor_GPUError() {
	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		panic(err)
	}
	defer c.Close()
	switch err := c.GPUError(); {
	case err != nil:
		fmt.Println("a GPU is present but not used:", err)
	case lz4warp.GPUAvailable():
		fmt.Println("the GPU is in use")
	default:
		fmt.Println("no GPU")
	}
	// Output:
	// no GPU
}

// A Compressor on several GPUs: Devices lists them, AllDevices takes every
// supported one. Streams of batches go to the least-loaded device and a
// large batch is split across them, with the same bytes as on one device.
// Stats.Devices tells each device's share; in a build without CUDA, as
// here, it is empty and the CPU compresses.
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
	fmt.Println(len(res.Pages), "pages")
	for _, d := range c.Stats().Devices {
		fmt.Printf("device %d: %d pages, %.1f GB/s, %d fallbacks\n", d.Index, d.PagesCompressed, d.ThroughputGBps(), d.Fallbacks)
	}
	cfg.Devices = []int{1, 1}
	cfg.AllDevices = false
	fmt.Println(cfg.Validate())
	// Output:
	// 20000 pages
	// lz4warp: invalid configuration: Devices lists device 1 twice, at 0 and 1
}
