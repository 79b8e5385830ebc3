package gpuimpl

import "unsafe"

// offset is the distance from the start of mem to the start of sub, which
// lies inside it.
func offset(mem, sub []byte) uint64 {
	return uint64(uintptr(unsafe.Pointer(unsafe.SliceData(sub))) - uintptr(unsafe.Pointer(unsafe.SliceData(mem))))
}

// HostPages holds a batch's pages, and the kernel's outputs for them, in
// host memory that its engine has page-locked: Engine.CompressHost copies
// the pages straight to the device and the outputs straight back, and the
// outputs it returns point into this memory, so the host copies nothing
// (RT-13). A HostPages is not safe for concurrent use.
type HostPages struct {
	// Pages are the batch's pages, for the caller to fill.
	Pages [][PageSize]byte
	slots []byte   // the packed payloads (GPU-8), at most OutSlot bytes per page
	meta  []byte   // the kernel's meta words, 4 bytes per page
	mem   []byte   // Pages, slots and meta, in one page-aligned piece
	out   []Output // CompressHost's outputs, reused by every batch
	owner *Engine
	gen   int    // the context generation mem is registered in; -1 for none
	dev   uint64 // the device address of mem[0] while registered
	//lint:ignore U1000 the cuda build's StartHost and Wait use it
	pending  *Pending       // the batch StartHost started, until Wait takes it
	decoding *DecodePending // the decode batch StartDecompressHost started, until Wait takes it
}

// pageAligned returns size bytes that start on a page boundary, and the
// allocation that holds them. The allocation also holds the rest of their
// last page: page-locking works in whole pages, and must neither lock
// another Go object's memory nor meet a page that another HostPages has
// locked already, as a small allocation's neighbour might.
func pageAligned(size int) (mem, alloc []byte) {
	whole := (size + PageSize - 1) &^ (PageSize - 1)
	alloc = make([]byte, whole+PageSize)
	off := -int(uintptr(unsafe.Pointer(&alloc[0]))) & (PageSize - 1)
	return alloc[off : off+size : off+size], alloc
}

// hostBytes is the memory a HostPages of n pages needs.
func hostBytes(n int) int { return n * (PageSize + 4 + OutSlot) }

// newHostPages lays out n pages, their output slots and meta words in one
// page-aligned piece of Go memory, which stays where it is: Go's collector
// does not move objects. The payloads start on a page boundary and the meta
// words, which the offsets kernel stores through the mapping (GPU-8), on a
// 4-byte one.
func newHostPages(n int) *HostPages {
	size := hostBytes(n)
	mem, _ := pageAligned(size)
	pages := n * PageSize
	return &HostPages{
		Pages: unsafe.Slice((*[PageSize]byte)(unsafe.Pointer(&mem[0])), n),
		slots: mem[pages : pages+OutSlot*n : pages+OutSlot*n],
		meta:  mem[pages+OutSlot*n:],
		mem:   mem,
		out:   make([]Output, n),
		gen:   -1,
	}
}
