package gpuimpl

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkHostPath measures the host's share of a GPU batch without a
// GPU: staging the pages (parallelCopy) and assembling the outputs from
// meta words and slots as the kernel writes them (RT-6, RT-8), each alone,
// one after the other, and both at once on one set of workers as the
// engine runs them. The last two bound the end-to-end rate the host allows.
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
				if err := assemble(out, pages, meta, slots); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("serial/%d", n), func(b *testing.B) {
			b.SetBytes(int64(n * PageSize))
			out := make([]Output, n)
			for b.Loop() {
				parallelCopy(staging, pageBytes(pages))
				if err := assemble(out, pages, meta, slots); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("overlap/%d", n), func(b *testing.B) {
			b.SetBytes(int64(n * PageSize))
			out := make([]Output, n)
			w := startWorkers()
			defer w.stop()
			errc := make(chan error, 1)
			for b.Loop() {
				go func() { errc <- assembleOn(w.parallel, out, pages, meta, slots) }()
				copyOn(w.parallel, staging, pageBytes(pages))
				if err := <-errc; err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
