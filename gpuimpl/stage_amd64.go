//go:build amd64 && gc && !purego

package gpuimpl

// copyStreaming copies n bytes, a multiple of 16, from src to dst, which
// is 16-byte aligned, with non-temporal stores: the staging buffer's
// bytes are for the DMA engine, and stores that bypass the caches do not
// read each line of the buffer from memory before writing it.
//
//go:noescape
func copyStreaming(dst, src *byte, n int)

// storeFence orders the non-temporal stores before the stores that
// follow it (SFENCE), so that the device reads what copyStreaming wrote.
func storeFence()
