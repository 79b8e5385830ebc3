package lz4warp

import (
	"fmt"

	"github.com/lz4warp/lz4warp/gpuimpl"
	"github.com/lz4warp/lz4warp/internal/cudart"
)

// ErrNoDriver reports that the CUDA driver library (libcuda.so.1) is not
// installed, or lacks a function lz4warp calls. Errors that say why no GPU
// is used wrap it where that is the cause.
var ErrNoDriver = cudart.ErrNoDriver

// CUDAError is a failed CUDA driver call: Op names the call and Code the
// driver's result (Code.Name() is the driver's name for it, such as
// CUDA_ERROR_NO_DEVICE). Errors that say why no GPU is used wrap it where a
// driver call failed; errors.As finds it.
type CUDAError = cudart.Error

// Devices lists the CUDA devices. Where the driver cannot be used (no
// driver library, or its initialisation failed) it returns an error
// wrapping ErrGPUNotAvailable and the cause; a machine whose driver works
// but counts no device has none, and no error.
func Devices() ([]DeviceInfo, error) {
	devs, err := gpuimpl.Devices()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGPUNotAvailable, err)
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
// error wrapping ErrGPUNotAvailable that says why: no driver library, the
// driver's initialisation error, no device, or no supported device.
func usableGPU() error {
	devs, err := Devices()
	if err != nil {
		return err
	}
	for _, d := range devs {
		if d.IsSupported() {
			return nil
		}
	}
	if len(devs) > 0 {
		return fmt.Errorf("%w: %d CUDA devices, none of compute capability %d.0 or higher",
			ErrGPUNotAvailable, len(devs), MinComputeMajor)
	}
	return fmt.Errorf("%w: the CUDA driver reports no device", ErrGPUNotAvailable)
}
