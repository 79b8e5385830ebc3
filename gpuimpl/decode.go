package gpuimpl

import "encoding/binary"

// DecodeChunk is the most pages of one decode launch: a batch's chunks go
// to two streams in turn, so that one chunk's payloads cross PCIe while
// the kernel decodes the chunk before, and the host lays out the next
// (RT-17).
const DecodeChunk = 8192

// firstDecodeChunk is the size of a batch's first chunk, which the device
// waits for the host to lay out; each chunk after it is twice the one
// before, up to DecodeChunk.
const firstDecodeChunk = 1024

// decodeChunks cuts a batch of n pages into its chunks' sizes.
func decodeChunks(n int) []int {
	var sizes []int
	for size := firstDecodeChunk; n > 0; size = min(2*size, DecodeChunk) {
		sizes = append(sizes, min(size, n))
		n -= sizes[len(sizes)-1]
	}
	return sizes
}

// decodeLayout places a chunk's descriptors and payloads in one piece of
// memory, as the decode kernel reads them (GPU-11): the descriptors, then
// the payloads, each at a multiple of PayloadAlign from the payloads'
// start, which is a multiple of PayloadAlign too.
type decodeLayout struct {
	offsets []uint32 // each payload's offset from the payloads' start
	payload int      // where the payloads start
	size    int      // the whole piece
}

// layoutChunk lays out pages' payloads; offsets has room for len(pages).
func layoutChunk(pages []Output, offsets []uint32) decodeLayout {
	l := decodeLayout{offsets: offsets[:len(pages)], payload: align(DescBytes * len(pages))}
	at := 0
	for i, p := range pages {
		_, data := gpuPayload(p)
		l.offsets[i] = uint32(at)
		at = align(at + len(data))
	}
	l.size = l.payload + at
	return l
}

func align(n int) int { return (n + PayloadAlign - 1) &^ (PayloadAlign - 1) }

// fill writes the descriptors and copies the payloads into piece, which
// holds l.size bytes, from up to one goroutine per core, each its share of
// the pages' descriptors and payloads.
func (l decodeLayout) fill(piece []byte, pages []Output) {
	parallel(len(pages), 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			kind, data := gpuPayload(pages[i])
			d := piece[DescBytes*i : DescBytes*(i+1)]
			binary.LittleEndian.PutUint32(d, l.offsets[i])
			binary.LittleEndian.PutUint32(d[4:], uint32(len(data)))
			binary.LittleEndian.PutUint32(d[8:], uint32(kind))
			binary.LittleEndian.PutUint32(d[12:], 0)
			copy(piece[l.payload+int(l.offsets[i]):], data)
		}
	})
}

// maxDecodePayload is the longest payload the engine takes to the GPU:
// the most of an LZ4 payload the kernel stages, some
// bytes more than the longest block that decodes to a page (PAGE-6). A
// longer payload gets a descriptor of kind 0, whose status is
// DecodeBadPayload, and its verdict from the CPU (GPU-11).
const maxDecodePayload = DecodeWarpBytes - decodePad

// gpuPayload is what of p the GPU reads: its data, or nothing for a payload
// longer than maxDecodePayload, whose kind it reads as 0.
func gpuPayload(p Output) (kind uint8, data []byte) {
	if len(p.Data) > maxDecodePayload {
		return 0, nil
	}
	return p.Kind, p.Data
}
