package gpuimpl_test

import (
	"errors"
	"fmt"

	"github.com/lz4warp/lz4warp/gpuimpl"
)

// Without a usable GPU, Open fails with ErrNotAvailable and the caller
// compresses on the CPU; with one, Open returns an engine and Compress runs
// the batch on it.
func ExampleOpen() {
	e, err := gpuimpl.Open(gpuimpl.Options{BatchPages: 1000, RingSlots: 4, AsyncDMA: true})
	if errors.Is(err, gpuimpl.ErrNotAvailable) {
		fmt.Println("no GPU: compress on the CPU")
		return
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()
	pages := make([][gpuimpl.PageSize]byte, 1000)
	out, t, err := e.Compress(pages)
	if errors.Is(err, gpuimpl.ErrFault) {
		fmt.Println("GPU fault: compress this batch on the CPU")
		return
	}
	fmt.Println(len(out), t.Kernel > 0)
}

// KernelTarget picks the PTX text a device gets from its compute capability.
func ExampleKernelTarget() {
	fmt.Println(gpuimpl.KernelTarget(9, 0), gpuimpl.KernelTarget(8, 7), gpuimpl.KernelTarget(12, 0), gpuimpl.KernelTarget(6, 1))
	// Output: 90 86 90 0
}
