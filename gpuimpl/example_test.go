package gpuimpl_test

import (
	"fmt"
	"strings"

	"github.com/lz4warp/lz4warp/gpuimpl"
)

// entries prints a module's target and its entry points.
func entries(text string) {
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, ".target") || strings.HasPrefix(line, ".visible .entry") {
			fmt.Println(strings.TrimSuffix(line, "("))
		}
	}
}

// KernelPTX is the page kernel's module for a target, the text a driver
// JIT-compiles; it is the same on every call. The stream variant is the
// page kernel for pages that cross PCIe as it reads them.
func ExampleKernelPTX() {
	entries(gpuimpl.KernelPTX(90))
	// Output:
	// .target sm_90
	// .visible .entry lz4warp_pages
	// .visible .entry lz4warp_pages_stream
}

// GatherPTX is the module of the D2H kernels, which run after the page
// kernel: the offsets kernel, then the gather kernel.
func ExampleGatherPTX() {
	entries(gpuimpl.GatherPTX(80))
	// Output:
	// .target sm_80
	// .visible .entry lz4warp_offsets
	// .visible .entry lz4warp_gather
}
