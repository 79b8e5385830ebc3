package lz4frame

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/pierrec/lz4/v4"
)

// Published XXH32 (seed 0) vectors; "hello" is the content checksum the lz4
// command writes for that input.
var xxh32Vectors = []struct {
	in   string
	want uint32
}{
	{"", 0x02cc5d05},
	{"a", 0x550d7456},
	{"abc", 0x32d153ff},
	{"hello", 0xfb0077f9},
	{"Nobody inspects the spammish repetition", 0xe2293b2f},
}

func TestXXH32Vectors(t *testing.T) {
	for _, v := range xxh32Vectors {
		if got := Checksum32([]byte(v.in)); got != v.want {
			t.Errorf("XXH32(%q) = %#08x, want %#08x", v.in, got, v.want)
		}
	}
}

// Streaming in pieces of any size gives the one-shot digest.
func TestXXH32Streaming(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 1000)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	for n := 0; n <= len(data); n += 37 {
		want := Checksum32(data[:n])
		var d XXH32
		for rest := data[:n]; len(rest) > 0; {
			k := min(len(rest), 1+rng.IntN(40))
			d.Write(rest[:k])
			rest = rest[k:]
		}
		if got := d.Sum32(); got != want {
			t.Fatalf("%d bytes in pieces: %#08x, one shot %#08x", n, got, want)
		}
	}
}

// pierrec/lz4's frame writer ends a frame with the XXH32 of its content: an
// independent implementation to agree with on lengths around every stripe
// boundary.
func TestXXH32AgainstPierrec(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1000, 4096, 100003} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		frame := pierrecFrame(t, data, lz4.ChecksumOption(true))
		want := binary.LittleEndian.Uint32(frame[len(frame)-4:])
		if got := Checksum32(data); got != want {
			t.Errorf("%d bytes: XXH32 %#08x, pierrec's content checksum %#08x", n, got, want)
		}
	}
}
