package gpuimpl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp/internal/dataset"
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
	metas, slots, _ := kernelOnCPUToHost(t, mod, pages, false)
	return metas, slots
}

// kernelOnCPUToHost is kernelOnCPU with, if toHost, a hostDst buffer of
// output slots, filled with canary like dst, which it returns as well, and
// the stream variant, as the engine launches them.
func kernelOnCPUToHost(t testing.TB, mod *ptxexec.Module, pages []*[PageSize]byte, toHost bool) (metas []uint32, slots, hostSlots [][]byte) {
	t.Helper()
	metas, slots, hostSlots, err := launchOnCPU(mod, pages, toHost, Blocks(len(pages)))
	if err != nil {
		t.Fatalf("kernel on the executor: %v", err)
	}
	return metas, slots, hostSlots
}

// entryFor is the entry point the engine launches: with hostDst (a direct
// batch, RT-14) the stream variant.
func entryFor(toHost bool) string {
	if toHost {
		return StreamKernelName
	}
	return KernelName
}

// launchOnCPU is kernelOnCPUToHost on a grid of the given number of blocks,
// returning the executor's error, or an error if the launch's page counter
// is not back at 0 after it (GPU-10).
func launchOnCPU(mod *ptxexec.Module, pages []*[PageSize]byte, toHost bool, grid int) (metas []uint32, slots, hostSlots [][]byte, err error) {
	n := len(pages)
	mem := ptxexec.NewMemory()
	src, dst, meta, recs := mem.Alloc(n*PageSize), mem.Alloc(n*OutSlot), mem.Alloc(4*n), mem.Alloc(n*RecSlot)
	sched := mem.Alloc(SchedBytes)
	var hostDst uint64
	if toHost {
		hostDst = mem.Alloc(n * OutSlot)
	}
	in := mem.Bytes(src)
	for i, p := range pages {
		copy(in[i*PageSize:], p[:])
	}
	slotsOf := func(buf []byte) [][]byte {
		for i := range buf {
			buf[i] = canary
		}
		s := make([][]byte, n)
		for i := range s {
			s[i] = buf[i*OutSlot : (i+1)*OutSlot]
		}
		return s
	}
	slots = slotsOf(mem.Bytes(dst))
	if toHost {
		hostSlots = slotsOf(mem.Bytes(hostDst))
	}
	if err := mod.Launch(entryFor(toHost), grid, ThreadsPerBlock, []uint64{src, dst, meta, uint64(n), hostDst, recs, sched}, mem); err != nil {
		return nil, nil, nil, err
	}
	if c := binary.LittleEndian.Uint32(mem.Bytes(sched)); c != 0 {
		return nil, nil, nil, fmt.Errorf("the page counter is %d after the launch, want 0", c)
	}
	metas = make([]uint32, n)
	mb := mem.Bytes(meta)
	for i := range n {
		metas[i] = binary.LittleEndian.Uint32(mb[4*i:])
	}
	return metas, slots, hostSlots, nil
}

// canary fills the output slots before a launch: the kernel writes nothing
// past a page's payload (GPU-1, GPU-5).
const canary = 0xa5

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
	for i := n; i < len(slot); i++ {
		if slot[i] != canary {
			return fmt.Errorf("the kernel wrote byte %d of the slot, past the %d-byte payload", i, n)
		}
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

// conformancePage is page i of the conformance run: the kinds in turn.
func conformancePage(i int, rng *rand.Rand) (string, *[PageSize]byte) {
	name := pageKinds[i%len(pageKinds)]
	return name, genPage(name, rng)
}

// Checks GPU-7, GPU-9, PARSE-8, EXEC-1, EXEC-8: the sm_90 kernel text,
// executed on the CPU, gives reference.EncodePage's kind and bytes for every
// page kind, from the page kernel and (every other launch) its stream
// variant, whose every read of a chunk not yet stored would fail (EXEC-7).
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
	batch := min(2000, (n+1)/2) // pages per launch, like a batch of the GPU backend; two launches at least
	rng := rand.New(rand.NewPCG(7, 90))
	checked, mismatches := 0, 0
	perKind := map[string]int{}
	start := time.Now()
	var busy, cpu time.Duration
	for checked < n {
		size := min(batch, n-checked)
		names := make([]string, size)
		pages := make([]*[PageSize]byte, size)
		for i := range pages {
			names[i], pages[i] = conformancePage(checked+i, rng)
		}
		// Every other launch with hostDst: the page loaded chunk by chunk,
		// the payloads in the host's slots. Every third on a grid of 3
		// blocks, whose 12 warps take all the pages (GPU-10).
		toHost := checked/batch%2 == 1
		grid := Blocks(size)
		if checked/batch%3 == 2 {
			grid = 3
		}
		t0, c0 := time.Now(), cpuTime()
		metas, slots, hostSlots, err := launchOnCPU(mod, pages, toHost, grid)
		if err != nil {
			t.Fatalf("kernel on the executor, %d blocks: %v", grid, err)
		}
		if toHost {
			slots = hostSlots
		}
		busy += time.Since(t0)
		cpu += cpuTime() - c0
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
	t.Logf("kernel on the executor: %d pages in %v (%.0f pages/s; %.0f pages per CPU second; %d warp instructions, %.0f per page), %v in all; per kind %v",
		checked, busy.Round(time.Millisecond), float64(checked)/busy.Seconds(), float64(checked)/cpu.Seconds(),
		mod.Steps(), float64(mod.Steps())/float64(checked), time.Since(start).Round(time.Millisecond), perKind)
	fmt.Printf("conformance: pages checked %d, mismatches %d\n", checked, mismatches)
}

// Checks GPU-1 and EXEC-8: batches whose last block is partial; the warps
// past the last page write nothing (the buffers are allocated to the byte,
// so a write past them is a fault).
func TestKernelOnCPUPartialBlocks(t *testing.T) {
	mod, err := ptxexec.Load(KernelPTX(90))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 3, 5, 6, 7} {
		pages := make([]*[PageSize]byte, n)
		for i := range pages {
			_, pages[i] = conformancePage(i+n, rng)
		}
		metas, slots := kernelOnCPU(t, mod, pages)
		for i := range pages {
			if err := compareWithReference(pages[i], metas[i], slots[i]); err != nil {
				t.Errorf("batch of %d, page %d: %v", n, i, err)
			}
		}
	}
}

// BenchmarkKernelOnCPU measures the executor running the kernel on one
// goroutine (pages/s = pages/op × ops/s; the bytes are the input pages).
func BenchmarkKernelOnCPU(b *testing.B) {
	mod, err := ptxexec.Load(KernelPTX(90))
	if err != nil {
		b.Fatal(err)
	}
	mod.Workers = 1
	for _, kind := range []string{"zeros", "text", "random", "mixed"} {
		const batch = 256
		b.Run("executor/"+kind+"/256", func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			pages := make([]*[PageSize]byte, batch)
			for i := range pages {
				pages[i] = genPage(kind, rng)
			}
			b.SetBytes(batch * PageSize)
			for b.Loop() {
				kernelOnCPU(b, mod, pages)
			}
			b.ReportMetric(float64(batch*b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

// cpuTime is the CPU time the process has used: the executor's speed per
// core, whatever else the machine runs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Checks PAGE-5's test input: the threshold generator lands on both sides
// of the raw limit, within a few bytes of it.
func TestThresholdPages(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sizes := map[int]int{}
	for range 60 {
		n := blockSize(genPage("threshold", rng))
		if n < reference.RawThreshold-8 || n > reference.RawThreshold+8 {
			t.Errorf("threshold page with a %d-byte block", n)
		}
		sizes[n]++
	}
	if sizes[reference.RawThreshold-1] == 0 || sizes[reference.RawThreshold] == 0 {
		t.Errorf("block sizes %v miss 3071 or 3072", sizes)
	}
}

// kernelRegions maps each line of the kernel text to the label it follows,
// without the label's counter ("entry" before the first label).
func kernelRegions(text string) map[int]string {
	regions := map[int]string{}
	region := "entry"
	for i, line := range strings.Split(text, "\n") {
		if l := strings.TrimSpace(line); strings.HasSuffix(l, ":") && !strings.Contains(l, " ") {
			region = strings.TrimSuffix(l, ":")
			if _, hint, ok := strings.Cut(region, "_"); ok {
				region = hint
			}
		}
		regions[i+1] = region
	}
	return regions
}

// Checks GPU-7 and PARSE-9 on the executed PTX: an LZ4 page runs exactly
// 129 iterations of the group loop (the 128 groups of 32 positions, each
// one's table phase an iteration ahead of its parse, and the iteration
// before the first group), a same-filled page none; logs the warp
// instructions per page by kernel region (the serial steps of one warp).
func TestKernelProfile(t *testing.T) {
	text := KernelPTX(90)
	regions := kernelRegions(text)
	rng := rand.New(rand.NewPCG(11, 12))
	for _, kind := range []string{"zeros", "text", "binary", "mixed", "random", "runs"} {
		mod, err := ptxexec.Load(text)
		if err != nil {
			t.Fatal(err)
		}
		mod.EnableProfile()
		const n = 64
		pages := make([]*[PageSize]byte, n)
		lz4 := 0
		for i := range pages {
			pages[i] = genPage(kind, rng)
			if k, _ := reference.EncodePage(make([]byte, reference.PageBound), pages[i]); k == reference.KindLZ4 {
				lz4++
			}
		}
		kernelOnCPU(t, mod, pages)
		perRegion := map[string]int64{}
		var total, iterations int64
		for _, lc := range mod.Profile(KernelName) {
			perRegion[regions[lc.Line]] += lc.Count
			total += lc.Count
			if strings.HasPrefix(lc.Text, "bar.warp.sync") && regions[lc.Line] == "group" && iterations == 0 {
				iterations = lc.Count
			}
		}
		switch kind {
		case "zeros":
			if iterations != 0 {
				t.Errorf("zeros: %d iterations ran", iterations)
			}
		case "text":
			if lz4 != n || iterations != 129*n {
				t.Errorf("text: %d LZ4 pages of %d, %d iterations, want 129 per page", lz4, n, iterations)
			}
		}
		var parts []string
		names := slices.Sorted(maps.Keys(perRegion))
		for _, r := range names {
			parts = append(parts, fmt.Sprintf("%s %.0f", r, float64(perRegion[r])/n))
		}
		t.Logf("%-7s (%2d/%d LZ4): %6.0f warp instructions per page: %s", kind, lz4, n, float64(total)/n, strings.Join(parts, ", "))
	}
}

// Checks GPU-2 and EXEC-1: the text of every target loads and computes the
// same pages.
func TestKernelOnCPUEveryTarget(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	pages := make([]*[PageSize]byte, 2*len(pageKinds))
	for i := range pages {
		_, pages[i] = conformancePage(i, rng)
	}
	for _, sm := range Targets {
		mod, err := ptxexec.Load(KernelPTX(sm))
		if err != nil {
			t.Fatalf("sm_%d: %v", sm, err)
		}
		if mod.Target() != fmt.Sprintf("sm_%d", sm) {
			t.Errorf("sm_%d: the text targets %s", sm, mod.Target())
		}
		metas, slots := kernelOnCPU(t, mod, pages)
		for i := range pages {
			if err := compareWithReference(pages[i], metas[i], slots[i]); err != nil {
				t.Errorf("sm_%d page %d: %v", sm, i, err)
			}
		}
	}
}

// Checks GPU-7, GPU-9, GPU-10 and EXEC-7: each bar.warp.sync of both entry
// points that orders shared memory is needed: the text without it runs into
// a shared-memory hazard between lanes that the executor reports (on the GPU
// it would be a silent, timing-dependent race). One block takes pages of
// every kind, so that its warps go from each kind of page to the next
// (GPU-10). The one of copyOut that orders the moves to the host before the
// meta word (RT-14) orders global memory, which the executor does not check
// (EXEC-7 covers shared memory): it is left in.
func TestKernelWarpSyncsAreNeeded(t *testing.T) {
	text := KernelPTX(90)
	rng := rand.New(rand.NewPCG(17, 18))
	var pages []*[PageSize]byte
	for i := 0; i < 4*len(pageKinds); i++ {
		_, p := conformancePage(i, rng)
		pages = append(pages, p)
	}
	lines := strings.Split(text, "\n")
	syncs := 0
	for i, line := range lines {
		if !strings.HasPrefix(strings.TrimSpace(line), "bar.warp.sync") || strings.Contains(line, "RT-14") {
			continue
		}
		syncs++
		mutant := strings.Join(slices.Concat(lines[:i], lines[i+1:]), "\n")
		mod, err := ptxexec.Load(mutant)
		if err != nil {
			t.Fatal(err)
		}
		// Both entries: the page kernel, and its stream variant with hostDst.
		for _, toHost := range []bool{false, true} {
			if _, _, _, err = launchOnCPU(mod, pages, toHost, 1); errors.Is(err, ptxexec.ErrSharedRace) {
				break
			}
		}
		if !errors.Is(err, ptxexec.ErrSharedRace) {
			t.Errorf("without line %d %q: %v, want a shared-memory race", i+1, strings.TrimSpace(line), err)
		} else {
			t.Logf("without line %d: %v", i+1, err)
		}
	}
	if syncs != 17 {
		t.Errorf("the kernel has %d bar.warp.sync, the test expects 17 (8 and 9)", syncs)
	}
}

// Checks GPU-7 and EXEC-8 on the benchmark data sets (internal/dataset): the
// executed kernel gives the reference's bytes, and the log gives the warp
// instructions per page that spec/executor.md's notes cite, with their
// median and the largest: every page is launched alone, since a batch of
// few pages takes as long as its slowest page (results/gpu-notebook.md).
func TestKernelOnCPUDatasets(t *testing.T) {
	n := 500
	if testing.Short() {
		n = 100
	}
	for _, name := range dataset.Deterministic() {
		set, err := dataset.Load(name, n)
		if errors.Is(err, dataset.ErrNoSource) {
			t.Logf("%s: %v", name, err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		// The page kernel, then its stream variant (which the engine
		// launches with hostDst).
		for _, toHost := range []bool{false, true} {
			mod, err := ptxexec.Load(KernelPTX(90))
			if err != nil {
				t.Fatal(err)
			}
			steps := make([]int64, len(set))
			for i := range set {
				before := mod.Steps()
				metas, slots, hostSlots := kernelOnCPUToHost(t, mod, []*[PageSize]byte{&set[i]}, toHost)
				steps[i] = mod.Steps() - before
				if toHost {
					slots = hostSlots
				}
				if err := compareWithReference(&set[i], metas[0], slots[0]); err != nil {
					t.Errorf("%s page %d: %v", name, i, err)
				}
			}
			mean := float64(mod.Steps()) / float64(len(set))
			slices.Sort(steps)
			t.Logf("%-8s %d pages, %s: %.0f warp instructions per page, median %d, 99th percentile %d, most %d",
				name, len(set), entryFor(toHost), mean, steps[len(steps)/2], steps[len(steps)*99/100], steps[len(steps)-1])
		}
	}
}

// Checks GPU-1's hostDst: with it, every same-filled and LZ4 page's payload
// is also in its slot at hostDst and nothing past it, and a raw page leaves
// its slot there untouched; dst and meta are as without it.
func TestKernelCopiesToHost(t *testing.T) {
	mod, err := ptxexec.Load(KernelPTX(90))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(17, 18))
	var pages []*[PageSize]byte
	for i := 0; i < 4*len(pageKinds); i++ {
		_, p := conformancePage(i, rng)
		pages = append(pages, p)
	}
	metas, slots, hostSlots := kernelOnCPUToHost(t, mod, pages, true)
	plainMetas, plainSlots := kernelOnCPU(t, mod, pages)
	kinds := map[uint8]int{}
	for i, p := range pages {
		if metas[i] != plainMetas[i] {
			t.Errorf("page %d: meta %#x with hostDst, %#x without", i, metas[i], plainMetas[i])
		}
		kind, _ := DecodeMeta(metas[i])
		kinds[kind]++
		switch kind {
		case kindRaw:
			if err := compareWithReference(p, metas[i], slots[i]); err != nil {
				t.Errorf("page %d: %v", i, err)
			}
			if bytes.Count(hostSlots[i], []byte{canary}) != OutSlot {
				t.Errorf("raw page %d: its host slot written", i)
			}
			continue
		case kindLZ4:
			if !bytes.Equal(slots[i], plainSlots[i]) {
				t.Errorf("page %d: dst slot differs with hostDst", i)
			}
		}
		if err := compareWithReference(p, metas[i], hostSlots[i]); err != nil {
			t.Errorf("page %d, host slot: %v", i, err)
		}
	}
	if kinds[kindSame] == 0 || kinds[kindLZ4] == 0 || kinds[kindRaw] == 0 {
		t.Errorf("pages of each kind: %v", kinds)
	}
}

// BenchmarkKernelInstructions runs the page kernel on the executor, one page
// at a time, over the first 1,000 pages of each data set, and reports the
// warp instructions a page takes: the mean, the median, the 90th percentile
// and the largest. A launch of 1,000 pages fits the H100 in one wave, so its
// time follows the slowest page's chain, not the mean (results/gpu-notebook.md).
func BenchmarkKernelInstructions(b *testing.B) {
	const n = 1000
	text := KernelPTX(90)
	for _, name := range dataset.Names() {
		b.Run("executor/"+name+"/1000", func(b *testing.B) {
			set, err := dataset.Load(name, n)
			if err != nil {
				b.Skip(err)
			}
			b.SetBytes(int64(len(set)) * PageSize)
			var perPage []int64
			for b.Loop() {
				mod, err := ptxexec.Load(text)
				if err != nil {
					b.Fatal(err)
				}
				mod.EnableProfile()
				perPage = perPage[:0]
				var before int64
				for i := range set {
					kernelOnCPU(b, mod, []*[PageSize]byte{(*[PageSize]byte)(&set[i])})
					var total int64
					for _, lc := range mod.Profile(KernelName) {
						total += lc.Count
					}
					perPage = append(perPage, total-before)
					before = total
				}
			}
			slices.Sort(perPage)
			var sum int64
			for _, c := range perPage {
				sum += c
			}
			at := func(q float64) float64 { return float64(perPage[int(q*float64(len(perPage)-1))]) }
			b.ReportMetric(float64(sum)/float64(len(perPage)), "warp-instr/page")
			b.ReportMetric(at(0.5), "p50-warp-instr")
			b.ReportMetric(at(0.9), "p90-warp-instr")
			b.ReportMetric(at(1), "max-warp-instr")
		})
	}
}

// Checks GPU-7 and PARSE-4 where both candidates' matches go on past 16
// bytes: a block of random bytes is copied twice before it, the copies cut
// short (one byte flipped) at chosen lengths, and the random bytes drawn
// until no other position before the block shares its first word's hash,
// so that the block's first position has c1 at the second copy and c2 at
// the first, with match lengths cut2 and cut1: both ending in the first
// extension step or in later ones, either the longer, both as long (c1's
// is kept), both at the page's bound. Each page's output, in both kernels,
// is the reference's, the match the case wants is the reference's, and the
// kernels ran the loop that extends both candidates.
func TestKernelExtendsBothCandidates(t *testing.T) {
	cases := []struct {
		cut1, cut2, block int // a cut of block or more: none
		wantC2            bool
	}{
		{cut1: 40, cut2: 60, block: 600},
		{cut1: 60, cut2: 40, block: 600, wantC2: true},
		{cut1: 100, cut2: 100, block: 600},
		{cut1: 300, cut2: 40, block: 600, wantC2: true},
		{cut1: 40, cut2: 300, block: 600},
		{cut1: 500, cut2: 450, block: 600, wantC2: true},
		{cut1: 270, cut2: 271, block: 600},
		{cut1: 300, cut2: 300, block: 300},
		{cut1: 300, cut2: 200, block: 300, wantC2: true},
	}
	mod, err := ptxexec.Load(KernelPTX(90))
	if err != nil {
		t.Fatal(err)
	}
	mod.EnableProfile()
	rng := rand.New(rand.NewPCG(29, 30))
	hash := func(p *[PageSize]byte, q int) uint32 {
		return binary.LittleEndian.Uint32(p[q:]) * hashPrime >> 21
	}
	for i, c := range cases {
		third := 2200
		if c.block == 300 {
			third = PageSize - c.block // the matches reach the bound
		}
		second, first := third-1000, third-2000
		var page [PageSize]byte
		for {
			for j := range page {
				page[j] = byte(rng.Uint32())
			}
			block := page[third : third+c.block]
			copy(page[second:], block)
			copy(page[first:], block)
			if c.cut1 < c.block {
				page[first+c.cut1] ^= 0xff
			}
			if c.cut2 < c.block {
				page[second+c.cut2] ^= 0xff
			}
			others := 0
			for q := range third {
				if q != first && q != second && hash(&page, q) == hash(&page, third) {
					others++
				}
			}
			if others == 0 {
				break
			}
		}
		wantOffset := third - second
		if c.wantC2 {
			wantOffset = third - first
		}
		pos, found := 0, false
		for _, s := range reference.Parse(page[:]) {
			pos += s.LiteralLen
			if pos == third {
				found = true
				if s.Offset != wantOffset {
					t.Errorf("case %d: the reference's match at %d has offset %d, the case wants %d", i, third, s.Offset, wantOffset)
				}
			}
			pos += s.MatchLen
		}
		if !found {
			t.Errorf("case %d: no match at %d", i, third)
		}
		for _, toHost := range []bool{false, true} {
			metas, slots, hostSlots := kernelOnCPUToHost(t, mod, []*[PageSize]byte{&page}, toHost)
			if toHost {
				slots = hostSlots
			}
			if err := compareWithReference(&page, metas[0], slots[0]); err != nil {
				t.Errorf("case %d, %s: %v", i, entryFor(toHost), err)
			}
		}
	}
	regions := kernelRegions(KernelPTX(90))
	for _, name := range []string{KernelName, StreamKernelName} {
		var both int64
		for _, lc := range mod.Profile(name) {
			if regions[lc.Line] == "extend_both" {
				both += lc.Count
			}
		}
		if both == 0 {
			t.Errorf("%s: the loop that extends both candidates never ran", name)
		}
	}
}

// Checks GPU-7 and PAGE-5: a page with no match before position 3072 has
// 3072 literals or more and is raw, which the kernel decides once the
// group that ends at 3072 has no match, skipping the groups after it. Pages
// of random bytes followed by zeros from position r on (their first match
// at r+1) give the reference's output in both kernels around that point,
// and from r = 3072 on the kernel ran no group after the 97th iteration.
func TestKernelRawWithoutMatches(t *testing.T) {
	text := KernelPTX(90)
	regions := kernelRegions(text)
	rng := rand.New(rand.NewPCG(31, 32))
	for r := OutSlot - 80; r <= OutSlot+40; r++ {
		var page [PageSize]byte
		for j := range r {
			page[j] = byte(rng.Uint32())
		}
		mod, err := ptxexec.Load(text)
		if err != nil {
			t.Fatal(err)
		}
		mod.EnableProfile()
		for _, toHost := range []bool{false, true} {
			metas, slots, hostSlots := kernelOnCPUToHost(t, mod, []*[PageSize]byte{&page}, toHost)
			if toHost {
				slots = hostSlots
			}
			if err := compareWithReference(&page, metas[0], slots[0]); err != nil {
				t.Errorf("random bytes to %d, %s: %v", r, entryFor(toHost), err)
			}
		}
		var iterations int64
		for _, lc := range mod.Profile(KernelName) {
			if strings.HasPrefix(lc.Text, "bar.warp.sync") && regions[lc.Line] == "group" {
				iterations = lc.Count
				break
			}
		}
		if r >= OutSlot && iterations != (OutSlot-32)/32+2 {
			t.Errorf("random bytes to %d: %d iterations of the group loop, want %d", r, iterations, (OutSlot-32)/32+2)
		}
		if r < OutSlot-32 && iterations != 129 {
			t.Errorf("random bytes to %d: %d iterations of the group loop, want 129", r, iterations)
		}
	}
}
