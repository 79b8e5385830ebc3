//go:build !amd64 || !gc || purego

package gpuimpl

import "unsafe"

// copyStreaming copies n bytes from src to dst (stage_amd64.go).
func copyStreaming(dst, src *byte, n int) {
	copy(unsafe.Slice(dst, n), unsafe.Slice(src, n))
}

// storeFence has nothing to order where copyStreaming stores as copy does.
func storeFence() {}
