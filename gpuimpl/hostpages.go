package gpuimpl

import "unsafe"

// HostPages holds a batch's pages, and the kernel's outputs for them, in
// host memory that its engine has page-locked: Engine.CompressHost copies
// the pages straight to the device and the outputs straight back, and the
// outputs it returns point into this memory, so the host copies nothing
// (RT-13). A HostPages is not safe for concurrent use.
type HostPages struct {
	// Pages are the batch's pages, for the caller to fill.
	Pages [][PageSize]byte
	meta  []byte // the kernel's meta words, 4 bytes per page
	slots []byte // the kernel's output slots, OutSlot bytes per page
	mem   []byte // Pages, meta and slots, in one page-aligned piece
	owner *Engine
	gen   int // the context generation mem is registered in; -1 for none
}

// hostBytes is the memory a HostPages of n pages needs.
func hostBytes(n int) int { return n * (PageSize + 4 + OutSlot) }

// newHostPages lays out n pages, their meta words and output slots in one
// page-aligned piece of Go memory, which stays where it is: Go's collector
// does not move objects.
func newHostPages(n int) *HostPages {
	size := hostBytes(n)
	raw := make([]byte, size+PageSize)
	off := -int(uintptr(unsafe.Pointer(&raw[0]))) & (PageSize - 1)
	mem := raw[off : off+size : off+size]
	pages := n * PageSize
	return &HostPages{
		Pages: unsafe.Slice((*[PageSize]byte)(unsafe.Pointer(&mem[0])), n),
		meta:  mem[pages : pages+4*n : pages+4*n],
		slots: mem[pages+4*n:],
		mem:   mem,
		gen:   -1,
	}
}
