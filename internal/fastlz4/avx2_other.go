//go:build !amd64 || !gc || purego

package fastlz4

func sameFilled(page *[PageSize]byte) bool { return sameFilledGo(page) }

func clearTable(table *hashTable) { clear(table[:]) }

func fillPage(page *[PageSize]byte, word uint64) { fillPageGo(page, word) }
