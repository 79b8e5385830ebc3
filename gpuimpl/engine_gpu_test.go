package gpuimpl

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/lz4warp/lz4warp/internal/gputest"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/lz4warp/lz4warp/internal/cudart"
	"github.com/lz4warp/lz4warp/reference"
	"github.com/pierrec/lz4/v4"
)

// genBatch makes n pages, page i of kind pageKinds[i % len] from a
// generator seeded by (seed, i): the same pages on every run, generated
// in parallel.
func genBatch(seed uint64, first, n int) [][PageSize]byte {
	pages := make([][PageSize]byte, n)
	parallel(n, 512, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			idx := first + i
			rng := rand.New(rand.NewPCG(seed, uint64(idx)))
			pages[i] = *genPage(pageKinds[idx%len(pageKinds)], rng)
		}
	})
	return pages
}

// mismatch describes the first difference of a GPU output from the
// reference, or "" when there is none.
func mismatch(page *[PageSize]byte, got Output) string {
	var ref [reference.PageBound]byte
	kind, n := reference.EncodePage(ref[:], page)
	if got.Kind != uint8(kind) || !bytes.Equal(got.Data, ref[:n]) {
		return fmt.Sprintf("GPU kind %d, %d bytes; reference kind %v, %d bytes", got.Kind, len(got.Data), kind, n)
	}
	var dec [PageSize]byte
	if err := reference.DecodePage(&dec, kind, got.Data); err != nil || dec != *page {
		return fmt.Sprintf("reference.DecodePage: %v", err)
	}
	if kind == reference.KindLZ4 {
		var buf [PageSize]byte
		if m, err := lz4.UncompressBlock(got.Data, buf[:]); err != nil || m != PageSize || buf != *page {
			return fmt.Sprintf("pierrec/lz4 UncompressBlock: %d bytes, %v", m, err)
		}
	}
	return ""
}

// checkBatch compares every output with the reference, in parallel, and
// saves the first few failing pages as goldens under $OUT (the device
// run's output folder), for testdata/gpu-mismatch/.
func checkBatch(t *testing.T, label string, pages [][PageSize]byte, out []Output) int {
	t.Helper()
	if len(out) != len(pages) {
		t.Fatalf("%s: %d outputs for %d pages", label, len(out), len(pages))
	}
	bad := make([]string, len(pages))
	parallel(len(pages), 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			bad[i] = mismatch(&pages[i], out[i])
		}
	})
	n := 0
	for i, msg := range bad {
		if msg == "" {
			continue
		}
		n++
		if n <= 5 {
			t.Errorf("%s: page %d: %s", label, i, msg)
			saveMismatch(t, label, i, &pages[i], out[i])
		}
	}
	return n
}

func saveMismatch(t *testing.T, label string, i int, page *[PageSize]byte, got Output) {
	dir := os.Getenv("OUT")
	if dir == "" {
		return
	}
	name := filepath.Join(dir, fmt.Sprintf("mismatch-%s-%d.bin", label, i))
	// The page, then the GPU's kind byte and payload.
	data := append(append(page[:len(page):len(page)], got.Kind), got.Data...)
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Log(err)
	}
}

func openEngine(t testing.TB, opts Options) *Engine {
	t.Helper()
	gputest.Require(t)
	e, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// Checks RT-1, RT-5: the device's attributes, its target and one JIT per
// context.
func TestEngineOpen(t *testing.T) {
	gputest.Require(t)
	devs, err := Devices()
	if err != nil || len(devs) == 0 {
		t.Fatalf("Devices() = %v, %v", devs, err)
	}
	for _, d := range devs {
		t.Logf("device %d: %s, %d MiB, L2 %d KiB, compute capability %d.%d, PTX target sm_%d, driver %d",
			d.Index, d.Name, d.TotalMemory>>20, d.L2CacheSize>>10, d.Major, d.Minor, KernelTarget(d.Major, d.Minor), cudart.DriverVersion())
	}
	e1 := openEngine(t, Options{BatchPages: 64, RingSlots: 2, AsyncDMA: true})
	e2 := openEngine(t, Options{BatchPages: 64, RingSlots: 2})
	if e1.dev != e2.dev || e1.dev.ctx != e2.dev.ctx {
		t.Errorf("two engines on device 0 do not share its context")
	}
	if e1.Target() != KernelTarget(devs[0].Major, devs[0].Minor) {
		t.Errorf("target sm_%d", e1.Target())
	}
	if _, err := Open(Options{DeviceIndex: len(devs), BatchPages: 1, RingSlots: 1}); err == nil {
		t.Errorf("Open on device %d of %d succeeded", len(devs), len(devs))
	}
}

// Checks RT-6, RT-7, RT-8, GPU-7: every kind of page through the ring, in
// order and overlapped, with partial chunks, gives the reference's bytes.
func TestEngineMatchesReference(t *testing.T) {
	gputest.Require(t)
	pages := genBatch(7, 0, 9*700+13)
	for _, opts := range []Options{
		{BatchPages: 1000, RingSlots: 4, AsyncDMA: true},
		{BatchPages: 1000, RingSlots: 4, AsyncDMA: false},
		{BatchPages: 77, RingSlots: 3, AsyncDMA: true},
		{BatchPages: 1, RingSlots: 2, AsyncDMA: true},
		{BatchPages: 8192, RingSlots: 1, AsyncDMA: true},
	} {
		label := fmt.Sprintf("batch%d-slots%d-async%v", opts.BatchPages, opts.RingSlots, opts.AsyncDMA)
		t.Run(label, func(t *testing.T) {
			e := openEngine(t, opts)
			batch := pages
			if opts.BatchPages == 1 {
				batch = pages[:300]
			}
			out, tm, err := e.Compress(batch)
			if err != nil {
				t.Fatal(err)
			}
			if n := checkBatch(t, label, batch, out); n != 0 {
				t.Fatalf("%d of %d pages differ from the reference", n, len(batch))
			}
			if tm.H2D <= 0 || tm.Kernel <= 0 || tm.D2H <= 0 || tm.Total <= 0 || tm.Stage <= 0 || tm.Assemble <= 0 {
				t.Errorf("timings %+v", tm)
			}
			if !opts.AsyncDMA && tm.Total < tm.Kernel {
				t.Errorf("in order, the total %v is below the kernel time %v", tm.Total, tm.Kernel)
			}
			t.Logf("%d pages: %+v", len(batch), tm)
		})
	}
}

// Checks RT-8: an empty batch, and outputs that own their bytes.
func TestEngineOutputsOwnTheirBytes(t *testing.T) {
	gputest.Require(t)
	e := openEngine(t, Options{BatchPages: 16, RingSlots: 2, AsyncDMA: true})
	out, _, err := e.Compress(nil)
	if err != nil || len(out) != 0 {
		t.Fatalf("empty batch: %v, %v", out, err)
	}
	pages := genBatch(9, 0, 64)
	out, _, err = e.Compress(pages)
	if err != nil {
		t.Fatal(err)
	}
	saved := make([]Output, len(out))
	for i, o := range out {
		saved[i] = Output{Kind: o.Kind, Data: bytes.Clone(o.Data)}
	}
	if _, _, err := e.Compress(genBatch(10, 0, 64)); err != nil { // overwrites the staging buffers
		t.Fatal(err)
	}
	for i := range pages {
		pages[i][0] ^= 0xff // and the input
	}
	for i := range out {
		if out[i].Kind != saved[i].Kind || !bytes.Equal(out[i].Data, saved[i].Data) {
			t.Fatalf("page %d's output changed after a later batch or a change of its input", i)
		}
	}
}

// Checks RT-13, RT-14: pages compressed from page-locked HostPages give
// the reference's bytes through a ring with partial chunks, in order and
// overlapped, read and written through the mapping or copied; nothing is
// staged; the outputs point into the HostPages; after a fault the rebuilt
// context locks them again; closed HostPages and those of another engine
// are refused.
func TestEngineHostPages(t *testing.T) {
	gputest.Require(t)
	defer func(v int) { directPages = v }(directPages)
	for _, direct := range []bool{true, false} {
		directPages = 0
		if direct {
			directPages = 1 << 30
		}
		t.Run(fmt.Sprintf("direct=%v", direct), testEngineHostPages)
	}
}

func testEngineHostPages(t *testing.T) {
	pages := genBatch(13, 0, 9*700+13)
	for _, opts := range []Options{
		{BatchPages: 1000, RingSlots: 4, AsyncDMA: true},
		{BatchPages: 777, RingSlots: 2, AsyncDMA: false},
	} {
		// Direct batches copy nothing (RT-14).
		copies := directPages == 0 || !opts.AsyncDMA
		e := openEngine(t, opts)
		h, err := e.NewHostPages(len(pages) + 3)
		if err != nil {
			t.Fatal(err)
		}
		copy(h.Pages, pages)
		mem := uintptr(unsafe.Pointer(&h.mem[0]))
		for _, n := range []int{len(pages), 2500, 0} {
			out, tm, err := e.CompressHost(h, n)
			if err != nil {
				t.Fatal(err)
			}
			if bad := checkBatch(t, fmt.Sprintf("host-%d", n), pages[:n], out); bad != 0 {
				t.Fatalf("%+v, %d pages: %d differ from the reference", opts, n, bad)
			}
			if n > 0 && (tm.Stage != 0 || tm.Kernel <= 0 || copies && (tm.H2D <= 0 || tm.D2H <= 0)) {
				t.Errorf("%+v, %d pages: timings %+v, want no staging", opts, n, tm)
			}
			if n > 0 && !copies && (tm.H2D != 0 || tm.D2H != 0 || tm.Kernel != tm.Total) {
				t.Errorf("%+v, %d pages: timings %+v, want no copies, the kernels' span", opts, n, tm)
			}
			for i, o := range out {
				if p := uintptr(unsafe.Pointer(&o.Data[0])); p < mem || p >= mem+uintptr(len(h.mem)) {
					t.Fatalf("page %d's output at %#x lies outside the HostPages", i, p)
				}
			}
		}
		for _, f := range []Fault{FaultOutOfMemory, FaultInvalidLaunch} {
			gen := e.dev.gen
			e.InjectFault(f)
			if _, _, err := e.CompressHost(h, 1500); !errors.Is(err, ErrFault) || e.dev.gen != gen+1 {
				t.Fatalf("injected %v: %v, generation %d → %d", f, err, gen, e.dev.gen)
			}
			out, _, err := e.CompressHost(h, 1500)
			if err != nil || h.lock.addrs[e.dev].gen != e.dev.gen {
				t.Fatalf("after the rebuild: %v, registered in generation %d of %d", err, h.lock.addrs[e.dev].gen, e.dev.gen)
			}
			if bad := checkBatch(t, "host-after-fault", pages[:1500], out); bad != 0 {
				t.Fatalf("%d pages differ after the rebuild", bad)
			}
		}
		if _, _, err := e.CompressHost(h, len(h.Pages)+1); err == nil {
			t.Error("more pages than the HostPages holds: no error")
		}
		other := openEngine(t, Options{BatchPages: 64, RingSlots: 1})
		if _, _, err := other.CompressHost(h, 10); !errors.Is(err, errHostPages) {
			t.Errorf("another engine's HostPages: %v", err)
		}
		if err := h.Close(); err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.CompressHost(h, 10); !errors.Is(err, errHostPages) {
			t.Errorf("closed HostPages: %v", err)
		}
	}
}

// Checks RT-6, GPU-8: with 1 to 4 slots, in order and overlapped, through staging and
// from HostPages, with chunks of BatchPages and of chunkPages' share, the
// packed payloads give the reference's bytes, for chunks longer than the
// offsets kernel's tile of 1,024 pages, for a last chunk of 77 pages and
// for chunks of raw pages alone, which copy nothing.
func TestEnginePackedD2H(t *testing.T) {
	gputest.Require(t)
	defer func(v int) { directPages = v }(directPages)
	directPages = 0
	pages := genBatch(17, 0, 3*1500+77)
	rng := rand.New(rand.NewPCG(3, 3))
	raw := make([][PageSize]byte, 1600)
	for i := range raw {
		raw[i] = *genPage("random", rng)
	}
	var opts []Options
	for _, slots := range []int{1, 2, 3, 4} {
		for _, async := range []bool{false, true} {
			opts = append(opts, Options{BatchPages: 1500, RingSlots: slots, AsyncDMA: async})
		}
	}
	// chunkPages cuts the 4,577 pages into chunks of 2,048, not 8,192; with
	// 300-page chunks each slot and each set of stage events takes several.
	opts = append(opts, Options{BatchPages: 8192, RingSlots: 4, AsyncDMA: true},
		Options{BatchPages: 300, RingSlots: 3, AsyncDMA: true}, Options{BatchPages: 300, RingSlots: 2, AsyncDMA: false})
	for _, o := range opts {
		e := openEngine(t, o)
		h, err := e.NewHostPages(len(pages))
		if err != nil {
			t.Fatal(err)
		}
		for _, batch := range [][][PageSize]byte{pages, raw} {
			copy(h.Pages, batch)
			for _, host := range []bool{false, true} {
				var out []Output
				if host {
					out, _, err = e.CompressHost(h, len(batch))
				} else {
					out, _, err = e.Compress(batch)
				}
				if err != nil {
					t.Fatal(err)
				}
				label := fmt.Sprintf("%+v-host%v-%d", o, host, len(batch))
				if n := checkBatch(t, label, batch, out); n != 0 {
					t.Fatalf("%s: %d pages differ", label, n)
				}
			}
		}
		h.Close()
	}
}

func checkFault(t *testing.T, f Fault, err error, code cudart.Code) {
	t.Helper()
	if !errors.Is(err, ErrFault) {
		t.Fatalf("%v: got %v, want ErrFault", f, err)
	}
	var ce *cudart.Error
	if !errors.As(err, &ce) || ce.Code != code {
		t.Fatalf("%v: %v, want the CUDA code %v", f, err, code.Name())
	}
	t.Logf("%v: %v", f, err)
}

// Checks RT-9: a fault that is not sticky fails the batch with ErrFault,
// the context is rebuilt, and the next batches, of this engine and of
// another on the same device, are right.
func TestEngineFaults(t *testing.T) {
	gputest.Require(t)
	e := openEngine(t, Options{BatchPages: 500, RingSlots: 3, AsyncDMA: true})
	other := openEngine(t, Options{BatchPages: 300, RingSlots: 2, AsyncDMA: false})
	pages := genBatch(11, 0, 2000)
	for _, c := range []struct {
		f    Fault
		code cudart.Code
	}{{FaultOutOfMemory, cudart.OutOfMemory}, {FaultInvalidLaunch, cudart.InvalidValue}} {
		gen := e.dev.gen
		e.InjectFault(c.f)
		_, _, err := e.Compress(pages)
		checkFault(t, c.f, err, c.code)
		if errors.Is(err, ErrDeviceLost) {
			t.Fatalf("%v: the device is lost after a fault that is not sticky", c.f)
		}
		if e.dev.gen != gen+1 {
			t.Errorf("%v: the context was not rebuilt (generation %d → %d)", c.f, gen, e.dev.gen)
		}
		for _, eng := range []*Engine{e, other} {
			out, _, err := eng.Compress(pages)
			if err != nil {
				t.Fatalf("%v: the batch after the fault: %v", c.f, err)
			}
			if n := checkBatch(t, "after-"+c.f.String(), pages, out); n != 0 {
				t.Fatalf("%v: %d pages differ after the rebuild", c.f, n)
			}
		}
	}
	// RT-15: a fault in a batch that runs while a started one is on its
	// way; the started one ends before the ring is rebuilt, and gives the
	// reference's bytes.
	h, err := e.NewHostPages(len(pages))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	copy(h.Pages, pages)
	p, err := e.StartHost(h, len(pages))
	if err != nil {
		t.Fatal(err)
	}
	e.InjectFault(FaultInvalidLaunch)
	_, _, err = e.Compress(pages)
	checkFault(t, FaultInvalidLaunch, err, cudart.InvalidValue)
	out, _, err := p.Wait()
	if err != nil {
		t.Fatalf("the batch started before a fault: %v", err)
	}
	if n := checkBatch(t, "started-before-fault", pages, out); n != 0 {
		t.Fatalf("the batch started before a fault: %d pages differ", n)
	}
}

// Checks MaxBatchPages: a larger batch is refused before anything is made.
func TestEngineMaxBatchPages(t *testing.T) {
	gputest.Require(t)
	if _, err := Open(Options{BatchPages: MaxBatchPages + 1, RingSlots: 1}); err == nil ||
		!strings.Contains(err.Error(), "more than") {
		t.Fatalf("Open with BatchPages %d: %v", MaxBatchPages+1, err)
	}
}

// Checks RT-9, RT-4, RT-14: a sticky fault (illegal address, launch failure) fails
// the batch with ErrFault and ErrDeviceLost; every later batch and Open on
// the device fail at once the same way, without touching the driver. Each
// fault runs in a child process.
func TestEngineStickyFaults(t *testing.T) {
	gputest.Require(t)
	for _, c := range []struct {
		f    Fault
		code cudart.Code
	}{{FaultIllegalAddress, cudart.IllegalAddress}, {FaultLaunchFailure, cudart.LaunchFailed}} {
		// Direct: the batch from HostPages, read and written through the
		// mapping (RT-14), where the host finds the fault while it waits
		// for meta words.
		for _, direct := range []bool{false, true} {
			name := c.f.String()
			if direct {
				name += "-direct"
			}
			t.Run(name, func(t *testing.T) {
				if !gputest.InChild(t, nil) {
					return
				}
				e := openEngine(t, Options{BatchPages: 500, RingSlots: 3, AsyncDMA: true})
				pages := genBatch(12, 0, 1600)
				compress := func() error { _, _, err := e.Compress(pages); return err }
				if direct {
					h, err := e.NewHostPages(len(pages))
					if err != nil {
						t.Fatal(err)
					}
					copy(h.Pages, pages)
					compress = func() error { _, _, err := e.CompressHost(h, len(pages)); return err }
				}
				if err := compress(); err != nil {
					t.Fatal(err)
				}
				e.InjectFault(c.f)
				err := compress()
				checkFault(t, c.f, err, c.code)
				if !errors.Is(err, ErrDeviceLost) {
					t.Fatalf("%v: %v, want ErrDeviceLost", c.f, err)
				}
				if err := compress(); !errors.Is(err, ErrFault) || !errors.Is(err, ErrDeviceLost) {
					t.Fatalf("the batch after a sticky fault: %v", err)
				}
				if _, err := Open(Options{BatchPages: 8, RingSlots: 1}); !errors.Is(err, ErrDeviceLost) {
					t.Fatalf("Open after a sticky fault: %v", err)
				}
				// Nor once the device's last engine has closed.
				e.Close()
				if _, err := Open(Options{BatchPages: 8, RingSlots: 1}); !errors.Is(err, ErrDeviceLost) {
					t.Fatalf("Open after a sticky fault and the last engine's Close: %v", err)
				}
			})
		}
		// RT-15: the fault in a batch started while another is on its
		// way: the other gives the reference's bytes or ErrFault, never
		// other bytes, and the device is lost for both and all after.
		t.Run(c.f.String()+"-started", func(t *testing.T) {
			if !gputest.InChild(t, nil) {
				return
			}
			e := openEngine(t, Options{BatchPages: 500, RingSlots: 3, AsyncDMA: true})
			pages := genBatch(13, 0, 1600)
			var hs [2]*HostPages
			for i := range hs {
				h, err := e.NewHostPages(len(pages))
				if err != nil {
					t.Fatal(err)
				}
				copy(h.Pages, pages)
				hs[i] = h
			}
			start := func(h *HostPages) *Pending {
				p, err := e.StartHost(h, len(pages))
				if err != nil {
					t.Fatal(err)
				}
				return p
			}
			if _, _, err := start(hs[0]).Wait(); err != nil {
				t.Fatal(err)
			}
			before := start(hs[0])
			e.InjectFault(c.f)
			_, _, err := start(hs[1]).Wait()
			checkFault(t, c.f, err, c.code)
			if !errors.Is(err, ErrDeviceLost) {
				t.Fatalf("%v: %v, want ErrDeviceLost", c.f, err)
			}
			if out, _, err := before.Wait(); err == nil {
				if bad := checkBatch(t, "before the fault", pages, out); bad != 0 {
					t.Fatalf("the batch started before the fault: %d pages differ", bad)
				}
			} else if !errors.Is(err, ErrFault) {
				t.Fatalf("the batch started before the fault: %v, want its outputs or ErrFault", err)
			}
			if _, _, err := start(hs[0]).Wait(); !errors.Is(err, ErrFault) || !errors.Is(err, ErrDeviceLost) {
				t.Fatalf("a batch started after a sticky fault: %v", err)
			}
		})
	}
}

// conformancePages is the number of generated pages TestConformance
// checks: LZ4WARP_CONFORMANCE_PAGES, default 1,048,576 (RT-11).
func conformancePages(t *testing.T) int {
	n := 1 << 20
	if s := os.Getenv("LZ4WARP_CONFORMANCE_PAGES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("LZ4WARP_CONFORMANCE_PAGES=%q", s)
		}
		n = v
	}
	return n
}

// Checks RT-11, RT-14, GPU-7, PARSE-8: every generated page, and every page
// of the real data sets found on the machine, compressed on the GPU is the
// reference's bytes and decodes with the reference and with pierrec/lz4;
// half the generated pages go through direct HostPages batches.
func TestConformance(t *testing.T) {
	gputest.Require(t)
	total := conformancePages(t)
	e := openEngine(t, Options{BatchPages: 8192, RingSlots: 4, AsyncDMA: true})
	// Every other chunk goes through HostPages in direct batches (RT-14).
	h, err := e.NewHostPages(directPages)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	checked, mismatches, direct := 0, 0, 0
	const chunk = 1 << 16
	for k, first := 0, 0; first < total; k, first = k+1, first+chunk {
		n := min(chunk, total-first)
		pages := genBatch(2026, first, n)
		if k%2 == 0 {
			out, _, err := e.Compress(pages)
			if err != nil {
				t.Fatal(err)
			}
			mismatches += checkBatch(t, "generated", pages, out)
		} else {
			for lo := 0; lo < n; lo += len(h.Pages) {
				m := copy(h.Pages, pages[lo:])
				out, _, err := e.CompressHost(h, m)
				if err != nil {
					t.Fatal(err)
				}
				mismatches += checkBatch(t, "generated-direct", pages[lo:lo+m], out)
				direct += m
			}
		}
		checked += n
	}
	t.Logf("%d of the generated pages in direct batches", direct)
	for _, set := range realSets() {
		pages := set.load(t)
		if len(pages) == 0 {
			continue
		}
		out, _, err := e.Compress(pages)
		if err != nil {
			t.Fatal(err)
		}
		m := checkBatch(t, set.name, pages, out)
		t.Logf("%s: %d pages, %d mismatches", set.name, len(pages), m)
		mismatches += m
		checked += len(pages)
	}
	fmt.Printf("conformance: pages checked %d, mismatches %d\n", checked, mismatches)
	if mismatches != 0 {
		t.Fatalf("%d of %d pages differ from the reference", mismatches, checked)
	}
}

// Checks RT-15: batches that StartHost starts, more than there are event
// pairs, give the reference's bytes whatever order Wait takes them in,
// beside a CompressHost call and a batch too large to go direct; a
// HostPages with a batch on its way takes no other; a fault while
// batches are on their way loses none of them; Close takes the batches
// still on their way.
func TestEngineStartHost(t *testing.T) {
	gputest.Require(t)
	defer func(v int) { directPages = v }(directPages)
	directPages = 4000
	e := openEngine(t, Options{BatchPages: 1000, RingSlots: 3, AsyncDMA: true})
	sizes := []int{1000, 2500, 700, 1, 3000, 4500}
	batches := make([][][PageSize]byte, len(sizes))
	hosts := make([]*HostPages, len(sizes)+1)
	for i, n := range sizes {
		batches[i] = genBatch(uint64(40+i), 0, n)
	}
	for i := range hosts {
		h, err := e.NewHostPages(5000)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		if i < len(sizes) {
			copy(h.Pages, batches[i])
		}
		hosts[i] = h
	}
	check := func(label string, i int, p *Pending) {
		t.Helper()
		out, tm, err := p.Wait()
		if err != nil {
			t.Fatalf("%s: batch %d: %v", label, i, err)
		}
		if bad := checkBatch(t, fmt.Sprintf("%s-%d", label, i), batches[i], out); bad != 0 {
			t.Fatalf("%s: batch %d: %d pages differ from the reference", label, i, bad)
		}
		if sizes[i] <= directPages && (tm.Kernel <= 0 || tm.Total != tm.Kernel) {
			t.Errorf("%s: batch %d: timings %+v, want the kernels' span", label, i, tm)
		}
		again, _, err := p.Wait()
		if err != nil || len(again) != len(out) || len(out) > 0 && &again[0] != &out[0] {
			t.Errorf("%s: batch %d: a second Wait gave other outputs (%v)", label, i, err)
		}
	}
	start := func(i int) *Pending {
		t.Helper()
		p, err := e.StartHost(hosts[i], sizes[i])
		if err != nil {
			t.Fatal(err)
		}
		return p
	}

	pending := make([]*Pending, len(sizes))
	for i := range sizes {
		pending[i] = start(i)
	}
	if _, err := e.StartHost(hosts[0], 10); err == nil {
		t.Error("a HostPages with a batch on its way took another")
	}
	if _, _, err := e.CompressHost(hosts[1], 10); err == nil {
		t.Error("CompressHost took a HostPages with a batch on its way")
	}
	copy(hosts[len(sizes)].Pages, batches[1])
	out, _, err := e.CompressHost(hosts[len(sizes)], sizes[1])
	if err != nil || checkBatch(t, "beside", batches[1], out) != 0 {
		t.Fatalf("CompressHost beside the started batches: %v", err)
	}
	for i := len(sizes) - 1; i >= 0; i-- {
		check("reverse", i, pending[i])
	}

	// A fault while two batches are on their way: they end first; the
	// context is rebuilt; later batches run.
	for _, f := range []Fault{FaultInvalidLaunch, FaultOutOfMemory} {
		gen := e.dev.gen
		a, b := start(0), start(2)
		e.InjectFault(f)
		if _, _, err := start(1).Wait(); !errors.Is(err, ErrFault) || e.dev.gen != gen+1 {
			t.Fatalf("injected %v: %v, generation %d → %d", f, err, gen, e.dev.gen)
		}
		check(f.String(), 0, a)
		check(f.String(), 2, b)
		check(f.String()+"-after", 4, start(4))
	}

	// Close takes what is on its way; Wait then returns it.
	closing := openEngine(t, Options{BatchPages: 500, RingSlots: 2, AsyncDMA: true})
	var ps []*Pending
	for i := range 3 {
		h, err := closing.NewHostPages(sizes[i])
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		copy(h.Pages, batches[i])
		p, err := closing.StartHost(h, sizes[i])
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
		if i == 1 {
			if err := h.Close(); err != nil { // takes its batch first
				t.Fatal(err)
			}
		}
	}
	if err := closing.Close(); err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		check("closed", i, p)
	}
}

// Checks RT-15: Pending.Done turns true, without Wait, once the device has
// finished a batch (or a fault ended it), and stays true once makeRoom or
// Wait has taken it; Wait then gives the reference's bytes, or the fault.
func TestEnginePendingDone(t *testing.T) {
	gputest.Require(t)
	e := openEngine(t, Options{BatchPages: 1000, RingSlots: 2, AsyncDMA: true})
	batches := make([][][PageSize]byte, 4)
	hosts := make([]*HostPages, len(batches))
	for i := range batches {
		batches[i] = genBatch(uint64(70+i), 0, 2000)
		h, err := e.NewHostPages(2000)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		copy(h.Pages, batches[i])
		hosts[i] = h
	}
	awaitDone := func(label string, p *Pending) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !p.Done(); {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not done after 30 s", label)
			}
			time.Sleep(50 * time.Microsecond)
		}
	}
	start := func(i int) *Pending {
		t.Helper()
		p, err := e.StartHost(hosts[i], len(batches[i]))
		if err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
		return p
	}
	p0 := start(0)
	awaitDone("batch 0", p0)
	out, _, err := p0.Wait()
	if err != nil || checkBatch(t, "done-0", batches[0], out) != 0 {
		t.Fatalf("batch 0 after Done: %v", err)
	}
	if !p0.Done() {
		t.Error("Done false after Wait")
	}
	// Three batches on two event pairs: the third's start takes the first.
	p1, p2 := start(1), start(2)
	p3 := start(3)
	if !p1.Done() {
		t.Error("batch 1 not done after makeRoom took it")
	}
	for i, p := range []*Pending{p1, p2, p3} {
		awaitDone(fmt.Sprint("batch ", i+1), p)
		out, _, err := p.Wait()
		if err != nil || checkBatch(t, fmt.Sprint("done-", i+1), batches[i+1], out) != 0 {
			t.Fatalf("batch %d: %v", i+1, err)
		}
	}
	e.InjectFault(FaultInvalidLaunch)
	pf := start(0)
	awaitDone("the faulted batch", pf)
	if _, _, err := pf.Wait(); !errors.Is(err, ErrFault) {
		t.Fatalf("faulted batch: %v, want ErrFault", err)
	}
}
