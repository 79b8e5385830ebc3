//go:build amd64 && gc && !purego

package fastlz4

// countFreshAsm is countFreshGo in assembly (raw_amd64.s).
//
//go:noescape
func countFreshAsm(seen *[1 << seenBits]byte, page *[PageSize]byte, gen byte) int

func countFresh(seen *[1 << seenBits]byte, page *[PageSize]byte, gen byte) int {
	if !useAsm {
		return countFreshGo(seen, page, gen)
	}
	return countFreshAsm(seen, page, gen)
}
