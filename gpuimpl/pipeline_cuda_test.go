//go:build cuda

package gpuimpl

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp/internal/dataset"
)

var tailChunkFlag = flag.Int("tailchunk", 0, "BenchmarkPipeline: the smallest chunk of a batch's last pages (tailChunk); 0 keeps the default")

// BenchmarkPipeline compresses batches from HostPages (as a PageBuffer
// does) with 8,192 pages per slot and 4 slots (RT-6): GB/s from the host
// clock, the median and the longest wall time of a batch, the median host
// time beyond the device's (its begin and end events) as host-us, the pages' bytes over the time from the first H2D
// copy's start to the last one's end in the last batch as h2d-GB/s, and in
// the log the last batch's chunks, each with
// the times of its stage events in microseconds from the batch's start.
func BenchmarkPipeline(b *testing.B) {
	if *tailChunkFlag > 0 {
		defer func(t int) { tailChunk = t }(tailChunk)
		tailChunk = *tailChunkFlag
	}
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
				var timeline, host []string
				e.onHost = func(step string, k int, at time.Duration) {
					host = append(host, fmt.Sprintf("%s %d %.0f", step, k, us(at)))
				}
				var h2dFrom, h2dTo time.Duration
				e.onChunk = func(lo, n int, at stageTimes) {
					if lo == 0 {
						h2dFrom = at[evLoad]
					}
					h2dTo = max(h2dTo, at[evLoaded])
					timeline = append(timeline, fmt.Sprintf("%6d+%5d: h2d %5.0f-%5.0f kernel %5.0f-%5.0f counted %5.0f d2h -%5.0f",
						lo, n, us(at[evLoad]), us(at[evLoaded]), us(at[evLaunch]), us(at[evKernel]), us(at[evCounted]), us(at[evCopied])))
				}
				var over, wall []time.Duration
				var total, lastWall time.Duration // the last batch's, from its begin event to its end event, and by the host clock
				b.SetBytes(int64(size) * PageSize)
				for b.Loop() {
					timeline, host, h2dTo = timeline[:0], host[:0], 0
					start := time.Now()
					_, t, err := e.CompressHost(h, size)
					if err != nil {
						b.Fatal(err)
					}
					total, lastWall = t.Total, time.Since(start)
					wall = append(wall, time.Since(start))
					over = append(over, wall[len(wall)-1]-t.Total)
				}
				slices.Sort(over)
				slices.Sort(wall)
				b.ReportMetric(us(over[len(over)/2]), "host-us")
				b.ReportMetric(us(wall[len(wall)/2]), "wall-p50-us")
				b.ReportMetric(us(wall[len(wall)-1]), "wall-max-us")
				b.ReportMetric(float64(size*PageSize)/(h2dTo-h2dFrom).Seconds()/1e9, "h2d-GB/s")
				for _, l := range timeline {
					b.Log(l)
				}
				b.Logf("end %5.0f, wall %5.0f", us(total), us(lastWall))
				b.Logf("host: %s", strings.Join(host, ", "))
			})
		}
	}
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
