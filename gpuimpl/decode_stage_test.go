package gpuimpl

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp/internal/cudart"
	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/internal/gputest"
)

// BenchmarkDecodeStage measures the host's share of a GPU decode batch
// (RT-17): laying out a batch's chunks, descriptors and payloads, in a
// staging buffer of Go memory and, where a GPU is usable, of pinned memory
// (fill/<memory>/<dataset>/<batch>: the engine's batchLayout.fill),
// against one copy of the payloads' bytes, which lie back to back, into the same buffer (copy/...). MB/s are
// of decoded output, 4,096 bytes a page, as the decode benchmarks count.
func BenchmarkDecodeStage(b *testing.B) {
	memories := map[string]func(n int) []byte{"go": func(n int) []byte { return make([]byte, n) }}
	if gputest.Usable() == nil {
		ctx, err := cudart.NewContext(0)
		if err != nil {
			b.Fatal(err)
		}
		defer ctx.Close()
		memories["pinned"] = func(n int) []byte {
			h, err := ctx.HostAlloc(n)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { h.Free() })
			return h.Bytes
		}
	}
	for _, name := range []string{"mixed", "coredump"} {
		for _, n := range []int{10000, 100000} {
			pages, err := dataset.Load(name, n)
			if err != nil {
				b.Fatal(err)
			}
			outs, payloads := encodeBackToBack(pages)
			layout := layoutBatch(outs, make([]uint32, n))
			for _, mem := range []string{"go", "pinned"} {
				alloc := memories[mem]
				if alloc == nil {
					continue
				}
				staging := alloc(layout.size)
				b.Run(fmt.Sprintf("fill/%s/%s/%d", mem, name, n), func(b *testing.B) {
					b.SetBytes(int64(n) * PageSize)
					for b.Loop() {
						layout.fill(staging, outs, func(int, []byte, int) error { return nil })
					}
				})
				b.Run(fmt.Sprintf("copy/%s/%s/%d", mem, name, n), func(b *testing.B) {
					b.SetBytes(int64(n) * PageSize)
					for b.Loop() {
						parallelCopy(staging[:len(payloads)], payloads)
					}
				})
			}
		}
	}
}

// encodeBackToBack compresses pages with the fast codec, their payloads
// back to back in one buffer, as a CPU batch stores them.
func encodeBackToBack(pages [][PageSize]byte) ([]Output, []byte) {
	var e fastlz4.Encoder
	buf := make([]byte, 0, len(pages)*fastlz4.CompressBlockBound(PageSize))
	outs := make([]Output, len(pages))
	for i := range pages {
		at := len(buf)
		kind, n := e.EncodePage(buf[at:at+fastlz4.CompressBlockBound(PageSize)], &pages[i])
		buf = buf[:at+n]
		outs[i] = Output{Kind: uint8(kind), Data: buf[at : at+n : at+n]}
	}
	return outs, buf
}

// BenchmarkDecodeHost decodes a batch into a HostPages (DecompressHost)
// and reports, beside the wall clock's MB/s of output, the host's layout
// (stage-GB/s), the device's span from its first to its last event
// (device-GB/s) and the kernels' (kernel-GB/s), medians of the batches;
// the first batch, which allocates the buffers, is not timed.
func BenchmarkDecodeHost(b *testing.B) {
	gputest.Require(b)
	for _, name := range []string{"mixed", "coredump"} {
		for _, n := range []int{10000, 100000} {
			b.Run(fmt.Sprintf("gpu/%s/%d", name, n), func(b *testing.B) {
				pages, err := dataset.Load(name, n)
				if err != nil {
					b.Fatal(err)
				}
				outs, _ := encodeBackToBack(pages)
				e, err := Open(Options{BatchPages: 1, RingSlots: 1})
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close()
				h, err := e.NewHostPages(n)
				if err != nil {
					b.Fatal(err)
				}
				defer h.Close()
				status := make([]uint32, n)
				if _, err := e.DecompressHost(outs, h, status); err != nil {
					b.Fatal(err)
				}
				var stage, total, kernel []time.Duration
				b.SetBytes(int64(n) * PageSize)
				for b.Loop() {
					t, err := e.DecompressHost(outs, h, status)
					if err != nil {
						b.Fatal(err)
					}
					stage, total, kernel = append(stage, t.Stage), append(total, t.Total), append(kernel, t.Kernel)
				}
				for i := range status {
					if status[i] != DecodeOK || h.Pages[i] != pages[i] {
						b.Fatalf("page %d: status %#x, or not the page", i, status[i])
					}
				}
				bytes := float64(n * PageSize)
				for _, m := range []struct {
					d    []time.Duration
					name string
				}{{stage, "stage-GB/s"}, {total, "device-GB/s"}, {kernel, "kernel-GB/s"}} {
					slices.Sort(m.d)
					b.ReportMetric(bytes/m.d[len(m.d)/2].Seconds()/1e9, m.name)
				}
			})
		}
	}
}
