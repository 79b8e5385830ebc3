package gpuimpl

import (
	"bytes"
	"fmt"
	"github.com/lz4warp/lz4warp/internal/gputest"
	"strings"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp/internal/cudart"
	"github.com/lz4warp/lz4warp/internal/dataset"
)

// BenchmarkZeroCopyKernel times the page kernel alone on a batch whose
// pages it reads from a HostPages' mapped memory, over PCIe, against the
// same launch on the pages in device memory, and the stream variant
// (GPU-9) on the mapped pages: how fast a batch could stream through the
// kernel without the H2D copy. It reports kernel-GB/s (CUDA events around
// the launch) and checks that every launch gives the meta words of
// CompressHost's batch. The host-stream-L2::<n>B variants load the stream
// variant's text with the L2 prefetch size hint on its global vector loads
// (PTX ISA 7.4, sm_80 and later), to see whether the size of the L2's
// requests changes how fast pages cross PCIe.
func BenchmarkZeroCopyKernel(b *testing.B) {
	gputest.Require(b)
	for _, name := range []string{"mixed", "text", "random"} {
		for _, size := range []int{1000, 3000, 10000, 30000} {
			set, err := dataset.Load(name, size)
			if err != nil {
				b.Skip(err)
			}
			for _, from := range []string{"device", "host", "host-stream", "host-stream-L2::128B", "host-stream-L2::256B"} {
				b.Run(fmt.Sprintf("%s/%s/%d", from, name, size), func(b *testing.B) {
					benchZeroCopy(b, set, size, from)
				})
			}
		}
	}
}

// prefetchKernel is the stream variant for the engine's device with the
// L2 prefetch size hint (L2::128B or L2::256B) on its global vector loads.
func prefetchKernel(b *testing.B, e *Engine, hint string) *cudart.Function {
	if e.dev.sm < 80 {
		b.Skipf("sm_%d has no L2 prefetch size hint", e.dev.sm)
	}
	text := strings.ReplaceAll(KernelPTX(e.dev.sm), "ld.global.v4.", "ld.global."+hint+".v4.")
	mod, err := e.dev.ctx.LoadPTX(text)
	if err != nil {
		b.Fatal(err)
	}
	fn, err := mod.Function(StreamKernelName)
	if err != nil {
		b.Fatal(err)
	}
	return fn
}

// benchZeroCopy times a kernel on size pages of set, from as
// BenchmarkZeroCopyKernel names it.
func benchZeroCopy(b *testing.B, set []dataset.Page, size int, from string) {
	fromHost := from != "device"
	e, h := openHostPages(b, Options{BatchPages: 32768, RingSlots: 1, AsyncDMA: true}, set, size)
	// One batch registers h, allocates the slot and leaves the meta words.
	if _, _, err := e.CompressHost(h, size); err != nil {
		b.Fatal(err)
	}
	want := bytes.Clone(h.meta[:4*size])
	s := e.slots[0]
	src := uint64(s.dSrc)
	if fromHost {
		src = h.dev + offset(h.mem, pageBytes(h.Pages[:1]))
	} else if err := s.stream.CopyHtoD(s.dSrc, pageBytes(h.Pages[:size])); err != nil {
		b.Fatal(err)
	}
	grid, block, fn := cudart.Dim{X: Grid(size, e.dev.resident)}, cudart.Dim{X: ThreadsPerBlock}, e.dev.fn
	switch from {
	case "device", "host":
	case "host-stream":
		fn = e.dev.stream
	default:
		fn = prefetchKernel(b, e, strings.TrimPrefix(from, "host-stream-"))
	}
	var kernel time.Duration
	b.SetBytes(int64(size) * PageSize)
	for b.Loop() {
		steps := []func() error{
			func() error { return e.dev.ctx.Memset(s.dMeta, 0, 4*size) },
			func() error { return e.begin.Record(s.stream) },
			func() error {
				return s.stream.Launch(fn, grid, block, 0, src, uint64(s.dDst), uint64(s.dMeta), uint64(size), 0, uint64(s.dRecs), uint64(s.dSched))
			},
		}
		kernel += timeSteps(b, e, steps)
	}
	checkSlotMeta(b, e, want)
	b.ReportMetric(float64(size*PageSize)*float64(b.N)/kernel.Seconds()/1e9, "kernel-GB/s")
}

// timeSteps runs steps, then records e.end in slot 0's stream and returns
// the time from e.begin, which a step records, to it.
func timeSteps(b *testing.B, e *Engine, steps []func() error) time.Duration {
	steps = append(steps,
		func() error { return e.end.Record(e.slots[0].stream) },
		func() error { return e.end.Synchronize() })
	if err := runSteps(steps); err != nil {
		b.Fatal(err)
	}
	d, err := e.begin.Elapsed(e.end)
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// checkSlotMeta fails b unless slot 0's meta words are want.
func checkSlotMeta(b *testing.B, e *Engine, want []byte) {
	got := make([]byte, len(want))
	if err := e.dev.ctx.CopyDtoH(got, e.slots[0].dMeta); err != nil {
		b.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		b.Fatal("the kernels' meta words differ from CompressHost's")
	}
}

// BenchmarkSplitReads times a batch split in two, as a direct batch could
// be: the stream variant reads the first size-copied pages over PCIe while
// the copy engine copies the other copied pages to the device, after which
// the page kernel compresses them there (copied=0: the stream variant
// alone). Both transfers share the link; the copy engine moves its bytes in
// larger requests. It reports GB/s from the first event to the last (both
// kernels and the copy), with the pages' meta words checked against
// CompressHost's.
func BenchmarkSplitReads(b *testing.B) {
	gputest.Require(b)
	for _, name := range []string{"mixed", "text", "random"} {
		for _, size := range []int{3000, 10000} {
			set, err := dataset.Load(name, size)
			if err != nil {
				b.Skip(err)
			}
			for _, pct := range []int{0, 25, 40, 55, 70} {
				b.Run(fmt.Sprintf("%s/%d/copied=%d%%", name, size, pct), func(b *testing.B) {
					benchSplitReads(b, set, size, size*pct/100)
				})
			}
		}
	}
}

func benchSplitReads(b *testing.B, set []dataset.Page, size, copied int) {
	e, h := openHostPages(b, Options{BatchPages: 32768, RingSlots: 1, AsyncDMA: true}, set, size)
	if _, _, err := e.CompressHost(h, size); err != nil {
		b.Fatal(err)
	}
	want := bytes.Clone(h.meta[:4*size])
	s, ctx := e.slots[0], e.dev.ctx
	direct := size - copied
	sched2, err := ctx.Alloc(SchedBytes)
	if err != nil {
		b.Fatal(err)
	}
	defer ctx.Free(sched2)
	copiedEv, err := ctx.NewEvent()
	if err != nil {
		b.Fatal(err)
	}
	defer copiedEv.Destroy()
	block := cudart.Dim{X: ThreadsPerBlock}
	var total time.Duration
	b.SetBytes(int64(size) * PageSize)
	for b.Loop() {
		steps := []func() error{
			func() error { return ctx.Memset(s.dMeta, 0, 4*size) },
			func() error { return ctx.Memset(sched2, 0, SchedBytes) },
			func() error { return e.begin.Record(s.stream) },
			func() error { return e.in.Wait(e.begin) },
		}
		if direct > 0 {
			steps = append(steps, func() error {
				src := h.dev + offset(h.mem, pageBytes(h.Pages[:1]))
				return s.stream.Launch(e.dev.stream, cudart.Dim{X: Grid(direct, e.dev.resident)}, block, 0,
					src, uint64(s.dDst), uint64(s.dMeta), uint64(direct), 0, uint64(s.dRecs), uint64(s.dSched))
			})
		}
		if copied > 0 {
			at := uint64(direct)
			steps = append(steps,
				func() error { return e.in.CopyHtoD(s.dSrc, pageBytes(h.Pages[direct:size])) },
				func() error {
					return e.in.Launch(e.dev.fn, cudart.Dim{X: Grid(copied, e.dev.resident)}, block, 0,
						uint64(s.dSrc), uint64(s.dDst)+OutSlot*at, uint64(s.dMeta)+4*at, uint64(copied), 0,
						uint64(s.dRecs)+RecSlot*at, uint64(sched2))
				})
		}
		steps = append(steps,
			func() error { return copiedEv.Record(e.in) },
			func() error { return s.stream.Wait(copiedEv) },
		)
		total += timeSteps(b, e, steps)
	}
	checkSlotMeta(b, e, want)
	b.ReportMetric(float64(size*PageSize)*float64(b.N)/total.Seconds()/1e9, "split-GB/s")
}
