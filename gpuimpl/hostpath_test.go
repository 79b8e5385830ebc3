package gpuimpl

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkHostPath measures the host's share of a GPU batch without a
// GPU: staging the pages (parallelCopy) and assembling the outputs from
// meta words and slots as the kernel writes them (RT-6, RT-8).
func BenchmarkHostPath(b *testing.B) {
	for _, n := range []int{8192, 100000} {
		pages := make([][PageSize]byte, n)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range pages {
			pages[i] = *genPage(pageKinds[i%len(pageKinds)], rng)
		}
		meta, slots := fakeKernel(pages)
		staging := make([]byte, n*PageSize)
		b.Run(fmt.Sprintf("stage/%d", n), func(b *testing.B) {
			b.SetBytes(int64(n * PageSize))
			for b.Loop() {
				parallelCopy(staging, pageBytes(pages))
			}
		})
		b.Run(fmt.Sprintf("assemble/%d", n), func(b *testing.B) {
			b.SetBytes(int64(n * PageSize))
			out := make([]Output, n)
			for b.Loop() {
				if err := assemble(out, pages, meta, slots, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
