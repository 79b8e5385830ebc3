package main

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/lz4warp/lz4warp"
)

// runDevices lists every CUDA device with its DeviceInfo, optimal batch
// size (API-9) and support (API-10), or says clearly that there is none
// (CLI-12). With -devices it lists the chosen devices and opens a GPU
// Compressor on all of them at once, or fails saying why (MD-8).
func runDevices(e *env, args []string) error {
	fs := newFlags(e, "devices", "")
	var choice deviceChoice
	fs.Var(&choice, "devices", "open a GPU Compressor on these: all, or indexes such as 0,1")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	devs, err := lz4warp.Devices()
	if err != nil && !errors.Is(err, lz4warp.ErrGPUNotAvailable) {
		return fmt.Errorf("listing CUDA devices: %w", err)
	}
	if !choice.chosen() {
		printDevices(e.stdout, devs, err)
		return nil
	}
	if choice.list != nil {
		devs = slices.DeleteFunc(devs, func(d lz4warp.DeviceInfo) bool { return !slices.Contains(choice.list, d.Index) })
	}
	printDevices(e.stdout, devs, err)
	cfg := lz4warp.DefaultConfig()
	choice.apply(&cfg)
	c, err := lz4warp.NewGPUBatchCompressor(cfg)
	if err != nil {
		return fmt.Errorf("devices %s: %w", choice.String(), err)
	}
	n := len(c.Stats().Devices)
	if err := c.Close(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "a Compressor opened %d devices (%s)\n", n, choice.String())
	return nil
}

// printDevices lists devs, or says why there are none: why is Devices'
// error, nil when the driver works but counts no device.
func printDevices(w io.Writer, devs []lz4warp.DeviceInfo, why error) {
	if len(devs) == 0 {
		if why == nil {
			why = errors.New("the CUDA driver reports no device")
		}
		fmt.Fprintf(w, "no CUDA GPU: %v\nthe CPU backends (scalar, simd) will be used\n", why)
		return
	}
	for _, d := range devs {
		supported := "supported"
		if !d.IsSupported() {
			supported = fmt.Sprintf("not supported (compute capability below %d.0)", lz4warp.MinComputeMajor)
		}
		fmt.Fprintf(w, "device %d: %s\n", d.Index, d.Name)
		fmt.Fprintf(w, "  compute capability %d.%d, %s backend, %s\n", d.ComputeCapability[0], d.ComputeCapability[1], d.Backend, supported)
		fmt.Fprintf(w, "  memory %s, L2 cache %s\n", humanBytes(int64(d.TotalMemory)), humanBytes(int64(d.L2CacheSize)))
		fmt.Fprintf(w, "  optimal batch %d pages (80%% of the L2 in 4 KiB pages)\n", d.OptimalBatchSize())
	}
}
