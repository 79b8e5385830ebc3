//go:build amd64 && gc && !purego

package fastlz4

import "unsafe"

// hashGroupsAsm is hashChunkGo for groups*8 positions from base (groups
// at most 8): it enters them in table, writes the entries they found to
// cand and returns the verified ones, position base+k at bit 64-8*groups+k.
//
//go:noescape
func hashGroupsAsm(table *hashTable, cand *uint32, src *byte, base, groups int) uint64

// useAsm switches hashChunk to hashChunkGo, for tests.
var useAsm = true

// hashChunk is hashChunkGo, eight positions at a time in assembly.
func hashChunk(table *hashTable, cand *[64]uint32, s unsafe.Pointer, base, cnt int) uint64 {
	if !useAsm {
		return hashChunkGo(table, &cand[0], s, base, cnt)
	}
	g := cnt >> 3
	var m uint64
	if g > 0 {
		m = hashGroupsAsm(table, &cand[0], (*byte)(s), base, g) >> (64 - 8*uint(g))
	}
	if k := g << 3; k < cnt {
		m |= hashChunkGo(table, &cand[k], s, base+k, cnt-k) << k
	}
	return m
}

// scanGroupsAsm is the first part of scan: the positions from p, four at a
// time while p+4 <= stop. It returns the first with a candidate that
// verifies, with the entry it found, or the first position not visited
// and -1.
//
//go:noescape
func scanGroupsAsm(table *hashTable, src *byte, p, stop int) (q, e int)

// scanGroups is scanGroupsAsm, or nothing when tests switch to Go.
func scanGroups(table *hashTable, s unsafe.Pointer, p, stop int) (int, int) {
	if !useAsm {
		return p, -1
	}
	return scanGroupsAsm(table, (*byte)(s), p, stop)
}
