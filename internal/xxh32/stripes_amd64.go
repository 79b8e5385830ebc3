//go:build amd64 && gc && !purego

package xxh32

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// useAVX2 says whether stripes runs stripesAVX2; tests clear it to run
// the portable loop.
var useAVX2 = cpu.X86.HasAVX2

// stripesAVX2 consumes n bytes of stripes at p, n a multiple of 32
// (stripes_amd64.s).
//
//go:noescape
func stripesAVX2(v *[4]uint32, p unsafe.Pointer, n uintptr)

func stripes(v *[4]uint32, p []byte) {
	if n := len(p) &^ 31; useAVX2 && n > 0 {
		stripesAVX2(v, unsafe.Pointer(unsafe.SliceData(p)), uintptr(n))
		p = p[n:]
	}
	stripesGo(v, p)
}
