//go:build cuda

package gpuimpl

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp/internal/dataset"
)

// BenchmarkPipeline compresses batches from HostPages (as a PageBuffer
// does) with 8,192 pages per slot and 4 slots (RT-6): GB/s from the host
// clock, the median host time beyond the device's (its begin and end
// events) as host-us, and in the log the last batch's chunks, each with
// the times of its stage events in microseconds from the batch's start.
func BenchmarkPipeline(b *testing.B) {
	for _, name := range []string{"mixed", "binaries", "text"} {
		for _, size := range []int{1000, 3000, 10000, 30000} {
			set, err := dataset.Load(name, size)
			if err != nil {
				b.Skip(err)
			}
			b.Run(fmt.Sprintf("gpu/%s/%d", name, size), func(b *testing.B) {
				e := openEngine(b, Options{BatchPages: 8192, RingSlots: 4, AsyncDMA: true})
				h, err := e.NewHostPages(size)
				if err != nil {
					b.Fatal(err)
				}
				defer h.Close()
				for i := range h.Pages {
					h.Pages[i] = set[i%len(set)]
				}
				var timeline []string
				e.onChunk = func(lo, n int, at stageTimes) {
					timeline = append(timeline, fmt.Sprintf("%6d+%5d: h2d %5.0f-%5.0f kernel %5.0f-%5.0f counted %5.0f d2h -%5.0f",
						lo, n, us(at[evLoad]), us(at[evLoaded]), us(at[evLaunch]), us(at[evKernel]), us(at[evCounted]), us(at[evCopied])))
				}
				var over []time.Duration
				b.SetBytes(int64(size) * PageSize)
				for b.Loop() {
					timeline = timeline[:0]
					start := time.Now()
					_, t, err := e.CompressHost(h, size)
					if err != nil {
						b.Fatal(err)
					}
					over = append(over, time.Since(start)-t.Total)
				}
				slices.Sort(over)
				b.ReportMetric(us(over[len(over)/2]), "host-us")
				for _, l := range timeline {
					b.Log(l)
				}
			})
		}
	}
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
