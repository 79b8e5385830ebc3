package lz4warp

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// Checks API-23: the payloads of a staged chunk, packed back to back with
// 16-byte padding by the GPU (GPU-8) except raw pages, which are their
// input pages, come out of the staging buffer as copies that own their
// bytes, with or without an arena, whatever the mix of kinds.
func TestOwnPayloadsCopiesPackedSpans(t *testing.T) {
	c, err := NewCompressor(Config{BatchSize: 64, RingBufferSlots: 1, CPUWorkers: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		n := 1 + rng.IntN(300)
		staging := make([]byte, n*3072)
		pages := make([]Page, n)
		out := make([]CompressedPage, n)
		at, want, rawRuns := 0, 0, 0
		for i := range out {
			switch rng.IntN(4) {
			case 0: // raw: the input page
				if i == 0 || out[i-1].Kind != KindRaw {
					rawRuns++
				}
				for j := range pages[i] {
					pages[i][j] = byte(rng.Uint32())
				}
				out[i] = CompressedPage{Kind: KindRaw, Data: pages[i][:]}
			default:
				size := 1 + rng.IntN(3072)
				if rng.IntN(8) == 0 {
					size = 1
				}
				data := staging[at : at+size : at+size]
				for j := range data {
					data[j] = byte(rng.Uint32())
				}
				out[i] = CompressedPage{Kind: KindLZ4, Data: data}
				at += (size + 15) &^ 15
			}
			want += len(out[i].Data)
		}
		// The packed payloads are one span, each run of raw pages one.
		if spans, _ := packedSpans(out); len(spans) > rawRuns+1 {
			t.Fatalf("round %d: %d spans for %d runs of raw pages", round, len(spans), rawRuns)
		}
		var a *arena
		if round%2 == 1 {
			a = &arena{buf: make([]byte, n*PageSize)}
		}
		dst := make([]CompressedPage, n)
		if got := c.ownPayloads(dst, out, a); got != want {
			t.Fatalf("round %d: %d bytes stored, want %d", round, got, want)
		}
		for i := range dst {
			d := dst[i].Data
			if dst[i].Kind != out[i].Kind || !bytes.Equal(d, out[i].Data) || cap(d) != len(d) {
				t.Fatalf("round %d page %d: kind %v, %d bytes (cap %d), want kind %v and the payload's %d bytes",
					round, i, dst[i].Kind, len(d), cap(d), out[i].Kind, len(out[i].Data))
			}
			p := uintptr(unsafe.Pointer(unsafe.SliceData(d)))
			for _, src := range [][]byte{staging, unsafe.Slice(&pages[0][0], n*PageSize)} {
				lo := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
				if p >= lo && p < lo+uintptr(len(src)) {
					t.Fatalf("round %d page %d: the payload still lies in the staging memory", round, i)
				}
			}
		}
	}
}
