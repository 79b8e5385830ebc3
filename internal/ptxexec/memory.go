package ptxexec

import (
	"sort"
	"unsafe"
)

// Global memory is laid out from memBase, each allocation aligned to
// allocAlign and followed by at least guardGap unmapped bytes, so that an
// access just past an allocation faults instead of reaching the next one.
const (
	memBase    = 0x7f3a_0000_0000
	allocAlign = 1 << 16
	guardGap   = 1 << 16
)

// Memory is the global memory of launches: byte slices mapped at synthetic
// 64-bit addresses. Allocate before launching; the slices stay valid.
type Memory struct {
	allocs []allocation // sorted by base
	next   uint64
}

type allocation struct {
	base uint64
	data []byte
}

// NewMemory returns an empty global memory.
func NewMemory() *Memory { return &Memory{next: memBase} }

// Alloc maps size zeroed bytes and returns their address (aligned to 64
// KiB, like a device allocation's 256 bytes and more).
func (m *Memory) Alloc(size int) uint64 {
	if size < 0 {
		panic("ptxexec: negative allocation")
	}
	base := m.next
	// Words, so that the bytes are 8-aligned in Go's memory as the address
	// is: atom.global's sync/atomic steps need aligned words.
	words := make([]uint64, (size+7)/8)
	data := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), size)
	m.allocs = append(m.allocs, allocation{base: base, data: data})
	m.next = base + (uint64(size)+allocAlign-1)&^(allocAlign-1) + guardGap
	return base
}

// Bytes returns the bytes of the allocation holding addr, from addr to the
// allocation's end, or nil if addr is not inside an allocation. The slice
// aliases the memory: writes before a launch are what the kernel reads,
// reads after it see what the kernel wrote.
func (m *Memory) Bytes(addr uint64) []byte {
	a := m.find(addr)
	if a == nil || addr-a.base >= uint64(len(a.data)) {
		return nil
	}
	return a.data[addr-a.base:]
}

// find returns the allocation whose mapped range (data and alignment
// padding, not the guard gap) may hold addr.
func (m *Memory) find(addr uint64) *allocation {
	i := sort.Search(len(m.allocs), func(i int) bool { return m.allocs[i].base > addr }) - 1
	if i < 0 {
		return nil
	}
	return &m.allocs[i]
}
