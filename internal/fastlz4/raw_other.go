//go:build !amd64 || !gc || purego

package fastlz4

func countKeys(seen *[1 << seenBits]byte, page *[PageSize]byte, gen byte) int {
	return countKeysGo(seen, page, gen)
}
