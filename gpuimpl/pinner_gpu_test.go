package gpuimpl

import (
	"errors"
	"sync"
	"testing"

	"github.com/lz4warp/lz4warp/internal/gputest"
)

// Checks MD-4, RT-13, RT-9: HostPages that a Pinner locked in a context of
// its own are compressed by engines on the first and the last device (the
// same one on a machine with one GPU), whole and in Ranges at once, each
// engine with the memory's address in its own context; after a fault
// rebuilds one engine's context it looks the address up again; an engine
// not listed is refused; the Pinner's context outlives its Close until the
// last HostPages is closed.
func TestPinnerHostPages(t *testing.T) {
	gputest.Require(t)
	devs, err := Devices()
	if err != nil || len(devs) == 0 {
		t.Fatalf("Devices() = %v, %v", devs, err)
	}
	opts := Options{BatchPages: 2048, RingSlots: 2, AsyncDMA: true}
	e0 := openEngine(t, opts)
	opts.DeviceIndex = devs[len(devs)-1].Index
	e1 := openEngine(t, opts)
	pin, err := NewPinner(0)
	if err != nil {
		t.Fatal(err)
	}
	defer func(d int) { directPages = d }(directPages)
	directPages = 4096 // 7,000 pages through the copies, 3,000 and the Ranges direct
	pages := genBatch(41, 0, 7000)
	h, err := pin.NewHostPages(len(pages), []*Engine{e0, e1})
	if err != nil {
		t.Fatal(err)
	}
	copy(h.Pages, pages)
	for _, e := range []*Engine{e0, e1} {
		for _, n := range []int{len(pages), 3000} {
			out, _, err := e.CompressHost(h, n)
			if err != nil {
				t.Fatalf("device %d, %d pages: %v", e.Device().Index, n, err)
			}
			if bad := checkBatch(t, "pinned", pages[:n], out); bad != 0 {
				t.Fatalf("device %d: %d pages differ", e.Device().Index, bad)
			}
		}
		if a := h.lock.addrs[e.dev]; a.gen != e.dev.gen || a.dev == 0 {
			t.Errorf("device %d: address %#x of generation %d (device at %d)", e.Device().Index, a.dev, a.gen, e.dev.gen)
		}
	}
	halves := func() {
		parts := []*HostPages{h.Range(0, 3500), h.Range(3500, len(pages))}
		outs := make([][]Output, 2)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i, e := range []*Engine{e0, e1} {
			wg.Go(func() {
				var p *Pending
				if p, errs[i] = e.StartHost(parts[i], len(parts[i].Pages)); errs[i] == nil {
					outs[i], _, errs[i] = p.Wait()
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		if &outs[1][0] != &h.out[3500] {
			t.Error("the second Range's outputs are not the HostPages' own")
		}
		if bad := checkBatch(t, "ranges", pages, append(outs[0], outs[1]...)); bad != 0 {
			t.Fatalf("%d pages differ in Ranges", bad)
		}
	}
	halves()
	gen := e0.dev.gen
	e0.InjectFault(FaultInvalidLaunch)
	if _, _, err := e0.CompressHost(h, 3000); !errors.Is(err, ErrFault) || e0.dev.gen != gen+1 {
		t.Fatalf("injected fault: %v, generation %d → %d", err, gen, e0.dev.gen)
	}
	halves()
	if a := h.lock.addrs[e0.dev]; a.gen != e0.dev.gen {
		t.Errorf("after the rebuild: address of generation %d, device at %d", a.gen, e0.dev.gen)
	}
	other := openEngine(t, Options{BatchPages: 64, RingSlots: 1})
	if _, _, err := other.CompressHost(h, 10); !errors.Is(err, errHostPages) {
		t.Errorf("an engine not listed: %v", err)
	}
	if err := pin.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := pin.NewHostPages(10, []*Engine{e0}); err == nil {
		t.Error("NewHostPages after Close: no error")
	}
	out, _, err := e1.CompressHost(h, 1000) // h still locked: the context lives on
	if err != nil {
		t.Fatal(err)
	}
	if bad := checkBatch(t, "after-close", pages[:1000], out); bad != 0 {
		t.Fatalf("%d pages differ after the Pinner's Close", bad)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if pin.refs != 0 {
		t.Error("the Pinner's context outlived its last HostPages")
	}
}
