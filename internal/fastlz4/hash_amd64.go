//go:build amd64 && gc && !purego

package fastlz4

import "unsafe"

// hashGroupsAsm is hashChunkGo for groups*8 positions from base (groups
// at most 8): it enters them in table, writes their candidates to cand and
// returns the verified ones, position base+k at bit 64-8*groups+k.
//
//go:noescape
func hashGroupsAsm(table *[1 << hashLog]uint16, cand *uint16, src *byte, base, groups int) uint64

// useAsm switches hashChunk to hashChunkGo, for tests.
var useAsm = true

// hashChunk is hashChunkGo, eight positions at a time in assembly.
func hashChunk(table *[1 << hashLog]uint16, cand *[64]uint16, s unsafe.Pointer, base, cnt int) uint64 {
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
// time while p+4 <= stop. It returns the first whose candidate verifies,
// with that candidate, or the first position not visited and -1.
//
//go:noescape
func scanGroupsAsm(table *[1 << hashLog]uint16, src *byte, p, stop int) (q, c int)

// scanGroups is scanGroupsAsm, or nothing when tests switch to Go.
func scanGroups(table *[1 << hashLog]uint16, s unsafe.Pointer, p, stop int) (int, int) {
	if !useAsm {
		return p, -1
	}
	return scanGroupsAsm(table, (*byte)(s), p, stop)
}
