package lz4warp

import (
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// Checks API-5: strictly greater, all-zero timings false, no wrap-around.
func TestPCIeRuleSatisfied(t *testing.T) {
	const ms = time.Millisecond
	cases := []struct {
		name             string
		h2d, kernel, d2h time.Duration
		want             bool
	}{
		{name: "all zero (empty or CPU batch)", want: false},
		{name: "kernel only", kernel: 1, want: true},
		{name: "equal sides", h2d: 1 * ms, d2h: 1 * ms, kernel: 10 * ms, want: false},
		{name: "one nanosecond over", h2d: 1 * ms, d2h: 1 * ms, kernel: 10*ms + 1, want: true},
		{name: "one nanosecond under", h2d: 1 * ms, d2h: 1 * ms, kernel: 10*ms - 1, want: false},
		{name: "transfer only", h2d: 3 * ms, d2h: 2 * ms, want: false},
		{name: "only H2D counted", h2d: 2 * ms, kernel: 10*ms + 1, want: true},
		{name: "only D2H counted", d2h: 2 * ms, kernel: 10 * ms, want: false},
		{name: "kernel-bound batch", h2d: 5 * ms, d2h: 5 * ms, kernel: 51 * ms, want: true},
		{name: "transfer-bound batch", h2d: 20 * ms, d2h: 20 * ms, kernel: 30 * ms, want: false},
		// 5 × (H2D + D2H) does not fit in an int64: it must not wrap negative.
		{name: "huge transfers", h2d: math.MaxInt64 / 2, d2h: math.MaxInt64 / 2, kernel: math.MaxInt64, want: false},
		{name: "huge sum overflows", h2d: math.MaxInt64, d2h: math.MaxInt64, kernel: math.MaxInt64, want: false},
		{name: "huge kernel, small transfer", h2d: 1, d2h: 1, kernel: math.MaxInt64, want: true},
		{name: "largest exact transfer", h2d: math.MaxInt64 / 5, kernel: math.MaxInt64, want: true},
		// Out of range by a little, where float64 rounding would say true.
		{name: "just out of range", h2d: 135020099696019285, d2h: 1709654307674935883, kernel: math.MaxInt64 - 337, want: false},
		{name: "negative sum overflows", h2d: math.MinInt64, d2h: -1, kernel: math.MinInt64, want: true},
		{name: "product under range", h2d: math.MinInt64 / 5, d2h: -1, kernel: math.MinInt64, want: true},
		// Each wrap-around with the smallest other term, and the exact ends
		// of the range of 5 × (H2D + D2H).
		{name: "sum wraps by one", h2d: 1, d2h: math.MaxInt64, kernel: math.MaxInt64, want: false},
		{name: "sum wraps by one, D2H", h2d: math.MaxInt64, d2h: 1, kernel: math.MaxInt64, want: false},
		{name: "negative sum wraps by one", h2d: -1, d2h: math.MinInt64, kernel: math.MinInt64, want: true},
		{name: "negative sum wraps by one, D2H", h2d: math.MinInt64, d2h: -1, kernel: math.MinInt64, want: true},
		{name: "negative sum wraps to 0", h2d: math.MinInt64, d2h: math.MinInt64, kernel: 0, want: true},
		{name: "smallest exact transfer", h2d: math.MinInt64 / 5, kernel: math.MinInt64, want: false},
		{name: "smallest exact transfer, D2H", d2h: math.MinInt64 / 5, kernel: math.MinInt64 + 4, want: true},
	}
	for _, c := range cases {
		r := &BatchResult{H2DTime: c.h2d, KernelTime: c.kernel, D2HTime: c.d2h}
		assert.Equal(t, c.want, r.PCIeRuleSatisfied(), c.name)
	}
	// An empty batch.
	assert.False(t, (&BatchResult{}).PCIeRuleSatisfied())
	assert.False(t, (&BatchResult{Pages: []CompressedPage{}, Backend: BackendGPU}).PCIeRuleSatisfied())
}

// Checks API-5 against exact arithmetic over the whole range of
// durations, where 5 × (H2D + D2H) may leave int64's: at random, and
// swept about the edge of the range, where rounding in float64 would
// decide some cases wrongly.
func TestPCIeRuleSatisfiedExact(t *testing.T) {
	check := func(t require.TestingT, h2d, kernel, d2h int64) {
		bound := new(big.Int).Add(big.NewInt(h2d), big.NewInt(d2h))
		bound.Mul(bound, big.NewInt(PCIeRuleFactor))
		want := big.NewInt(kernel).Cmp(bound) > 0
		r := &BatchResult{H2DTime: time.Duration(h2d), KernelTime: time.Duration(kernel), D2HTime: time.Duration(d2h)}
		require.Equal(t, want, r.PCIeRuleSatisfied(), "kernel %d, H2D %d, D2H %d", kernel, h2d, d2h)
	}
	const edge = math.MaxInt64 / int64(PCIeRuleFactor) // where 5 × transfer leaves the range
	for _, sign := range []int64{1, -1} {
		for dt := int64(-256); dt <= 256; dt++ {
			for dk := int64(0); dk < 1024; dk += 3 {
				check(t, sign*(edge+dt), sign*(math.MaxInt64-dk), sign*(dt%7))
			}
		}
	}
	duration := rapid.OneOf(rapid.Int64(), rapid.Int64Range(math.MaxInt64-1<<40, math.MaxInt64),
		rapid.Int64Range(math.MinInt64, math.MinInt64+1<<40), rapid.Int64Range(-1<<40, 1<<40))
	rapid.Check(t, func(t *rapid.T) {
		check(t, duration.Draw(t, "h2d"), duration.Draw(t, "kernel"), duration.Draw(t, "d2h"))
	})
}

// Checks API-6.
func TestThroughputBytesPerSec(t *testing.T) {
	r := &BatchResult{TotalTime: 2 * time.Second}
	assert.Equal(t, 2048.0, r.ThroughputBytesPerSec(4096))
	assert.Equal(t, 0.0, r.ThroughputBytesPerSec(0))
	r = &BatchResult{TotalTime: time.Millisecond}
	assert.InDelta(t, 4096e3, r.ThroughputBytesPerSec(4096), 1e-6)
	r = &BatchResult{TotalTime: time.Nanosecond}
	assert.InEpsilon(t, 4096e9, r.ThroughputBytesPerSec(4096), 1e-12)
	// Zero or negative total time: 0, never Inf or NaN.
	for _, d := range []time.Duration{0, -1, -time.Second} {
		got := (&BatchResult{TotalTime: d}).ThroughputBytesPerSec(1 << 20)
		assert.Equal(t, 0.0, got, "TotalTime %v", d)
	}
	// The GPU timings play no part.
	r = &BatchResult{TotalTime: time.Second, H2DTime: time.Hour, KernelTime: time.Hour}
	assert.Equal(t, 1e6, r.ThroughputBytesPerSec(1e6))
}

// Checks API-7.
func TestBatchCompressionRatio(t *testing.T) {
	assert.Equal(t, 1.0, (&BatchResult{}).CompressionRatio(), "empty batch")
	r := &BatchResult{Pages: []CompressedPage{{Kind: KindSame, Data: make([]byte, 8)}}}
	assert.Equal(t, 512.0, r.CompressionRatio())
	r = &BatchResult{Pages: []CompressedPage{
		{Kind: KindSame, Data: make([]byte, 8)},
		{Kind: KindRaw, Data: make([]byte, PageSize)},
		{Kind: KindLZ4, Data: make([]byte, 1000)},
	}}
	assert.InDelta(t, 3*4096.0/(8+4096+1000), r.CompressionRatio(), 1e-12)
	// Pages whose payloads sum to 0 (only a malformed result has them).
	r = &BatchResult{Pages: []CompressedPage{{Kind: KindLZ4}, {Kind: KindLZ4}}}
	assert.Equal(t, 1.0, r.CompressionRatio())
	// All raw: exactly 1.
	r = &BatchResult{Pages: []CompressedPage{{Kind: KindRaw, Data: make([]byte, PageSize)}}}
	assert.Equal(t, 1.0, r.CompressionRatio())
}

// Checks API-8.
func TestStatsFormulas(t *testing.T) {
	assert.Equal(t, 1.0, Stats{}.CompressionRatio())
	assert.Equal(t, 0.0, Stats{}.ThroughputGBps())
	assert.Equal(t, 1.0, Stats{TotalBytesIn: 4096}.CompressionRatio(), "nothing written")
	assert.Equal(t, 4.0, Stats{TotalBytesIn: 4096, TotalBytesOut: 1024}.CompressionRatio())
	assert.Equal(t, 0.0, Stats{TotalBytesIn: 1e9}.ThroughputGBps(), "no time spent")
	assert.Equal(t, 0.0, Stats{TotalBytesIn: 1e9, TotalTime: -time.Second}.ThroughputGBps())
	assert.Equal(t, 2.0, Stats{TotalBytesIn: 2e9, TotalTime: time.Second}.ThroughputGBps())
	assert.InDelta(t, 4.096, Stats{TotalBytesIn: 4096, TotalTime: time.Microsecond}.ThroughputGBps(), 1e-12)
	assert.InDelta(t, 1.0, Stats{TotalBytesIn: 1, TotalTime: time.Nanosecond}.ThroughputGBps(), 1e-12, "the shortest time")
}
