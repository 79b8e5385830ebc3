package gpuimpl

import (
	"fmt"
	"github.com/lz4warp/lz4warp/internal/gputest"
	"slices"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp/internal/dataset"
)

// queuedSizes are BenchmarkKernelQueued's batch sizes.
var queuedSizes = []int{1000, 3000, 10000, 30000, 100000}

// queueDepth is the batch of the launch that each timed launch waits
// behind: some 70 µs of kernel on mixed pages, far longer than the host
// takes to queue the timed launch and its events.
const queueDepth = 1000

// BenchmarkKernelQueued times the page kernel by the device's own clock
// (RT-7, results/gpu-notebook.md): each timed launch is queued behind another launch
// of the kernel, so that the events around it see the kernel and not the
// host submitting it (the way nvbench times kernels, behind its blocking
// kernel). The pages stay on the device; nothing else is timed, and the
// events' own cost (about 1.3 µs on the H100) stays in. kernel-GB/s is the
// batch's bytes over the median time between the events, us/launch that
// time. BenchmarkGPUKernel in the root package times the kernel as a
// batch's pipeline runs it, behind its H2D copy in another stream.
func BenchmarkKernelQueued(b *testing.B) {
	gputest.Require(b)
	for _, name := range dataset.Names() {
		for _, size := range queuedSizes {
			b.Run(fmt.Sprintf("gpu/%s/%d", name, size), func(b *testing.B) {
				// The batch of BenchmarkGPUKernel: a set's first pages
				// depend on how many are loaded.
				set, err := dataset.Load(name, size)
				if err != nil {
					b.Skip(err)
				}
				e := openEngine(b, Options{BatchPages: size, RingSlots: 1})
				s := e.slots[0]
				pages := make([][PageSize]byte, size)
				for i := range pages {
					pages[i] = set[i%len(set)]
				}
				if err := s.stream.CopyHtoD(s.dSrc, pageBytes(pages)); err != nil {
					b.Fatal(err)
				}
				launch := func(n int) {
					if err := e.launchPages(s, NoFault, n, uint64(s.dSrc), uint64(s.dDst), uint64(s.dMeta), 0); err != nil {
						b.Fatal(err)
					}
				}
				b.SetBytes(int64(size) * PageSize)
				var times []time.Duration
				for b.Loop() {
					launch(min(size, queueDepth))
					if err := e.begin.Record(s.stream); err != nil {
						b.Fatal(err)
					}
					launch(size)
					if err := e.end.Record(s.stream); err != nil {
						b.Fatal(err)
					}
					if err := e.end.Synchronize(); err != nil {
						b.Fatal(err)
					}
					d, err := e.begin.Elapsed(e.end)
					if err != nil {
						b.Fatal(err)
					}
					times = append(times, d)
				}
				slices.Sort(times)
				median := times[len(times)/2]
				b.ReportMetric(float64(size*PageSize)/median.Seconds()/1e9, "kernel-GB/s")
				b.ReportMetric(us(median), "us/launch")
			})
		}
	}
}
