package gpuimpl

import (
	"testing"
	"unsafe"
)

// Checks RT-13, GPU-8: the pages, output slots and meta words of a
// HostPages lie in one page-aligned piece, one after the other, without
// overlap.
// pageAligned's pieces start on a page and their last page lies inside
// their allocation, whatever their size.
func TestPageAligned(t *testing.T) {
	for size := 1; size < 5*PageSize; size += 997 {
		mem, alloc := pageAligned(size)
		start := uintptr(unsafe.Pointer(&mem[0]))
		end := (start + uintptr(size) + PageSize - 1) &^ (PageSize - 1)
		lo := uintptr(unsafe.Pointer(&alloc[0]))
		if len(mem) != size || start%PageSize != 0 || start < lo || end > lo+uintptr(len(alloc)) {
			t.Fatalf("size %d: [%#x, %#x) of %d bytes, allocation [%#x, %#x)", size, start, end, len(mem), lo, lo+uintptr(len(alloc)))
		}
	}
}

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
		pages := unsafe.Slice(&h.Pages[0][0], n*PageSize)
		if offset(h.mem, pages) != 0 || offset(h.mem, h.slots) != uint64(n*PageSize) ||
			offset(h.mem, h.meta) != uint64(n*(PageSize+OutSlot)) || cap(h.slots) != len(h.slots) {
			t.Errorf("%d pages: slots at %d (cap %d), meta at %d", n,
				offset(h.mem, h.slots), cap(h.slots), offset(h.mem, h.meta))
		}
		if len(h.lock.addrs) != 0 || h.lock.engines != nil || h.dev != 0 {
			t.Errorf("%d pages: registered (%v) before any engine locked them", n, h.lock.addrs)
		}
	}
}

// Checks MD-4: a Range is the same memory as its HostPages from its first
// page on: pages, output slots, meta words and outputs, locked with it.
func TestHostPagesRange(t *testing.T) {
	h := newHostPages(10)
	r := h.Range(3, 7)
	if len(r.Pages) != 4 || &r.Pages[0] != &h.Pages[3] || len(r.slots) != 4*OutSlot || &r.slots[0] != &h.slots[3*OutSlot] ||
		len(r.meta) != 16 || &r.meta[0] != &h.meta[12] || len(r.out) != 4 || &r.out[0] != &h.out[3] {
		t.Fatalf("Range(3, 7) is not pages 3 to 6 of its HostPages")
	}
	if cap(r.Pages) != 4 || cap(r.slots) != len(r.slots) || cap(r.meta) != len(r.meta) || cap(r.out) != 4 {
		t.Error("a Range reaches past its last page")
	}
	if r.lock != h.lock || &r.mem[0] != &h.mem[0] || r.pending != nil {
		t.Error("a Range does not share its HostPages' lock and memory")
	}
	if (*HostPages)(nil).Range(0, 0) != nil {
		t.Error("the Range of no HostPages")
	}
}
