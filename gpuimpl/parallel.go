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

// splitter runs fn on contiguous ranges of [0, n), each of at least grain
// elements, and waits for them.
type splitter func(n, grain int, fn func(lo, hi int))

// parallelCopy copies src to dst with up to one goroutine per core, in
// pieces of at least 256 KiB: one core copies too slowly to keep a PCIe 5
// link busy.
func parallelCopy(dst, src []byte) { copyOn(parallel, dst, src) }

func copyOn(split splitter, dst, src []byte) {
	split(len(src), 256<<10, func(lo, hi int) { copy(dst[lo:hi], src[lo:hi]) })
}

// parallel calls fn on contiguous ranges of [0, n), each of at least grain
// elements, from up to GOMAXPROCS goroutines, and waits for them.
func parallel(n, grain int, fn func(lo, hi int)) {
	pieces := min(runtime.GOMAXPROCS(0), (n+grain-1)/grain)
	if pieces <= 1 {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range pieces {
		lo, hi := n*w/pieces, n*(w+1)/pieces
		wg.Go(func() { fn(lo, hi) })
	}
	wg.Wait()
}

// workers is a fixed set of goroutines, one per core, that runs the pieces
// of every stage submitted to it. Stages that run at the same time (the
// staging of one chunk and the assembly of another) thus share the cores
// instead of each starting a goroutine per core.
type workers struct {
	tasks chan func()
	wg    sync.WaitGroup
}

func startWorkers() *workers {
	n := runtime.GOMAXPROCS(0)
	w := &workers{tasks: make(chan func(), 2*n)}
	for range n {
		w.wg.Go(func() {
			for task := range w.tasks {
				task()
			}
		})
	}
	return w
}

// stop ends the workers once the pieces already submitted are done.
func (w *workers) stop() {
	close(w.tasks)
	w.wg.Wait()
}

// parallel is the package's parallel on the workers: fn never submits more
// work, so a piece waits only for a free worker.
func (w *workers) parallel(n, grain int, fn func(lo, hi int)) {
	pieces := min(cap(w.tasks)/2, (n+grain-1)/grain)
	if pieces <= 1 {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	var wg sync.WaitGroup
	wg.Add(pieces)
	for p := range pieces {
		lo, hi := n*p/pieces, n*(p+1)/pieces
		w.tasks <- func() {
			defer wg.Done()
			fn(lo, hi)
		}
	}
	wg.Wait()
}
