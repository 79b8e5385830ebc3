//go:build !amd64 || !gc || purego

package fastlz4

// useFast is false: without the assembly loop, DecompressBlock decodes
// every sequence in Go.
var useFast = false

// decodeFast decodes nothing: it returns its starting position.
func decodeFast(dst, src []byte, in, out int) (nin, nout int, last bool) { return in, out, false }
