//go:build !amd64 || !gc || purego

package fastlz4

import "unsafe"

// hashChunk is hashChunkGo on CPUs without an assembly version.
func hashChunk(table *hashTable, cand *[64]uint32, s unsafe.Pointer, base, cnt int) uint64 {
	return hashChunkGo(table, &cand[0], s, base, cnt)
}

// scanGroups leaves all of scan to Go on CPUs without an assembly version.
func scanGroups(table *hashTable, s unsafe.Pointer, p, stop int) (int, int) {
	return p, -1
}
