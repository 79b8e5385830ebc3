package gpuimpl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"
)

// Checks copyStreaming against copy: every length that is a multiple of
// 16 up to 300 bytes, from every alignment of the source to a 16-byte
// aligned destination, touching nothing past the length.
func TestCopyStreaming(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	src := make([]byte, 512)
	for i := range src {
		src[i] = byte(rng.Uint32())
	}
	buf := make([]byte, 512+16)
	dst := buf[(16-int(uintptr(unsafe.Pointer(&buf[0]))&15))&15:][:400]
	for skew := range 16 {
		for n := 0; n <= 300; n += 16 {
			for i := range dst {
				dst[i] = 0xee
			}
			if n > 0 {
				copyStreaming(&dst[0], &src[skew], n)
			}
			storeFence()
			if !bytes.Equal(dst[:n], src[skew:skew+n]) || bytes.Count(dst[n:], []byte{0xee}) != len(dst)-n {
				t.Fatalf("skew %d, %d bytes: copied %x", skew, n, dst[:n+16])
			}
		}
	}
}

// Checks RT-17's staging of a payload: its bytes, then zeros up to the next
// multiple of PayloadAlign, nothing past that; a room too short is a
// panic, not a write past it.
func TestStage(t *testing.T) {
	src := []byte("0123456789abcdefghijklmnopqrstuvwxyz")
	buf := make([]byte, 96+16)
	dst := buf[(16-int(uintptr(unsafe.Pointer(&buf[0]))&15))&15:][:96]
	for n := range len(src) + 1 {
		for i := range dst {
			dst[i] = 0xee
		}
		stage(dst, src[:n])
		padded := align(n)
		if !bytes.Equal(dst[:n], src[:n]) || !bytes.Equal(dst[n:padded], make([]byte, padded-n)) ||
			bytes.Count(dst[padded:], []byte{0xee}) != len(dst)-padded {
			t.Fatalf("%d bytes staged as %q", n, dst)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a room of 16 bytes took 17")
		}
	}()
	stage(dst[:16], src[:17])
}

// Checks RT-17's layout of a batch: every chunk's piece is the one
// layoutChunk and decodeLayout.fill give, at a 256-byte boundary, and
// ready sees the chunks in order, each once, with its first page, whether
// one core or several lay the batch out; an error from ready ends the
// batch and is returned, with no chunk after it.
func TestBatchLayoutFill(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 2))
	pages := make([]Output, 10000)
	for i := range pages {
		data := make([]byte, rng.IntN(200))
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		pages[i] = Output{Kind: uint8(i % 4), Data: data}
	}
	pages[7].Data = make([]byte, maxDecodePayload+1) // sent as kind 0, no bytes
	b := layoutBatch(pages, make([]uint32, len(pages)))
	if len(b.sizes) != 4 {
		t.Fatalf("chunks %v", b.sizes)
	}
	for _, procs := range []int{1, 3, runtime.GOMAXPROCS(0)} {
		t.Run(fmt.Sprint("procs ", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			staging := make([]byte, b.size)
			var got []int
			err := b.fill(staging, pages, func(k int, piece []byte, lo int) error {
				got = append(got, k)
				if lo != sumInts(b.sizes[:k]) || b.pieces[k]%256 != 0 || &piece[0] != &staging[b.pieces[k]] {
					t.Errorf("chunk %d: first page %d, piece at %d", k, lo, b.pieces[k])
				}
				part := pages[lo : lo+b.sizes[k]]
				l := layoutChunk(part, make([]uint32, len(part)))
				want := make([]byte, l.size)
				l.fill(want, part)
				if !bytes.Equal(piece, want) {
					t.Errorf("chunk %d: its piece differs from layoutChunk's", k)
				}
				if k == 0 && binary.LittleEndian.Uint32(piece[DescBytes*7+8:]) != 0 {
					t.Errorf("the long payload's kind is not 0")
				}
				return nil
			})
			if err != nil || len(got) != len(b.sizes) || got[0] != 0 || got[3] != 3 {
				t.Errorf("fill: %v, chunks %v", err, got)
			}
		})
	}
	stop := errors.New("stop")
	calls := 0
	err := b.fill(make([]byte, b.size), pages, func(k int, _ []byte, _ int) error {
		calls++
		if k == 1 {
			return stop
		}
		return nil
	})
	if err != stop || calls != 2 {
		t.Errorf("fill after an error at chunk 1: %v, %d calls", err, calls)
	}
}

func sumInts(s []int) int {
	n := 0
	for _, v := range s {
		n += v
	}
	return n
}
