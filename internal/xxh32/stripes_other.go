//go:build !amd64 || !gc || purego

package xxh32

func stripes(v *[4]uint32, p []byte) { stripesGo(v, p) }

// useAVX2 is false: there is no assembly here.
var useAVX2 = false
