//go:build !amd64 || !gc || purego

package fastlz4

import "unsafe"

// hashChunk is hashChunkGo on CPUs without an assembly version.
func hashChunk(table *hashTable, link []uint16, s unsafe.Pointer, base, cnt int) uint64 {
	return hashChunkGo(table, link, s, base, cnt)
}

// scanGroups leaves all of scan to Go on CPUs without an assembly version.
func scanGroups(table *hashTable, link []uint16, s unsafe.Pointer, p, stop int) (int, bool) {
	return p, false
}
