package gpuimpl

import (
	"testing"
	"unsafe"
)

// Checks RT-13: the pages, meta words and output slots of a HostPages lie
// in one page-aligned piece, one after the other, without overlap.
func TestHostPagesLayout(t *testing.T) {
	for _, n := range []int{1, 3, 1000} {
		h := newHostPages(n)
		if len(h.Pages) != n || len(h.meta) != 4*n || len(h.slots) != OutSlot*n || len(h.mem) != hostBytes(n) {
			t.Fatalf("%d pages: %d pages, %d meta bytes, %d slot bytes, %d in all", n, len(h.Pages), len(h.meta), len(h.slots), len(h.mem))
		}
		base := uintptr(unsafe.Pointer(&h.mem[0]))
		if base%PageSize != 0 {
			t.Errorf("%d pages: memory at %#x is not page-aligned", n, base)
		}
		offset := func(p *byte) uintptr { return uintptr(unsafe.Pointer(p)) - base }
		if offset(&h.Pages[0][0]) != 0 || offset(&h.meta[0]) != uintptr(n*PageSize) ||
			offset(&h.slots[0]) != uintptr(n*(PageSize+4)) || cap(h.meta) != len(h.meta) {
			t.Errorf("%d pages: pages at %d, meta at %d (cap %d), slots at %d", n,
				offset(&h.Pages[0][0]), offset(&h.meta[0]), cap(h.meta), offset(&h.slots[0]))
		}
		if h.gen != -1 || h.owner != nil {
			t.Errorf("%d pages: registered (generation %d) before any engine locked them", n, h.gen)
		}
	}
}
