package fastlz4

import (
	"runtime/debug"
	"syscall"
	"testing"

	"pgregory.net/rapid"
)

// guarded maps size bytes (a whole number of pages) between two pages that
// fault on any access, and unmaps them when the test ends.
func guarded(t *testing.T, size int) []byte {
	t.Helper()
	page := syscall.Getpagesize()
	m, err := syscall.Mmap(-1, 0, size+2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { syscall.Munmap(m) })
	if err := syscall.Mprotect(m[:page], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mprotect(m[page+size:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	return m[page : page+size : page+size]
}

// Checks PAGE-6: with src and dst against pages that fault on any access,
// on either side, no block makes either decoder path read outside src or
// read or write outside dst.
func TestDecompressBlockGuardPages(t *testing.T) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	const size = 1 << 18
	srcArea, dstArea := guarded(t, size), guarded(t, size)
	rapid.Check(t, func(t *rapid.T) {
		block := blockGen().Draw(t, "block")
		dstLen := min(dstLenGen(t, block), size)
		src := srcArea[size-len(block):]
		copy(src, block)
		dst := dstArea[size-dstLen:] // writes past the end fault
		if rapid.Bool().Draw(t, "dst at the start") {
			dst = dstArea[:dstLen:dstLen] // reads before the start fault
		}
		for _, fast := range []bool{true, false} {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("fast %v: %v", fast, r)
					}
				}()
				decompressBlock(dst, src, fast)
			}()
		}
	})
}
