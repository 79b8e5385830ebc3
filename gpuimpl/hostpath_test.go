package gpuimpl

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkHostPath measures the host's share of a GPU batch without a
// GPU: staging the pages (parallelCopy) and assembling the outputs from
// meta words and packed payloads as the kernel writes them, as copies and as views
// of a HostPages (RT-6, RT-8).
func BenchmarkHostPath(b *testing.B) {
	for _, n := range []int{1000, 2048, 8192, 100000} {
		pages := make([][PageSize]byte, n)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range pages {
			pages[i] = *genPage(pageKinds[i%len(pageKinds)], rng)
		}
		meta, slots := fakeKernel(pages)
		packed, _ := packSlots(meta, slots)
		staging := make([]byte, n*PageSize)
		b.Run(fmt.Sprintf("stage/%d", n), func(b *testing.B) {
			b.SetBytes(int64(n * PageSize))
			for b.Loop() {
				parallelCopy(staging, pageBytes(pages))
			}
		})
		for _, own := range []bool{true, false} {
			name := "assemble"
			if !own {
				name = "assemble-views"
			}
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				b.SetBytes(int64(n * PageSize))
				out := make([]Output, n)
				for b.Loop() {
					if err := assemble(out, pages, meta, packed, own); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
