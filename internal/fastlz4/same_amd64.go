//go:build amd64 && gc && !purego

package fastlz4

// useSameAVX2 says whether IsSameFilled runs sameFilledAVX2; tests clear
// it to run the portable comparison.
var useSameAVX2 = hasAVX2()

// hasAVX2 reports AVX2 with the YMM state enabled by the OS.
func hasAVX2() bool

// sameFilledAVX2 is IsSameFilled with AVX2: the page compared, 128 bytes
// a step, with its first word in every lane (same_amd64.s).
//
//go:noescape
func sameFilledAVX2(page *[PageSize]byte) bool

func sameFilled(page *[PageSize]byte) bool {
	if useSameAVX2 {
		return sameFilledAVX2(page)
	}
	return sameFilledGo(page)
}
