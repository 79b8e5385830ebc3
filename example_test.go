package lz4warp_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"strings"
	"time"

	"github.com/lz4warp/lz4warp"
)

// Compress a batch of pages and restore it. A batch of 3 pages runs on the
// fast CPU codec on every machine (SelectBackend), and every backend gives
// the same bytes, so the output is fixed.
func Example() {
	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		panic(err)
	}
	defer c.Close()

	pages := make([]lz4warp.Page, 3)
	// pages[0] stays zero: a same-filled page.
	copy(pages[1][:], strings.Repeat("a page of text compresses well. ", 128))
	x := uint32(1)
	for i := range pages[2] { // noise: stored raw
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		pages[2][i] = byte(x)
	}

	res, err := c.CompressBatch(pages)
	if err != nil {
		panic(err)
	}
	fmt.Println("backend:", res.Backend)
	for i, p := range res.Pages {
		fmt.Printf("page %d: %s, %d bytes\n", i, p.Kind, len(p.Data))
	}
	fmt.Printf("ratio: %.2f\n", res.CompressionRatio())

	restored := make([]lz4warp.Page, len(res.Pages))
	if err := c.DecompressBatch(res.Pages, restored); err != nil {
		panic(err)
	}
	fmt.Println("round trip:", restored[0] == pages[0] && restored[1] == pages[1] && restored[2] == pages[2])
	// Output:
	// backend: simd
	// page 0: same, 8 bytes
	// page 1: lz4, 58 bytes
	// page 2: raw, 4096 bytes
	// ratio: 2.95
	// round trip: true
}

// A corrupt page is reported with its index; the other pages are restored.
func ExampleCompressor_DecompressBatch() {
	c, _ := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	defer c.Close()
	var page lz4warp.Page
	copy(page[:], "hello, hello, hello, hello")
	res, _ := c.CompressBatch([]lz4warp.Page{page, page, page})
	res.Pages[1].Data = res.Pages[1].Data[:5] // truncate page 1

	dst := make([]lz4warp.Page, 3)
	err := c.DecompressBatch(res.Pages, dst)
	var de *lz4warp.DecodeError
	if errors.As(err, &de) {
		for _, pe := range de.Pages {
			fmt.Println("corrupt page:", pe.Index)
		}
	}
	fmt.Println("ErrCorrupt:", errors.Is(err, lz4warp.ErrCorrupt))
	fmt.Println("pages 0 and 2 restored:", dst[0] == page && dst[2] == page)

	err = c.DecompressBatch(res.Pages, dst[:2])
	fmt.Println("short dst:", errors.Is(err, lz4warp.ErrShortBuffer))
	// Output:
	// corrupt page: 1
	// ErrCorrupt: true
	// pages 0 and 2 restored: true
	// short dst: true
}

// Stats add up over every batch of a Compressor.
func ExampleCompressor_Stats() {
	c, _ := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	defer c.Close()
	for range 2 {
		c.CompressBatch(make([]lz4warp.Page, 8)) // zero pages: 8 bytes each
	}
	s := c.Stats()
	fmt.Println("pages:", s.PagesCompressed)
	fmt.Println("bytes in:", s.TotalBytesIn, "out:", s.TotalBytesOut)
	fmt.Println("ratio:", s.CompressionRatio())
	// Output:
	// pages: 16
	// bytes in: 65536 out: 128
	// ratio: 512
}

// CompressBatchOn runs a chosen backend, here the scalar reference codec on
// a batch large enough that SelectBackend would pick another one.
func ExampleCompressor_CompressBatchOn() {
	c, _ := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	defer c.Close()
	res, err := c.CompressBatchOn(lz4warp.BackendScalar, make([]lz4warp.Page, 2000))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Backend, len(res.Pages), res.CompressionRatio())
	// Output:
	// scalar 2000 512
}

func ExampleDefaultConfig() {
	cfg := lz4warp.DefaultConfig()
	fmt.Printf("%+v\n", cfg)
	// Output:
	// {DeviceIndex:0 Devices:[] AllDevices:false Algorithm:lz4 BatchSize:1000 AsyncDMA:true RingBufferSlots:4 CPUWorkers:0 OpenInBackground:false}
}

func ExampleConfig_Validate() {
	cfg := lz4warp.DefaultConfig()
	cfg.RingBufferSlots = 0
	err := cfg.Validate()
	fmt.Println(err)
	fmt.Println(errors.Is(err, lz4warp.ErrInvalidConfig))
	// Output:
	// lz4warp: invalid configuration: RingBufferSlots 0 is less than 1
	// true
}

func ExampleSelectBackend() {
	for _, n := range []int{1, 4, 999, 1000, 5000} {
		fmt.Printf("%5d pages: with a GPU %-6s without %s\n", n, lz4warp.SelectBackend(n, true), lz4warp.SelectBackend(n, false))
	}
	// Output:
	//     1 pages: with a GPU simd   without simd
	//     4 pages: with a GPU simd   without simd
	//   999 pages: with a GPU simd   without simd
	//  1000 pages: with a GPU gpu    without simd
	//  5000 pages: with a GPU gpu    without simd
}

// The rule depends on the two rates only: the page count cancels out.
func ExampleMeetsPCIeRule() {
	fmt.Println(lz4warp.MeetsPCIeRule(10000, 64, 500)) // PCIe Gen5 x16, fast GPU
	fmt.Println(lz4warp.MeetsPCIeRule(1, 64, 500))     // one page: same verdict
	fmt.Println(lz4warp.MeetsPCIeRule(10000, 16, 500)) // PCIe Gen3 x16: never
	fmt.Println(lz4warp.MeetsPCIeRule(0, 64, 500))     // no pages
	// Output:
	// true
	// true
	// false
	// false
}

func ExampleDeviceInfo_OptimalBatchSize() {
	const MiB = 1 << 20
	for _, d := range []lz4warp.DeviceInfo{
		{Name: "H100", L2CacheSize: 50 * MiB},
		{Name: "A100", L2CacheSize: 40 * MiB},
		{Name: "RTX 4090", L2CacheSize: 72 * MiB},
		{Name: "RTX 3090", L2CacheSize: 6 * MiB},
	} {
		fmt.Printf("%-8s %5d pages\n", d.Name, d.OptimalBatchSize())
	}
	// Output:
	// H100     10240 pages
	// A100      8192 pages
	// RTX 4090 14745 pages
	// RTX 3090  1228 pages
}

func ExampleDeviceInfo_IsSupported() {
	for _, cc := range [][2]int{{6, 1}, {7, 0}, {9, 0}} {
		d := lz4warp.DeviceInfo{ComputeCapability: cc, Backend: lz4warp.GPUBackendCUDA}
		fmt.Printf("sm_%d%d: %v\n", cc[0], cc[1], d.IsSupported())
	}
	// Output:
	// sm_61: false
	// sm_70: true
	// sm_90: true
}

// The figures of a batch, here with timings as a GPU batch reports them.
func ExampleBatchResult() {
	res := &lz4warp.BatchResult{
		Pages: []lz4warp.CompressedPage{
			{Kind: lz4warp.KindSame, Data: make([]byte, 8)},
			{Kind: lz4warp.KindLZ4, Data: make([]byte, 1016)},
		},
		Backend:    lz4warp.BackendGPU,
		H2DTime:    100 * time.Microsecond,
		KernelTime: 600 * time.Microsecond,
		D2HTime:    10 * time.Microsecond,
		TotalTime:  1 * time.Millisecond,
	}
	fmt.Printf("ratio: %.1f\n", res.CompressionRatio())
	fmt.Printf("throughput: %.3g B/s\n", res.ThroughputBytesPerSec(2*lz4warp.PageSize))
	fmt.Println("kernel > 5 × transfers:", res.PCIeRuleSatisfied())
	// Output:
	// ratio: 8.0
	// throughput: 8.19e+06 B/s
	// kernel > 5 × transfers: true
}

func ExampleStats() {
	s := lz4warp.Stats{TotalBytesIn: 8e9, TotalBytesOut: 2e9, TotalTime: 2 * time.Second}
	fmt.Println("ratio:", s.CompressionRatio())
	fmt.Println("GB/s:", s.ThroughputGBps())
	// Output:
	// ratio: 4
	// GB/s: 4
}

// A PageBuffer lets the GPU read the pages and write the payloads with no
// copy on the host; without a GPU it is ordinary memory and the CPU
// compresses it. Its results are valid until the buffer's next batch.
func ExampleCompressor_CompressBuffer() {
	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		panic(err)
	}
	defer c.Close()
	buf, err := c.NewPageBuffer(4096)
	if err != nil {
		panic(err)
	}
	defer buf.Close()
	pages := buf.Pages()
	for i := range pages {
		copy(pages[i][:], fmt.Sprintf("page %d of a buffer that the GPU copies from directly", i))
	}
	res, err := c.CompressBuffer(buf, len(pages))
	if err != nil {
		panic(err)
	}
	stored := 0
	for _, p := range res.Pages {
		stored += len(p.Data) // to keep a payload, copy it before the next CompressBuffer
	}
	fmt.Println(len(res.Pages), "pages,", stored < len(pages)*lz4warp.PageSize/10, "stored in under a tenth")
	// Output:
	// 4096 pages, true stored in under a tenth
}

// Batches started on a few buffers in turn keep the GPU busy between them:
// each buffer is filled again once its batch's Wait has returned (and its
// payloads, which live in the buffer, have been used).
func ExampleCompressor_CompressBufferAsync() {
	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		panic(err)
	}
	defer c.Close()
	const batches, pagesPerBatch = 8, 1000
	bufs := make([]*lz4warp.PageBuffer, 2)
	started := make([]*lz4warp.PendingBatch, len(bufs))
	for i := range bufs {
		if bufs[i], err = c.NewPageBuffer(pagesPerBatch); err != nil {
			panic(err)
		}
		defer bufs[i].Close()
	}
	stored := 0
	wait := func(p *lz4warp.PendingBatch) {
		res, err := p.Wait()
		if err != nil {
			panic(err)
		}
		for _, page := range res.Pages {
			stored += len(page.Data)
		}
	}
	for b := range batches {
		k := b % len(bufs)
		if started[k] != nil {
			wait(started[k]) // the buffer is free again
		}
		for i := range bufs[k].Pages() {
			copy(bufs[k].Pages()[i][:], fmt.Sprintf("batch %d, page %d", b, i))
		}
		if started[k], err = c.CompressBufferAsync(bufs[k], pagesPerBatch); err != nil {
			panic(err)
		}
	}
	for _, p := range started {
		wait(p)
	}
	fmt.Println(c.Stats().PagesCompressed, "pages,", stored < batches*pagesPerBatch*lz4warp.PageSize/10, "stored in under a tenth")
	// Output:
	// 8000 pages, true stored in under a tenth
}

// One page at a time, as a swap device's fault path handles them: with a
// dst of PageSize bytes, neither call allocates.
func ExampleCompressPage() {
	var page lz4warp.Page
	copy(page[:], strings.Repeat("one page of text, compressed on its own. ", 100))
	dst := make([]byte, lz4warp.PageSize) // reused for every page
	cp := lz4warp.CompressPage(dst, &page)
	fmt.Println(cp.Kind, len(cp.Data), &cp.Data[0] == &dst[0])

	var restored lz4warp.Page
	if err := lz4warp.DecompressPage(cp, &restored); err != nil {
		panic(err)
	}
	fmt.Println(restored == page)
	// Output:
	// lz4 67 true
	// true
}

// A payload that does not decode is an error matching ErrCorrupt.
func ExampleDecompressPage() {
	var page lz4warp.Page
	err := lz4warp.DecompressPage(lz4warp.CompressedPage{Kind: lz4warp.KindSame, Data: []byte{1, 2}}, &page)
	fmt.Println(errors.Is(err, lz4warp.ErrCorrupt))
	// Output:
	// true
}

// A loop over many batches reuses one result: after the first batches its
// memory fits, and a batch allocates nothing per page.
func ExampleCompressor_CompressBatchInto() {
	c, _ := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	defer c.Close()
	var res lz4warp.BatchResult
	batch := make([]lz4warp.Page, 64)
	for round := range 3 {
		for i := range batch {
			copy(batch[i][:], fmt.Sprintf("round %d, page %d", round, i))
		}
		if err := c.CompressBatchInto(&res, batch); err != nil {
			panic(err)
		}
		// res.Pages hold this batch until the next CompressBatchInto.
		fmt.Println(len(res.Pages), res.Pages[0].Kind)
	}
	// Output:
	// 64 lz4
	// 64 lz4
	// 64 lz4
}

// A server bounds the cores one Compressor uses, over all its calls.
func ExampleConfig_cpuWorkers() {
	cfg := lz4warp.DefaultConfig()
	cfg.CPUWorkers = 4
	c, err := lz4warp.NewCompressor(cfg)
	if err != nil {
		panic(err)
	}
	defer c.Close()
	fmt.Println(c.Config().CPUWorkers)
	// Output:
	// 4
}

// A Writer compresses a stream into a standard .lz4 frame of 4 KiB pages,
// which a Reader (or the lz4 command) restores.
func ExampleNewWriter() {
	data := bytes.Repeat([]byte("page after page of memory "), 2000)
	var frame bytes.Buffer
	zw, err := lz4warp.NewWriter(&frame, nil, lz4warp.WriterContentSize(int64(len(data))))
	if err != nil {
		panic(err)
	}
	zw.Write(data)
	if err := zw.Close(); err != nil {
		panic(err)
	}
	restored, err := io.ReadAll(lz4warp.NewReader(&frame))
	fmt.Println(len(data), "bytes in", zw.Written(), "bytes; restored:", err == nil && bytes.Equal(restored, data))
	// Output: 52000 bytes in 716 bytes; restored: true
}

// Reset ends one frame and starts the next with the Writer's batches (on
// the GPU, page-locked buffers made once); Close ends the last.
func ExampleWriter_Reset() {
	var first, second bytes.Buffer
	zw, err := lz4warp.NewWriter(&first, nil)
	if err != nil {
		panic(err)
	}
	zw.Write([]byte("the first file's pages"))
	if err := zw.Reset(&second); err != nil {
		panic(err)
	}
	zw.Write([]byte("the second file's pages"))
	if err := zw.Close(); err != nil {
		panic(err)
	}
	for _, frame := range []*bytes.Buffer{&first, &second} {
		data, err := io.ReadAll(lz4warp.NewReader(frame))
		fmt.Printf("%q %v\n", data, err)
	}
	// Output:
	// "the first file's pages" <nil>
	// "the second file's pages" <nil>
}

// A Reader reads any frame the lz4 command writes; errors give the byte
// offset of the faulty element.
func ExampleNewReader() {
	frame := []byte{0x04, 0x22, 0x4d, 0x18, 0x64, 0x40, 0xa7, 0x06, 0x00, 0x00, 0x80}
	_, err := io.ReadAll(lz4warp.NewReader(bytes.NewReader(frame)))
	var fe *lz4warp.FrameError
	fmt.Println(errors.Is(err, lz4warp.ErrTruncated), errors.As(err, &fe) && fe.Offset == 7)
	// Output: true true
}

func ExampleDeviceStats_ThroughputGBps() {
	d := lz4warp.DeviceStats{Index: 1, PagesCompressed: 1e6, BusyTime: 100 * time.Millisecond}
	fmt.Printf("device %d: %.2f GB/s\n", d.Index, d.ThroughputGBps())
	// Output:
	// device 1: 40.96 GB/s
}

// A Compressor that opens the GPU in the background starts compressing at
// once: on the CPU until the GPU is open, with the same bytes. WaitGPU
// says whether it opened.
func ExampleCompressor_WaitGPU() {
	cfg := lz4warp.DefaultConfig()
	cfg.OpenInBackground = true
	c, err := lz4warp.NewCompressor(cfg)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	res, err := c.CompressBatch(make([]lz4warp.Page, 4))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(res.Pages), res.Pages[0].Kind)
	err = c.WaitGPU() // nil with a GPU; why not, without
	fmt.Println(err == nil || errors.Is(err, lz4warp.ErrGPUNotAvailable))
	// Output:
	// 4 same
	// true
}
