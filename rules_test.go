package lz4warp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Checks API-3, DOC-4: every threshold, with and without a GPU.
func TestSelectBackend(t *testing.T) {
	cases := []struct {
		pages   int
		withGPU Backend
		noGPU   Backend
	}{
		{math.MinInt, BackendSIMD, BackendSIMD},
		{-1, BackendSIMD, BackendSIMD},
		{0, BackendSIMD, BackendSIMD},
		{1, BackendSIMD, BackendSIMD},
		{3, BackendSIMD, BackendSIMD},
		{4, BackendSIMD, BackendSIMD},
		{5, BackendSIMD, BackendSIMD},
		{999, BackendSIMD, BackendSIMD},
		{1000, BackendGPU, BackendSIMD},
		{1001, BackendGPU, BackendSIMD},
		{5000, BackendGPU, BackendSIMD}, // DOC-4: select_backend(5000, true) is the GPU
		{math.MaxInt, BackendGPU, BackendSIMD},
	}
	for _, c := range cases {
		assert.Equal(t, c.withGPU, SelectBackend(c.pages, true), "SelectBackend(%d, true)", c.pages)
		assert.Equal(t, c.noGPU, SelectBackend(c.pages, false), "SelectBackend(%d, false)", c.pages)
	}
	assert.Equal(t, 1000, GPUMinBatch)
}

// Checks API-4, DOC-3, DOC-6.
func TestMeetsPCIeRule(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	cases := []struct {
		name      string
		pages     int
		pcie, gpu float64
		want      bool
	}{
		{"documented example", 10000, 64, 500, true}, // DOC-3
		{"one page, same rates", 1, 64, 500, true},   // DOC-2: d cancels
		{"zero pages", 0, 64, 500, false},
		{"negative pages", -1, 64, 500, false},
		{"zero pcie", 10000, 0, 500, false},
		{"negative pcie", 10000, -64, 500, false},
		{"zero gpu", 10000, 64, 0, false},
		{"negative gpu", 10000, 64, -500, false},
		{"NaN pcie", 10000, nan, 500, false},
		{"NaN gpu", 10000, 64, nan, false},
		{"+Inf pcie", 10000, inf, 500, false},
		{"+Inf gpu", 10000, 64, inf, false},
		{"-Inf pcie", 10000, -inf, 500, false},
		{"-Inf gpu", 10000, 64, -inf, false},
		// Both negative: the formula alone would say true (its terms
		// change sign), so the sign check must give false.
		{"both rates negative", 10000, -0.5, -0.5, false},
		{"both Inf", 10000, inf, inf, false},
		{"tiny positive rates", 10000, math.SmallestNonzeroFloat64, math.SmallestNonzeroFloat64, false},
		{"huge rates", 10000, math.MaxFloat64, math.MaxFloat64, true},
		// DOC-6: 10/pcie alone must stay under 1/3, so 30 GB/s never suffices.
		{"Gen3 x16, any GPU", 10000, 16, 1e12, false},
		{"30 GB/s, any GPU", 10000, 30, 1e12, false},
		{"31 GB/s, very fast GPU", 10000, 31, 1e12, true},
		// DOC-6: Gen4 x16 (32 GB/s) needs a GPU faster than 240 GB/s.
		{"Gen4 x16, 239 GB/s GPU", 10000, 32, 239, false},
		{"Gen4 x16, 241 GB/s GPU", 10000, 32, 241, true},
		// DOC-6: Gen5 x16 (64 GB/s) needs one faster than about 28.2 GB/s.
		{"Gen5 x16, 28.2 GB/s GPU", 10000, 64, 28.2, false},
		{"Gen5 x16, 28.3 GB/s GPU", 10000, 64, 28.3, true},
		{"max pages", math.MaxInt, 64, 500, true},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, MeetsPCIeRule(c.pages, c.pcie, c.gpu), "%s: MeetsPCIeRule(%d, %g, %g)", c.name, c.pages, c.pcie, c.gpu)
	}
}

// Checks API-4, DOC-2: for positive page counts the verdict depends on the
// rates alone, and agrees with the closed form 1/3 > 10/pcie + 5/gpu.
func TestMeetsPCIeRuleIgnoresPageCount(t *testing.T) {
	rates := []float64{1, 8, 16, 28, 30, 31, 32, 50, 64, 128, 200, 240, 250, 500, 1000, 1e6}
	for _, pcie := range rates {
		for _, gpu := range rates {
			closed := 1.0/3 > 10/pcie+5/gpu
			if math.Abs(1.0/3-(10/pcie+5/gpu)) < 1e-9 {
				continue // on the boundary, rounding decides
			}
			for _, pages := range []int{1, 2, 3, 999, 1000, 10000, 1 << 20, 1 << 40} {
				assert.Equal(t, closed, MeetsPCIeRule(pages, pcie, gpu), "pages %d, pcie %g, gpu %g", pages, pcie, gpu)
			}
		}
	}
}

// Checks API-9, DOC-1: the rule, against the documentation's table with each
// GPU's real L2 size. The RTX 3090 row of the table (6,144) disagrees with
// the rule; the rule wins.
func TestOptimalBatchSize(t *testing.T) {
	const MiB = 1 << 20
	cases := []struct {
		gpu  string
		l2   uint64
		want int
	}{
		{"H100", 50 * MiB, 10240},
		{"A100", 40 * MiB, 8192},
		{"RTX 4090", 72 * MiB, 14745},
		{"RTX 3090", 6 * MiB, 1228}, // the table says 6,144
		{"no L2", 0, 0},
		{"less than a page", PageSize - 1, 0},
		{"one page", PageSize, 0},           // floor(1 × 0.8)
		{"five pages", 5 * PageSize, 4},     // exactly 80%
		{"partial page", 6*PageSize - 1, 4}, // whole pages only: floor(5 × 0.8)
		{"six pages", 6 * PageSize, 4},      // floor(4.8)
	}
	for _, c := range cases {
		d := DeviceInfo{Name: c.gpu, L2CacheSize: c.l2}
		assert.Equal(t, c.want, d.OptimalBatchSize(), "%s (L2 %d bytes)", c.gpu, c.l2)
	}
	// The table's 6,144 would need 7,680 pages of L2: 30 MiB.
	assert.Equal(t, 6144, DeviceInfo{L2CacheSize: 30 * MiB}.OptimalBatchSize())
	// One formula: floor(floor(L2/4096) × 0.8) for every size, in integers.
	for l2 := uint64(0); l2 < 1<<24; l2 += 4093 {
		want := int(math.Floor(float64(l2/PageSize) * 0.8))
		if got := (DeviceInfo{L2CacheSize: l2}).OptimalBatchSize(); got != want {
			t.Fatalf("L2 %d: OptimalBatchSize %d, want %d", l2, got, want)
		}
	}
}

// Checks API-10.
func TestIsSupported(t *testing.T) {
	cases := []struct {
		cc   [2]int
		be   GPUBackend
		want bool
	}{
		{[2]int{5, 0}, GPUBackendCUDA, false},
		{[2]int{6, 1}, GPUBackendCUDA, false},
		{[2]int{6, 9}, GPUBackendCUDA, false},
		{[2]int{7, 0}, GPUBackendCUDA, true},
		{[2]int{7, 5}, GPUBackendCUDA, true},
		{[2]int{8, 6}, GPUBackendCUDA, true},
		{[2]int{9, 0}, GPUBackendCUDA, true},
		{[2]int{12, 0}, GPUBackendCUDA, true},
		{[2]int{9, 0}, GPUBackend(1), false}, // not CUDA
		{[2]int{0, 0}, GPUBackendCUDA, false},
	}
	for _, c := range cases {
		d := DeviceInfo{ComputeCapability: c.cc, Backend: c.be}
		assert.Equal(t, c.want, d.IsSupported(), "compute capability %d.%d, backend %v", c.cc[0], c.cc[1], c.be)
	}
	assert.Equal(t, "cuda", GPUBackendCUDA.String())
}
