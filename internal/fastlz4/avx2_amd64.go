//go:build amd64 && gc && !purego

package fastlz4

// useAVX2 says whether IsSameFilled, clearTable and fillPage run their
// AVX2 versions; tests clear it to run the portable ones.
var useAVX2 = hasAVX2()

// hasAVX2 reports AVX2 with the YMM state enabled by the OS.
func hasAVX2() bool

// sameFilledAVX2 is IsSameFilled with AVX2: the page compared, 128 bytes
// a step, with its first word in every lane (avx2_amd64.s).
//
//go:noescape
func sameFilledAVX2(page *[PageSize]byte) bool

// clearTableAVX2 zeroes the table with 32-byte stores, in about two
// thirds of the time clear takes (REP STOSQ).
//
//go:noescape
func clearTableAVX2(table *hashTable)

// fillPageAVX2 is fillPageGo with 32-byte stores: 4 KiB in the time clear
// takes (REP STOSQ), and in half the time of the 16-byte moves of any
// other word (avx2_amd64.s).
//
//go:noescape
func fillPageAVX2(page *[PageSize]byte, word uint64)

func sameFilled(page *[PageSize]byte) bool {
	if useAVX2 {
		return sameFilledAVX2(page)
	}
	return sameFilledGo(page)
}

func clearTable(table *hashTable) {
	if useAVX2 {
		clearTableAVX2(table)
		return
	}
	clear(table[:])
}

func fillPage(page *[PageSize]byte, word uint64) {
	if useAVX2 {
		fillPageAVX2(page, word)
		return
	}
	fillPageGo(page, word)
}
