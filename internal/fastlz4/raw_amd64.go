//go:build amd64 && gc && !purego

package fastlz4

// countKeysAsm is countKeysGo in assembly (raw_amd64.s).
//
//go:noescape
func countKeysAsm(seen *[1 << seenBits]byte, page *[PageSize]byte, gen byte) int

func countKeys(seen *[1 << seenBits]byte, page *[PageSize]byte, gen byte) int {
	if !useAsm {
		return countKeysGo(seen, page, gen)
	}
	return countKeysAsm(seen, page, gen)
}
