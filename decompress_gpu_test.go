package lz4warp

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp/gpuimpl"
	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/gputest"
)

// decodeOnCPUBackend is the CPU's pages and error for comp.
func decodeOnCPUBackend(comp []CompressedPage) ([]Page, error) {
	want := make([]Page, len(comp))
	return want, decompressParallel(comp, want)
}

// sameDecode fails t unless got and gotErr are the CPU's want and wantErr:
// the same error text (the same pages, each with the same error) and the
// same bytes for every page that decodes.
func sameDecode(t *testing.T, what string, got, want []Page, gotErr, wantErr error) {
	t.Helper()
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("%s: %v\nthe CPU: %v", what, gotErr, wantErr)
	}
	failed := map[int]bool{}
	var de *DecodeError
	if errors.As(wantErr, &de) {
		for _, p := range de.Pages {
			failed[p.Index] = true
		}
	}
	for i := range want {
		if !failed[i] && got[i] != want[i] {
			t.Fatalf("%s: page %d differs from the CPU's", what, i)
		}
	}
}

// Checks API-25, API-26, API-27, GPU-11: with a GPU, DecompressBatch
// decodes on the CPU even a batch far above GPUMinDecodeBatch (a fault
// injected before it stays pending, for the next GPU batch), and every GPU
// path (DecompressBatchOn, DecompressBuffer and DecompressBufferAsync into
// a page-locked buffer) gives the CPU's pages and *DecodeError.
func TestDecompressOnGPU(t *testing.T) {
	gputest.Require(t)
	c := newGPUCompressor(t, 4096)
	n := 11234
	_, comp := decodeBatch(t, c, n)
	want, wantErr := decodeOnCPUBackend(comp)
	if wantErr == nil {
		t.Fatal("the batch has no damaged page")
	}
	got := make([]Page, n)
	before := c.Stats()
	c.gpu.injectFault(0, gpuimpl.FaultOutOfMemory)
	sameDecode(t, "DecompressBatch", got, want, c.DecompressBatch(comp, got), wantErr)
	if c.Stats().GPUFallbacks != before.GPUFallbacks {
		t.Errorf("DecompressBatch went to the GPU")
	}
	clear(got)
	sameDecode(t, "DecompressBatchOn(gpu), faulting", got, want, c.DecompressBatchOn(BackendGPU, comp, got), wantErr)
	if c.Stats().GPUFallbacks != before.GPUFallbacks+1 {
		t.Errorf("the fault injected before DecompressBatch was not DecompressBatchOn's: GPUFallbacks %d, want %d",
			c.Stats().GPUFallbacks, before.GPUFallbacks+1)
	}
	before = c.Stats()
	small := comp[:777]
	got = make([]Page, len(small))
	smallWant, smallErr := decodeOnCPUBackend(small)
	sameDecode(t, "DecompressBatchOn(gpu)", got, smallWant, c.DecompressBatchOn(BackendGPU, small, got), smallErr)
	buf, err := c.NewPageBuffer(n)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	if !buf.Pinned() {
		t.Fatal("the PageBuffer is not page-locked")
	}
	if storedCompressed(small) >= GPUMinDecodeBatch {
		t.Fatalf("%d compressed pages, want fewer than GPUMinDecodeBatch", storedCompressed(small))
	}
	pc, err := c.DecompressBufferAsync(buf, small) // below the threshold: the CPU's
	if err != nil {
		t.Fatal(err)
	}
	if pc.gpu != nil {
		t.Fatal("DecompressBufferAsync started a GPU batch below GPUMinDecodeBatch compressed pages")
	}
	sameDecode(t, "DecompressBufferAsync on the CPU", buf.Pages()[:len(small)], smallWant, pc.Wait(), smallErr)
	clear(buf.Pages())
	sameDecode(t, "DecompressBuffer on the GPU", buf.Pages(), want, c.DecompressBufferOn(buf, comp), wantErr)
	clear(buf.Pages())
	p, err := c.decompressBufferAsync(buf, comp, BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	if p.gpu == nil {
		t.Fatal("DecompressBufferAsync did not start a GPU batch")
	}
	sameDecode(t, "DecompressBufferAsync on the GPU", buf.Pages(), want, p.Wait(), wantErr)
	var de *DecodeError
	errors.As(wantErr, &de)
	if got, want := c.Stats().PagesDecompressed-before.PagesDecompressed, uint64(2*(n-len(de.Pages))+2*(len(small)-countFailed(smallErr))); got != want {
		t.Errorf("PagesDecompressed grew by %d, want %d", got, want)
	}
}

func countFailed(err error) int {
	var de *DecodeError
	if errors.As(err, &de) {
		return len(de.Pages)
	}
	return 0
}

// Checks API-15 for decoding: a fault that is not sticky during a GPU
// decode batch loses nothing: the CPU decodes the batch, GPUFallbacks
// counts it, and the next batch decodes on the GPU.
func TestDecompressFaultFallback(t *testing.T) {
	gputest.Require(t)
	c := newGPUCompressor(t, 4096)
	_, comp := decodeBatch(t, c, 3000)
	want, wantErr := decodeOnCPUBackend(comp)
	buf, err := c.NewPageBuffer(len(comp))
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	for i, f := range []gpuimpl.Fault{gpuimpl.FaultOutOfMemory, gpuimpl.FaultInvalidLaunch} {
		c.gpu.injectFault(0, f)
		got := make([]Page, len(comp))
		sameDecode(t, f.String(), got, want, c.DecompressBatchOn(BackendGPU, comp, got), wantErr)
		if c.Stats().GPUFallbacks != uint64(2*i+1) {
			t.Errorf("%v: GPUFallbacks %d, want %d", f, c.Stats().GPUFallbacks, 2*i+1)
		}
		c.gpu.injectFault(0, f)
		clear(buf.Pages())
		sameDecode(t, f.String()+" into a buffer", buf.Pages(), want, c.DecompressBufferOn(buf, comp), wantErr)
		if c.Stats().GPUFallbacks != uint64(2*i+2) {
			t.Errorf("%v into a buffer: GPUFallbacks %d, want %d", f, c.Stats().GPUFallbacks, 2*i+2)
		}
		sameDecode(t, "the batch after "+f.String(), got, want, c.DecompressBatchOn(BackendGPU, comp, got), wantErr)
		if c.Stats().GPUFallbacks != uint64(2*i+2) || c.gpu == nil {
			t.Errorf("the batch after %v fell back too", f)
		}
	}
}

// Checks API-29, API-15: DecompressBuffer's GPU batch is shared with the
// CPU, the devices decoding the share's first pages and the workers the
// others, whatever the share the CPU's pages and *DecodeError, damaged
// pages on both sides; after a fault the CPU decodes the GPU's pages too.
func TestDecompressShared(t *testing.T) {
	gputest.Require(t)
	c := newGPUCompressor(t, 4096)
	n := 11234
	_, comp := decodeBatch(t, c, n)
	want, wantErr := decodeOnCPUBackend(comp)
	buf, err := c.NewPageBuffer(n)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	decoded := func() (sum uint64) {
		for _, d := range c.Stats().Devices {
			sum += d.PagesDecoded
		}
		return sum
	}
	var de *DecodeError
	errors.As(wantErr, &de)
	for round := range 5 {
		g := c.share.split(n)
		if g <= 0 || g >= n {
			t.Fatalf("round %d: the GPU's share is %d of %d pages", round, g, n)
		}
		if de.Pages[0].Index >= g || de.Pages[len(de.Pages)-1].Index < g {
			t.Fatalf("round %d: no damaged page on one side of %d", round, g)
		}
		before := decoded()
		clear(buf.Pages())
		sameDecode(t, fmt.Sprintf("round %d", round), buf.Pages(), want, c.decompressBufferShared(buf, comp), wantErr)
		if got := decoded() - before; got != uint64(g) {
			t.Errorf("round %d: the devices decoded %d pages, want the share's %d", round, got, g)
		}
		t.Logf("round %d: the GPU's share %d of %d pages", round, g, n)
	}
	fallbacks := c.Stats().GPUFallbacks
	c.gpu.injectFault(0, gpuimpl.FaultOutOfMemory)
	clear(buf.Pages())
	sameDecode(t, "a fault", buf.Pages(), want, c.decompressBufferShared(buf, comp), wantErr)
	if c.Stats().GPUFallbacks != fallbacks+1 {
		t.Errorf("GPUFallbacks %d after a fault, want %d", c.Stats().GPUFallbacks, fallbacks+1)
	}
}

// decompressBufferShared is DecompressBuffer shared with the CPU whatever
// the batch's size (API-29), for the tests and benchmarks.
func (c *Compressor) decompressBufferShared(buf *PageBuffer, pages []CompressedPage) error {
	c.life.RLock()
	defer c.life.RUnlock()
	if err := c.checkBuffer(buf, len(pages)); err != nil {
		return err
	}
	return c.decompressShared(c.pool(), pages, buf.pages[:len(pages)], buf.host)
}

// DecompressBufferOn decodes into buf on the GPU whatever the batch's size,
// for the tests and benchmarks of the GPU's path.
func (c *Compressor) DecompressBufferOn(buf *PageBuffer, pages []CompressedPage) error {
	c.life.RLock()
	defer c.life.RUnlock()
	if err := c.checkBuffer(buf, len(pages)); err != nil {
		return err
	}
	return c.decompress(c.pool(), BackendGPU, pages, buf.pages[:len(pages)], buf.host)
}

// Checks API-15, RT-9 for decoding: a sticky fault during a decode batch
// loses nothing, and the Compressor then decodes on the CPU. Each fault
// runs in a child process, which it leaves unable to use the GPU.
func TestDecompressStickyFaultFallback(t *testing.T) {
	gputest.Require(t)
	for _, f := range []gpuimpl.Fault{gpuimpl.FaultIllegalAddress, gpuimpl.FaultLaunchFailure} {
		t.Run(f.String(), func(t *testing.T) {
			if !gputest.InChild(t, nil) {
				return
			}
			c, err := NewGPUBatchCompressor(DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_, comp := decodeBatch(t, c, 2100)
			want, wantErr := decodeOnCPUBackend(comp)
			c.gpu.injectFault(0, f)
			got := make([]Page, len(comp))
			sameDecode(t, f.String(), got, want, c.DecompressBatchOn(BackendGPU, comp, got), wantErr)
			if c.Stats().GPUFallbacks != 1 || c.gpu != nil {
				t.Errorf("GPUFallbacks %d, GPU kept %v; want 1, dropped", c.Stats().GPUFallbacks, c.gpu != nil)
			}
			sameDecode(t, "after the sticky fault", got, want, c.DecompressBatch(comp, got), wantErr)
		})
	}
}

// The decode benchmarks (results/2026-11-28-h100-decode records the H100's), over
// -batches (as the compression benchmarks) on every data set, in one run:
//   - BenchmarkDecode/{simd,gpu,gpubuf,gpushare}/<dataset>/<batch>: the
//     batch's compressed pages decoded by the 16-core CPU backend, by the
//     GPU into Go memory (DecompressBatchOn: the payloads laid out and
//     copied in, the kernel, the pages copied out and into dst), by the GPU
//     alone into a page-locked PageBuffer (the DMA engine copies the pages
//     in) and by the GPU and the CPU at once into one (DecompressBuffer's
//     shared batch, API-29; gpu-share is the GPU's share after the run);
//     MB/s are of output, 4,096 bytes a page;
//   - BenchmarkDecodeKernel/gpu/<dataset>/<batch>: the engine's
//     DecompressDevice, whose pages stay on the device: kernel-GB/s from
//     the kernel events, device-GB/s from the batch's first to its last
//     event (the payloads' copies in, overlapping the kernels), stage-GB/s
//     from the host's time laying out the chunks' descriptors and payloads
//     in the pinned staging (Timings.Stage, which gpu and gpubuf share).
func BenchmarkDecode(b *testing.B) {
	gputest.Require(b)
	for _, be := range []string{"simd", "gpu", "gpubuf", "gpushare"} {
		for _, name := range dataset.Names() {
			for _, size := range batchSizes(b) {
				b.Run(fmt.Sprintf("%s/%s/%d", be, name, size), func(b *testing.B) {
					pages := tiledBatch(b, name, size)
					comp := compressParallel(pages)
					dst := make([]Page, len(pages))
					var decode func() error
					var c *Compressor
					switch be {
					case "simd":
						decode = func() error { return decompressParallel(comp, dst) }
					case "gpu":
						c = gpuBenchCompressor(b)
						decode = func() error { return c.DecompressBatchOn(BackendGPU, comp, dst) }
					case "gpubuf":
						c = gpuBenchCompressor(b)
						buf := gpuBenchBuffer(b, pages)
						decode = func() error { return c.DecompressBufferOn(buf, comp) }
						dst = nil
					case "gpushare":
						c = gpuBenchCompressor(b)
						buf := gpuBenchBuffer(b, pages)
						decode = func() error { return c.decompressBufferShared(buf, comp) }
						dst = nil
						// The share starts afresh for each set and size, and
						// untimed batches bring it near its balance.
						c.share.mu.Lock()
						c.share.gpu = 0
						c.share.mu.Unlock()
						for range 5 {
							if err := decode(); err != nil {
								b.Fatal(err)
							}
						}
					}
					fallbacks := uint64(0)
					if c != nil {
						fallbacks = c.Stats().GPUFallbacks
					}
					// The first batch allocates the engine's staging and
					// device buffers, which later batches reuse: it is
					// not timed.
					if err := decode(); err != nil {
						b.Fatal(err)
					}
					b.SetBytes(int64(len(pages)) * PageSize)
					for b.Loop() {
						if err := decode(); err != nil {
							b.Fatal(err)
						}
					}
					if c != nil && c.Stats().GPUFallbacks != fallbacks {
						b.Fatal("the GPU fell back to the CPU")
					}
					if be == "gpushare" {
						b.ReportMetric(float64(c.share.split(len(pages)))/float64(len(pages)), "gpu-share")
					}
					if dst != nil && dst[len(dst)-1] != pages[len(pages)-1] {
						b.Fatal("the last page differs")
					}
				})
			}
		}
	}
}

func BenchmarkDecodeKernel(b *testing.B) {
	gputest.Require(b)
	for _, name := range dataset.Names() {
		for _, size := range batchSizes(b) {
			b.Run(fmt.Sprintf("gpu/%s/%d", name, size), func(b *testing.B) {
				pages := tiledBatch(b, name, size)
				comp := compressParallel(pages)
				e, err := gpuimpl.Open(gpuimpl.Options{BatchPages: 1, RingSlots: 1})
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close()
				status := make([]uint32, len(comp))
				if _, err := e.DecompressDevice(outputs(comp), status); err != nil { // allocates the buffers: not timed
					b.Fatal(err)
				}
				b.SetBytes(int64(len(pages)) * PageSize)
				var kernel, total, stage []time.Duration
				for b.Loop() {
					t, err := e.DecompressDevice(outputs(comp), status)
					if err != nil {
						b.Fatal(err)
					}
					kernel, total, stage = append(kernel, t.Kernel), append(total, t.Total), append(stage, t.Stage)
				}
				for i, s := range status {
					if s != gpuimpl.DecodeOK {
						b.Fatalf("page %d: status %#x", i, s)
					}
				}
				bytes := float64(len(pages) * PageSize)
				b.ReportMetric(bytes/median(kernel).Seconds()/1e9, "kernel-GB/s")
				b.ReportMetric(bytes/median(total).Seconds()/1e9, "device-GB/s")
				b.ReportMetric(bytes/median(stage).Seconds()/1e9, "stage-GB/s")
			})
		}
	}
}
