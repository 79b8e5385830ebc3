package gpuimpl

import (
	"runtime"
	"sync"
	"unsafe"
)

// pageBytes views pages as one byte slice.
func pageBytes(pages [][PageSize]byte) []byte {
	if len(pages) == 0 {
		return nil
	}
	return unsafe.Slice(&pages[0][0], len(pages)*PageSize)
}

// parallelCopy copies src to dst with up to one goroutine per core, in
// pieces of at least 256 KiB: one core copies too slowly to keep a PCIe 5
// link busy.
func parallelCopy(dst, src []byte) {
	parallel(len(src), 256<<10, func(lo, hi int) { copy(dst[lo:hi], src[lo:hi]) })
}

// parallel calls fn on contiguous ranges of [0, n), each of at least grain
// elements, from up to GOMAXPROCS goroutines, and waits for them.
func parallel(n, grain int, fn func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), (n+grain-1)/grain)
	if workers <= 1 {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(lo, hi)
		}()
	}
	wg.Wait()
}
