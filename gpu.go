package lz4warp

import (
	"fmt"

	"github.com/lz4warp/lz4warp/gpuimpl"
)

// Devices lists the CUDA devices; none in a build without -tags cuda.
func Devices() ([]DeviceInfo, error) {
	devs, err := gpuimpl.Devices()
	if err != nil {
		return nil, err
	}
	infos := make([]DeviceInfo, len(devs))
	for i, d := range devs {
		infos[i] = DeviceInfo{
			Index: d.Index, Name: d.Name, TotalMemory: d.TotalMemory, L2CacheSize: d.L2CacheSize,
			ComputeCapability: [2]int{d.Major, d.Minor}, Backend: GPUBackendCUDA,
		}
	}
	return infos, nil
}

// GPUAvailable reports whether a supported CUDA GPU can be used.
func GPUAvailable() bool { return usableGPU() == nil }

// usableGPU returns nil when a supported CUDA GPU can be used, and else an
// error wrapping ErrGPUNotAvailable that says why, where there is more to
// say than that no CUDA device was found.
func usableGPU() error {
	devs, err := Devices()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrGPUNotAvailable, err)
	}
	for _, d := range devs {
		if d.IsSupported() {
			return nil
		}
	}
	if len(devs) > 0 {
		return fmt.Errorf("%w: %d CUDA devices, none of compute capability 7.0 or higher",
			ErrGPUNotAvailable, len(devs))
	}
	return ErrGPUNotAvailable
}
