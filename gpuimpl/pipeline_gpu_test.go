package gpuimpl

import (
	"flag"
	"fmt"
	"github.com/lz4warp/lz4warp/internal/gputest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/intlist"
)

var tailChunkFlag = flag.Int("tailchunk", 0, "BenchmarkPipeline: the smallest chunk of a batch's last pages (tailChunk); 0 keeps the default")

var directPagesFlag = flag.Int("directpages", -1, "BenchmarkPipeline, BenchmarkStartHost: the largest batch read and written through the mapping (directPages); -1 keeps the default")

var pipelineSizesFlag = flag.String("pipeline.sizes", "", "BenchmarkPipeline, BenchmarkStartHost: the batch sizes, comma-separated; empty keeps each one's list")

// setDirectPages sets directPages from -directpages until b ends.
func setDirectPages(b *testing.B) {
	if *directPagesFlag >= 0 {
		v := directPages
		b.Cleanup(func() { directPages = v })
		directPages = *directPagesFlag
	}
}

// pipelineSizes is -pipeline.sizes, or sizes when it is empty.
func pipelineSizes(b *testing.B, sizes ...int) []int {
	given, err := intlist.Parse(*pipelineSizesFlag)
	if err != nil {
		b.Fatalf("-pipeline.sizes: %v", err)
	}
	if len(given) == 0 {
		return sizes
	}
	return given
}

// BenchmarkPipeline compresses batches from HostPages (as a PageBuffer
// does) with 8,192 pages per slot and 4 slots (RT-6). It reports GB/s by
// the host clock, the median and the longest wall time of a batch, the
// median host time beyond the device's (its begin and end events) as
// host-us, the slowest batch's device span as slowest-span-us (beside
// wall-max-us, where that batch lost its time), and, for the last batch, the pages' bytes over the span of its
// H2D copies as h2d-GB/s (of a batch that is not direct: a direct one copies nothing); it logs that batch's chunks, each with the times
// of its stage events from the batch's begin event, its begin-to-end time,
// and the host's steps. A batch's last chunk finishes after the batch's end
// event: its event times are read after the last batch, not in its way.
func BenchmarkPipeline(b *testing.B) {
	gputest.Require(b)
	setDirectPages(b)
	if *tailChunkFlag > 0 {
		defer func(t int) { tailChunk = t }(tailChunk)
		tailChunk = *tailChunkFlag
	}
	type chunkTimes struct {
		lo, n int
		ev    stageEvents // read at once, but for the batch's last chunk
		at    [numStageEvents]time.Duration
	}
	for _, name := range []string{"mixed", "binaries", "text"} {
		for _, size := range pipelineSizes(b, 1000, 3000, 10000, 20000, 30000) {
			set, err := dataset.Load(name, size)
			if err != nil {
				b.Skip(err)
			}
			b.Run(fmt.Sprintf("gpu/%s/%d", name, size), func(b *testing.B) {
				e, h := openHostPages(b, Options{BatchPages: 8192, RingSlots: 4, AsyncDMA: true}, set, size)
				var chunks []chunkTimes
				times := func(c *chunkTimes) {
					for j, ev := range c.ev {
						var err error
						if c.at[j], err = e.begin.Elapsed(ev); err != nil {
							b.Fatal(err)
						}
					}
				}
				e.onChunk = func(lo, n int, ev stageEvents) {
					c := chunkTimes{lo: lo, n: n, ev: ev}
					if lo+n < size {
						times(&c) // while later chunks run: the events are reused
					}
					chunks = append(chunks, c)
				}
				var host []string
				e.onHost = func(step string, k int, at time.Duration) {
					host = append(host, fmt.Sprintf("%s %d %.0f", step, k, us(at)))
				}
				var over, wall []time.Duration
				var slowWall, slowSpan time.Duration // the slowest batch's wall time and device span
				var total, last time.Duration        // the last batch's begin-to-end time and wall time
				b.SetBytes(int64(size) * PageSize)
				for b.Loop() {
					chunks, host = chunks[:0], host[:0]
					start := time.Now()
					_, t, err := e.CompressHost(h, size)
					if err != nil {
						b.Fatal(err)
					}
					elapsed := time.Since(start)
					wall, over = append(wall, elapsed), append(over, elapsed-t.Total)
					total, last = t.Total, elapsed
					if elapsed > slowWall {
						slowWall, slowSpan = elapsed, t.Total
					}
				}
				if len(chunks) > 0 { // a direct batch (RT-14) has no chunk events
					times(&chunks[len(chunks)-1])
				}
				var h2dFrom, h2dTo time.Duration
				for i, c := range chunks {
					at := c.at
					if i == 0 {
						h2dFrom = at[evLoad]
					}
					h2dTo = max(h2dTo, at[evLoaded])
					b.Logf("%6d+%5d: h2d %5.0f-%5.0f kernel %5.0f-%5.0f counted %5.0f d2h -%5.0f",
						c.lo, c.n, us(at[evLoad]), us(at[evLoaded]), us(at[evLaunch]), us(at[evKernel]), us(at[evCounted]), us(at[evCopied]))
				}
				b.Logf("end %5.0f, wall %5.0f", us(total), us(last))
				b.Logf("host: %s", strings.Join(host, ", "))
				slices.Sort(over)
				slices.Sort(wall)
				b.ReportMetric(us(over[len(over)/2]), "host-us")
				// Whether the slowest batch lost its time on the device or
				// on the host.
				b.ReportMetric(us(slowSpan), "slowest-span-us")
				b.ReportMetric(us(wall[len(wall)/2]), "wall-p50-us")
				b.ReportMetric(us(wall[len(wall)-1]), "wall-max-us")
				if size > directPages {
					b.ReportMetric(float64(size*PageSize)/(h2dTo-h2dFrom).Seconds()/1e9, "h2d-GB/s")
				}
			})
		}
	}
}

// openHostPages opens an engine with opts and a HostPages of size pages,
// taken from set in turn, which the benchmark's end closes.
func openHostPages(b *testing.B, opts Options, set []dataset.Page, size int) (*Engine, *HostPages) {
	e := openEngine(b, opts)
	h, err := e.NewHostPages(size)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { h.Close() })
	for i := range h.Pages {
		h.Pages[i] = set[i%len(set)]
	}
	return e, h
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// BenchmarkStartHost times a stream of direct batches (RT-15) of one size
// with up to inflight of them on their way: each batch starts on the next
// of inflight HostPages once the batch before on it is taken. inflight=1
// is a batch at a time, as CompressHost runs them.
func BenchmarkStartHost(b *testing.B) {
	gputest.Require(b)
	setDirectPages(b)
	for _, name := range []string{"mixed", "text", "binaries", "random", "zeros"} {
		for _, size := range pipelineSizes(b, 1000, 3000, 10000) {
			set, err := dataset.Load(name, size)
			if err != nil {
				b.Skip(err)
			}
			for _, inflight := range []int{1, 2, 4} {
				b.Run(fmt.Sprintf("gpu/%s/%d/inflight=%d", name, size, inflight), func(b *testing.B) {
					e, h := openHostPages(b, Options{BatchPages: 1000, RingSlots: 4, AsyncDMA: true}, set, size)
					hosts := []*HostPages{h}
					for len(hosts) < inflight {
						h, err := e.NewHostPages(size)
						if err != nil {
							b.Fatal(err)
						}
						b.Cleanup(func() { h.Close() })
						copy(h.Pages, hosts[0].Pages)
						hosts = append(hosts, h)
					}
					started := make([]*Pending, inflight)
					take := func(p *Pending) {
						if p == nil {
							return
						}
						if _, _, err := p.Wait(); err != nil {
							b.Fatal(err)
						}
					}
					for _, h := range hosts { // registers each, before the timed loop
						if _, _, err := e.CompressHost(h, size); err != nil {
							b.Fatal(err)
						}
					}
					b.SetBytes(int64(size) * PageSize)
					b.ResetTimer()
					for i := range b.N {
						k := i % inflight
						take(started[k])
						p, err := e.StartHost(hosts[k], size)
						if err != nil {
							b.Fatal(err)
						}
						started[k] = p
					}
					for _, p := range started {
						take(p) // timed: every batch ends inside the loop's time
					}
				})
			}
		}
	}
}
