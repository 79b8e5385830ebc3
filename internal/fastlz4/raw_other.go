//go:build !amd64 || !gc || purego

package fastlz4

func countFresh(seen *[1 << seenBits]byte, page *[PageSize]byte, gen byte) int {
	return countFreshGo(seen, page, gen)
}
