package gpuimpl

import (
	"sync"
	"unsafe"
)

// offset is the distance from the start of mem to the start of sub, which
// lies inside it.
func offset(mem, sub []byte) uint64 {
	return uint64(uintptr(unsafe.Pointer(unsafe.SliceData(sub))) - uintptr(unsafe.Pointer(unsafe.SliceData(mem))))
}

// HostPages holds a batch's pages, and the kernel's outputs for them, in
// host memory that is page-locked for its engines: Engine.CompressHost
// copies the pages straight to the device and the outputs straight back,
// and the outputs it returns point into this memory, so the host copies
// nothing (RT-13). A HostPages is not safe for concurrent use; its Ranges
// are HostPages of their own, which different engines may compress at the
// same time (MD-4).
type HostPages struct {
	// Pages are the batch's pages, for the caller to fill.
	Pages   [][PageSize]byte
	slots   []byte   // the packed payloads (GPU-8), at most OutSlot bytes per page
	meta    []byte   // the kernel's meta words, 4 bytes per page
	mem     []byte   // the whole page-locked piece that Pages, slots and meta lie in
	out     []Output // CompressHost's outputs, reused by every batch
	lock    *hostLock
	dev     uint64   // the device address of mem[0] in the context of the current batch's engine
	pending *Pending // the batch StartHost started, until Wait takes it
	// decoding is the decode batch StartDecompressHost started, until
	// Wait takes it (RT-17).
	decoding *DecodePending
}

// hostLock is the page-locking of a HostPages' memory, which its Ranges
// share: the engines that may use it and, per device context, the memory's
// device address there.
type hostLock struct {
	mu      sync.Mutex // guards addrs: engines on several devices look them up at once
	mem     []byte     // nil once closed
	engines []*Engine
	// pinner is the Pinner whose context locked the memory, for every
	// device at once; nil when the memory is locked in the context of its
	// one engine's device, again after every rebuild of that context.
	pinner *Pinner
	addrs  map[*deviceState]hostAddr
}

// hostAddr is the device address of a hostLock's memory in one context
// generation of a device.
type hostAddr struct {
	gen int
	dev uint64
}

// Range returns a HostPages of h's pages lo to hi-1, with their output
// slots, meta words and outputs, in h's memory and locked with it: the
// parts of one batch that several engines compress at once (MD-4). Close
// belongs to h.
func (h *HostPages) Range(lo, hi int) *HostPages {
	if h == nil {
		return nil
	}
	return &HostPages{
		Pages: h.Pages[lo:hi:hi],
		slots: h.slots[OutSlot*lo : OutSlot*hi : OutSlot*hi],
		meta:  h.meta[4*lo : 4*hi : 4*hi],
		mem:   h.mem,
		out:   h.out[lo:hi:hi],
		lock:  h.lock,
	}
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
		lock:  &hostLock{mem: mem, addrs: map[*deviceState]hostAddr{}},
	}
}
