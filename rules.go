package lz4warp

import (
	"math"
	"math/big"
)

// Thresholds and constants of the documented rules (spec/api.md).
const (
	GPUMinBatch     = 1000 // API-3: fewest pages (per batch) for which the GPU is chosen
	CPUBaselineGBps = 3.0  // API-4: the CPU throughput the PCIe rule compares with, in 10⁹ bytes per second
	PCIeRuleFactor  = 5.0  // API-4, API-5: how many times faster the GPU path must be (a ratio)
	MinComputeMajor = 7    // API-10: oldest supported compute capability's major number (7.0)
)

// SelectBackend chooses the backend for a batch (API-3): the GPU for at
// least GPUMinBatch pages when one is available, else SIMD, the fast codec,
// whatever the size. BackendScalar, the reference codec, is the oracle that
// the others are checked against: CompressBatchOn runs it when asked.
func SelectBackend(batchSize int, gpuAvailable bool) Backend {
	if gpuAvailable && batchSize >= GPUMinBatch {
		return BackendGPU
	}
	return BackendSIMD
}

// MeetsPCIeRule is the documented 5x rule (API-4): with d = pages·4096/10⁹ GB,
// offloading pays when the CPU time d/3 exceeds five times the GPU path,
// 2d/pcie for the transfers plus d/gpu for the kernel. d cancels out, so for
// any positive page count the answer depends on the two rates alone
// (DOC-2). Non-positive or non-finite arguments give false.
func MeetsPCIeRule(pages int, pcieBandwidthGBps, gpuThroughputGBps float64) bool {
	if pages <= 0 || !positiveFinite(pcieBandwidthGBps) || !positiveFinite(gpuThroughputGBps) {
		return false
	}
	// d/3 > 5·(2d/pcie + d/gpu) with d > 0, multiplied by 3·pcie·gpu > 0:
	// pcie·gpu > 15·(2·gpu + pcie). d cancels, and the comparison is exact
	// (every float64 is a rational), so neither rounding nor the page count
	// can move the verdict at equality.
	pcie, gpu := new(big.Rat).SetFloat64(pcieBandwidthGBps), new(big.Rat).SetFloat64(gpuThroughputGBps)
	lhs := new(big.Rat).Mul(pcie, gpu)
	rhs := new(big.Rat).Add(new(big.Rat).Add(gpu, gpu), pcie)
	rhs.Mul(rhs, big.NewRat(PCIeRuleFactor*CPUBaselineGBps, 1))
	return lhs.Cmp(rhs) > 0
}

func positiveFinite(x float64) bool { return x > 0 && !math.IsInf(x, 1) }

// GPUBackend is the GPU programming interface of a device.
type GPUBackend int

// GPUBackendCUDA is NVIDIA CUDA, the only GPU backend.
const GPUBackendCUDA GPUBackend = 0

// String returns the backend's name, "cuda".
func (g GPUBackend) String() string {
	if g == GPUBackendCUDA {
		return "cuda"
	}
	return "GPUBackend(?)"
}

// DeviceInfo describes a GPU.
type DeviceInfo struct {
	Index             int        // the CUDA device ordinal, as Config.DeviceIndex takes it
	Name              string     // the driver's name of the device, e.g. "NVIDIA H100 80GB HBM3"
	TotalMemory       uint64     // device memory in bytes
	L2CacheSize       uint64     // L2 cache in bytes
	ComputeCapability [2]int     // major and minor version, e.g. {9, 0}
	Backend           GPUBackend // always GPUBackendCUDA
}

// OptimalBatchSize is 80% of the L2 cache counted in whole pages, rounded
// down (API-9): floor(floor(L2/4096)·0.8), computed in integers.
func (d DeviceInfo) OptimalBatchSize() int {
	return int(d.L2CacheSize/PageSize) * 4 / 5
}

// IsSupported reports a CUDA device of compute capability 7.0 or newer
// (API-10); the kernel needs match.sync, which sm_70 introduced.
func (d DeviceInfo) IsSupported() bool {
	return d.Backend == GPUBackendCUDA && d.ComputeCapability[0] >= MinComputeMajor
}
