package lz4warp

import "github.com/lz4warp/lz4warp/gpuimpl"

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
func GPUAvailable() bool {
	devs, err := Devices()
	if err != nil {
		return false
	}
	for _, d := range devs {
		if d.IsSupported() {
			return true
		}
	}
	return false
}
