package gpuimpl

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp/internal/ptxexec"
	"github.com/lz4warp/lz4warp/reference"
)

var kernelCPUPages = flag.Int("kernelcpu.pages", 0,
	"pages TestKernelOnCPU checks (0: the default of the test, fewer with -short)")

// Default page counts of TestKernelOnCPU: CI runs the full default; -short
// runs the smaller one.
const (
	kernelCPUDefaultPages = 10000
	kernelCPUShortPages   = 1000
)

// kernelOnCPU runs the sm_90 kernel text on the executor for a batch of
// pages, exactly as the GPU launch does (GPU-1), and returns each page's
// meta word and output slot.
func kernelOnCPU(t testing.TB, mod *ptxexec.Module, pages []*[PageSize]byte) ([]uint32, [][]byte) {
	t.Helper()
	n := len(pages)
	mem := ptxexec.NewMemory()
	src, dst, meta := mem.Alloc(n*PageSize), mem.Alloc(n*OutSlot), mem.Alloc(4*n)
	in := mem.Bytes(src)
	for i, p := range pages {
		copy(in[i*PageSize:], p[:])
	}
	if err := mod.Launch(KernelName, Blocks(n), ThreadsPerBlock, []uint64{src, dst, meta, uint64(n)}, mem); err != nil {
		t.Fatalf("kernel on the executor: %v", err)
	}
	metas := make([]uint32, n)
	slots := make([][]byte, n)
	mb, out := mem.Bytes(meta), mem.Bytes(dst)
	for i := range n {
		metas[i] = binary.LittleEndian.Uint32(mb[4*i:])
		slots[i] = out[i*OutSlot : (i+1)*OutSlot]
	}
	return metas, slots
}

// compareWithReference checks one page's kernel output against
// reference.EncodePage and describes the first difference.
func compareWithReference(page *[PageSize]byte, meta uint32, slot []byte) error {
	ref := make([]byte, reference.PageBound)
	kind, n := reference.EncodePage(ref, page)
	gk, gn := DecodeMeta(meta)
	if gk != uint8(kind) {
		return fmt.Errorf("kind %d, reference %v (meta %#x)", gk, kind, meta)
	}
	if kind == reference.KindRaw {
		if gn != PageSize {
			return fmt.Errorf("raw page with length %d", gn)
		}
		return nil
	}
	if gn != n {
		return fmt.Errorf("payload length %d, reference %d", gn, n)
	}
	if !bytes.Equal(slot[:n], ref[:n]) {
		i := 0
		for slot[i] == ref[i] {
			i++
		}
		return fmt.Errorf("payload differs from byte %d of %d: kernel %#x, reference %#x", i, n, slot[i], ref[i])
	}
	return nil
}

// conformanceKinds are the page kinds of the conformance run: the model's
// generators plus mixed pages and pages built from the same pieces.
func conformancePage(i int, rng *rand.Rand) (string, *[PageSize]byte) {
	kinds := append(pageKinds, "mixed", "tailmatch")
	name := kinds[i%len(kinds)]
	return name, genPage(name, rng)
}

// Checks GPU-7, PARSE-8, EXEC-1, EXEC-8: the sm_90 kernel text, executed on
// the CPU, gives reference.EncodePage's kind and bytes for every page kind.
func TestKernelOnCPU(t *testing.T) {
	n := kernelCPUDefaultPages
	if testing.Short() {
		n = kernelCPUShortPages
	}
	if *kernelCPUPages > 0 {
		n = *kernelCPUPages
	}
	mod, err := ptxexec.Load(KernelPTX(90))
	if err != nil {
		t.Fatal(err)
	}
	const batch = 2000 // pages per launch, like a batch of the GPU backend
	rng := rand.New(rand.NewPCG(7, 90))
	checked, mismatches := 0, 0
	perKind := map[string]int{}
	start := time.Now()
	var busy time.Duration
	for checked < n {
		size := min(batch, n-checked)
		names := make([]string, size)
		pages := make([]*[PageSize]byte, size)
		for i := range pages {
			names[i], pages[i] = conformancePage(checked+i, rng)
		}
		t0 := time.Now()
		metas, slots := kernelOnCPU(t, mod, pages)
		busy += time.Since(t0)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := range pages {
			wg.Go(func() {
				err := compareWithReference(pages[i], metas[i], slots[i])
				mu.Lock()
				defer mu.Unlock()
				perKind[names[i]]++
				if err != nil {
					mismatches++
					if mismatches <= 10 {
						t.Errorf("page %d (%s): %v", checked+i, names[i], err)
					}
				}
			})
		}
		wg.Wait()
		checked += size
	}
	t.Logf("kernel on the executor: %d pages in %v (%.0f pages/s; %d warp instructions), %v in all; per kind %v",
		checked, busy.Round(time.Millisecond), float64(checked)/busy.Seconds(), mod.Steps(), time.Since(start).Round(time.Millisecond), perKind)
	fmt.Printf("conformance: pages checked %d, mismatches %d\n", checked, mismatches)
}
