package lz4warp_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lz4warp/lz4warp"
)

// NewCompressor checks the configuration, then uses a GPU where one opens
// and the CPU backends everywhere.
func ExampleNewCompressor() {
	cfg := lz4warp.DefaultConfig()
	cfg.BatchSize = 0
	_, err := lz4warp.NewCompressor(cfg)
	fmt.Println("invalid:", errors.Is(err, lz4warp.ErrInvalidConfig))

	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		panic(err)
	}
	defer c.Close()
	fmt.Println("pages per GPU launch:", c.Config().BatchSize)
	// Output:
	// invalid: true
	// pages per GPU launch: 1000
}

// CompressBatch picks the backend by the batch's size: below GPUMinBatch
// pages the CPU compresses, with every backend giving the same bytes.
func ExampleCompressor_CompressBatch() {
	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		panic(err)
	}
	defer c.Close()
	pages := make([]lz4warp.Page, 10)
	for i := range pages {
		copy(pages[i][:], strings.Repeat(fmt.Sprintf("page %d ", i), 100))
	}
	res, err := c.CompressBatch(pages)
	if err != nil {
		panic(err)
	}
	fmt.Println("backend:", res.Backend)
	fmt.Println("page 3:", res.Pages[3].Kind, len(res.Pages[3].Data), "bytes")
	fmt.Printf("ratio: %.1f\n", res.CompressionRatio())
	fmt.Println("GPU timings:", res.H2DTime, res.KernelTime, res.D2HTime)
	// Output:
	// backend: simd
	// page 3: lz4 37 bytes
	// ratio: 110.7
	// GPU timings: 0s 0s 0s
}

// NewPageBuffer makes a buffer of pages to fill and compress in place; a
// buffer needs at least one page.
func ExampleCompressor_NewPageBuffer() {
	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		panic(err)
	}
	defer c.Close()
	_, err = c.NewPageBuffer(0)
	fmt.Println("empty buffer:", errors.Is(err, lz4warp.ErrBadBuffer))

	buf, err := c.NewPageBuffer(16)
	if err != nil {
		panic(err)
	}
	defer buf.Close()
	copy(buf.Pages()[5][:], "only page 5 holds data")
	res, err := c.CompressBuffer(buf, 8) // the first 8 pages
	if err != nil {
		panic(err)
	}
	fmt.Println(len(buf.Pages()), "pages,", len(res.Pages), "compressed; page 5:", res.Pages[5].Kind)
	// Output:
	// empty buffer: true
	// 16 pages, 8 compressed; page 5: lz4
}

// Wait ends a batch that CompressBufferAsync started: the result, and the
// statistics, come then; a second Wait returns the same result.
func ExamplePendingBatch_Wait() {
	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		panic(err)
	}
	defer c.Close()
	buf, err := c.NewPageBuffer(2000)
	if err != nil {
		panic(err)
	}
	defer buf.Close()
	pending, err := c.CompressBufferAsync(buf, 2000) // zero pages
	if err != nil {
		panic(err)
	}
	fmt.Println("before Wait:", c.Stats().PagesCompressed, "pages counted")
	res, err := pending.Wait()
	if err != nil {
		panic(err)
	}
	again, _ := pending.Wait()
	fmt.Println("after Wait:", c.Stats().PagesCompressed, "pages counted,", len(res.Pages), "in the result")
	fmt.Println("same result:", again == res, "ratio:", res.CompressionRatio())
	// Output:
	// before Wait: 0 pages counted
	// after Wait: 2000 pages counted, 2000 in the result
	// same result: true ratio: 512
}
