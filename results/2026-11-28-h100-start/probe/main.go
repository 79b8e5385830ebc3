// Command probe times the parts of a GPU Compressor's start in a fresh
// process (-start), and how one core's work scales over cores when it
// touches no memory (-alu) or one page's worth (-page).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/lz4warp/lz4warp"
	"github.com/lz4warp/lz4warp/gpuimpl"
	"github.com/lz4warp/lz4warp/internal/cudart"
	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/fastlz4"
)

func main() {
	mode := flag.String("mode", "start", "start, alu or page")
	flag.Parse()
	switch *mode {
	case "start":
		start()
	case "alu":
		scaling("alu", alu)
	case "page":
		scaling("page", pageLoop())
	}
}

func step(name string, t *time.Time) {
	now := time.Now()
	fmt.Printf("start %-28s %8.1f ms\n", name, float64(now.Sub(*t).Microseconds())/1000)
	*t = now
}

func check(err error) {
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
}

func start() {
	all := time.Now()
	t := all
	check(cudart.Init())
	step("dlopen+cuInit", &t)
	info, err := cudart.Device(0)
	check(err)
	step("device query", &t)
	sm := gpuimpl.KernelTarget(info.Major, info.Minor)
	texts := [3]string{gpuimpl.KernelPTX(sm), gpuimpl.GatherPTX(sm), gpuimpl.DecodePTX(sm)}
	step(fmt.Sprintf("PTX text sm_%d", sm), &t)
	ctx, err := cudart.NewContext(0)
	check(err)
	step("context", &t)
	for i, name := range []string{"page kernel", "gather", "decode kernel"} {
		_, err := ctx.LoadPTX(texts[i])
		check(err)
		step("JIT "+name+fmt.Sprintf(" (%d KB)", len(texts[i])/1000), &t)
	}
	check(ctx.Close())
	step("context close", &t)
	c, err := lz4warp.NewGPUBatchCompressor(lz4warp.DefaultConfig())
	check(err)
	step("NewGPUBatchCompressor", &t)
	var bufs []*lz4warp.PageBuffer
	for i := range 3 {
		b, err := c.NewPageBuffer(8192)
		check(err)
		bufs = append(bufs, b)
		step(fmt.Sprintf("NewPageBuffer(8192) #%d", i+1), &t)
	}
	for i := range 2 {
		p, err := c.CompressBufferAsync(bufs[i], 8192)
		check(err)
		_, err = p.Wait()
		check(err)
		step(fmt.Sprintf("CompressBuffer(8192) #%d", i+1), &t)
	}
	for _, b := range bufs {
		b.Close()
	}
	check(c.Close())
	step("close", &t)
	fmt.Printf("start total %.1f ms\n", float64(time.Since(all).Microseconds())/1000)

}

// alu is a dependent multiply-add chain: no memory, one core's clock.
func alu(n int) int {
	x := uint64(n)
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return int(x >> 63)
}

// pageLoop compresses 16 pages again and again: they stay in the core's
// caches, so only the core's speed counts.
func pageLoop() func(int) int {
	pages, err := dataset.Load("mixed", 16)
	check(err)
	return func(n int) int {
		var enc fastlz4.Encoder
		var dst [lz4warp.PageSize + 64]byte
		s := 0
		for i := range n / 5000 {
			_, k := enc.EncodePage(dst[:], (*[fastlz4.PageSize]byte)(&pages[i%len(pages)]))
			s += k
		}
		return s
	}
}

func scaling(name string, work func(int) int) {
	const n = 400_000_000
	var one float64
	for _, g := range []int{1, 2, 4, 8, 16} {
		if g > runtime.NumCPU() {
			break
		}
		best := 0.0
		for range 3 {
			var wg sync.WaitGroup
			begin := time.Now()
			for range g {
				wg.Go(func() {
					runtime.LockOSThread()
					sink(work(n))
				})
			}
			wg.Wait()
			rate := float64(g) / time.Since(begin).Seconds()
			best = max(best, rate)
		}
		if g == 1 {
			one = best
		}
		fmt.Printf("scaling %s cores %2d: %.2fx one core (%.1f%% of linear)\n", name, g, best/one, 100*best/one/float64(g))
	}
	fmt.Printf("scaling %s results' sum %d\n", name, sunk)
}

var (
	sinkMu sync.Mutex
	sunk   int
)

// sink keeps the work's result, so that the compiler keeps the work.
func sink(v int) { sinkMu.Lock(); sunk += v; sinkMu.Unlock() }
