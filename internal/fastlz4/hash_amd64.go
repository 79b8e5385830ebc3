//go:build amd64 && gc && !purego

package fastlz4

import "unsafe"

// hashGroupsAsm is hashChunkGo for groups*8 positions from base (groups
// at most 8): it enters them in table and link and returns the verified
// ones, position base+k at bit 64-8*groups+k.
//
//go:noescape
func hashGroupsAsm(table *hashTable, link *uint16, src *byte, base, groups int) uint64

// useAsm switches hashChunk to hashChunkGo, for tests.
var useAsm = true

// hashChunk is hashChunkGo, eight positions at a time in assembly.
func hashChunk(table *hashTable, link []uint16, s unsafe.Pointer, base, cnt int) uint64 {
	if !useAsm {
		return hashChunkGo(table, link, s, base, cnt)
	}
	g := cnt >> 3
	var m uint64
	if g > 0 {
		m = hashGroupsAsm(table, unsafe.SliceData(link), (*byte)(s), base, g) >> (64 - 8*uint(g))
	}
	if k := g << 3; k < cnt {
		m |= hashChunkGo(table, link, s, base+k, cnt-k) << k
	}
	return m
}

// scanGroupsAsm is the first part of scan: the positions from p, four at a
// time while p+4 <= stop. It returns the first with a candidate that
// verifies and true, or the first position not visited and false.
//
//go:noescape
func scanGroupsAsm(table *hashTable, link *uint16, src *byte, p, stop int) (q int, found bool)

// scanGroups is scanGroupsAsm, or nothing when tests switch to Go.
func scanGroups(table *hashTable, link []uint16, s unsafe.Pointer, p, stop int) (int, bool) {
	if !useAsm {
		return p, false
	}
	return scanGroupsAsm(table, unsafe.SliceData(link), (*byte)(s), p, stop)
}
