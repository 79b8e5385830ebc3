package lz4warp_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lz4warp/lz4warp"
)

// The backend that decodes a batch: the GPU, with the CPU beside it, only
// into a page-locked PageBuffer (DecompressBuffer) and from
// GPUMinDecodeBatch pages stored compressed; into Go memory
// (DecompressBatch) the CPU, which is faster there (API-25).
func ExampleSelectDecodeBackend() {
	fmt.Println(lz4warp.SelectDecodeBackend(500, true))
	fmt.Println(lz4warp.SelectDecodeBackend(lz4warp.GPUMinDecodeBatch, true))
	fmt.Println(lz4warp.SelectDecodeBackend(100000, false))
	// Output:
	// simd
	// gpu
	// simd
}

// Decode on a chosen backend: every backend gives the same pages and the
// same errors.
func ExampleCompressor_DecompressBatchOn() {
	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		panic(err)
	}
	defer c.Close()
	pages := make([]lz4warp.Page, 2)
	copy(pages[1][:], strings.Repeat("decode me ", 400))
	res, err := c.CompressBatch(pages)
	if err != nil {
		panic(err)
	}
	res.Pages[1].Data = res.Pages[1].Data[:len(res.Pages[1].Data)-1] // damaged
	restored := make([]lz4warp.Page, 2)
	err = c.DecompressBatchOn(lz4warp.BackendScalar, res.Pages, restored)
	var de *lz4warp.DecodeError
	fmt.Println(errors.As(err, &de), de.Pages[0].Index, restored[0] == pages[0])
	// Output: true 1 true
}

// Decode into a PageBuffer: with a GPU and from GPUMinDecodeBatch pages
// stored compressed, the GPU decodes a share of the batch, whose pages the
// DMA engine copies into the buffer's page-locked memory, while the CPU
// decodes the rest; the fastest way to decode large batches.
func ExampleCompressor_DecompressBuffer() {
	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		panic(err)
	}
	defer c.Close()
	pages := make([]lz4warp.Page, 4)
	for i := range pages {
		copy(pages[i][:], strings.Repeat(fmt.Sprint(i), 100))
	}
	res, err := c.CompressBatch(pages)
	if err != nil {
		panic(err)
	}
	buf, err := c.NewPageBuffer(len(pages))
	if err != nil {
		panic(err)
	}
	defer buf.Close()
	if err := c.DecompressBuffer(buf, res.Pages); err != nil {
		panic(err)
	}
	fmt.Println(buf.Pages()[3] == pages[3])
	// Output: true
}

// Start decoding into a buffer and wait for it later; meanwhile the host
// can prepare the next batch.
func ExampleCompressor_DecompressBufferAsync() {
	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		panic(err)
	}
	defer c.Close()
	pages := make([]lz4warp.Page, 8)
	res, err := c.CompressBatch(pages)
	if err != nil {
		panic(err)
	}
	buf, err := c.NewPageBuffer(len(pages))
	if err != nil {
		panic(err)
	}
	defer buf.Close()
	p, err := c.DecompressBufferAsync(buf, res.Pages)
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Wait(), buf.Pages()[7] == pages[7])
	// Output: <nil> true
}
