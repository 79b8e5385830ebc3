package xxh32

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/pierrec/lz4/v4"
)

// Published XXH32 (seed 0) vectors; "hello" is the content checksum the lz4
// command writes for that input.
var vectors = []struct {
	in   string
	want uint32
}{
	{"", 0x02cc5d05},
	{"a", 0x550d7456},
	{"abc", 0x32d153ff},
	{"hello", 0xfb0077f9},
	{"Nobody inspects the spammish repetition", 0xe2293b2f},
}

func TestVectors(t *testing.T) { eachPath(t, vectorsMatch) }

func vectorsMatch(t *testing.T) {
	for _, v := range vectors {
		if got := Checksum([]byte(v.in)); got != v.want {
			t.Errorf("XXH32(%q) = %#08x, want %#08x", v.in, got, v.want)
		}
	}
}

func randomBytes(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, 2))
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	return data
}

// Streaming in pieces of any size gives the one-shot digest.
func TestStreaming(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := randomBytes(1, 1000)
	for n := 0; n <= len(data); n += 37 {
		want := Checksum(data[:n])
		var d Digest
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

// eachPath runs f with the assembly stripes where the machine has them,
// and with the portable loop.
func eachPath(t *testing.T, f func(t *testing.T)) {
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	for _, avx2 := range []bool{false, true} {
		if avx2 && !saved {
			continue
		}
		useAVX2 = avx2
		t.Run(fmt.Sprintf("avx2=%v", avx2), f)
	}
}

// The assembly and the portable loop agree on every length up to 300
// bytes, whole and streamed in random pieces, and on 1 MiB.
func TestPathsAgree(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 here: the portable loop only")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	sum := func(avx2 bool, data []byte, pieces bool) uint32 {
		saved := useAVX2
		defer func() { useAVX2 = saved }()
		useAVX2 = avx2
		var d Digest
		for rest := data; len(rest) > 0; {
			k := len(rest)
			if pieces {
				k = min(k, 1+rng.IntN(100))
			}
			d.Write(rest[:k])
			rest = rest[k:]
		}
		return d.Sum32()
	}
	for n := 0; n <= 300; n++ {
		data := randomBytes(uint64(n)+100, n)
		want := sum(false, data, false)
		if got := sum(true, data, false); got != want {
			t.Fatalf("%d bytes: AVX2 %#08x, portable %#08x", n, got, want)
		}
		if got := sum(true, data, true); got != want {
			t.Fatalf("%d bytes in pieces: AVX2 %#08x, portable %#08x", n, got, want)
		}
	}
	data := randomBytes(9, 1<<20)
	if got, want := sum(true, data, false), sum(false, data, false); got != want {
		t.Fatalf("1 MiB: AVX2 %#08x, portable %#08x", got, want)
	}
}

// pierrec/lz4's frame writer ends a frame with the XXH32 of its content: an
// independent implementation to agree with on lengths around every stripe
// boundary, odd and even numbers of stripes.
func TestAgainstPierrec(t *testing.T) { eachPath(t, againstPierrec) }

func againstPierrec(t *testing.T) {
	for _, n := range []int{1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 1000, 4096, 100003} {
		data := randomBytes(uint64(n), n)
		var frame bytes.Buffer
		zw := lz4.NewWriter(&frame)
		if err := zw.Apply(lz4.ChecksumOption(true)); err != nil {
			t.Fatal(err)
		}
		if _, err := zw.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		b := frame.Bytes()
		want := binary.LittleEndian.Uint32(b[len(b)-4:])
		if got := Checksum(data); got != want {
			t.Errorf("%d bytes: XXH32 %#08x, pierrec's content checksum %#08x", n, got, want)
		}
	}
}

// BenchmarkChecksum hashes a page and 1 MiB in one call, and 1 MiB in
// pieces of 4 KiB through a Digest (the frame writer's use), on the
// fastest path here; portable/1048576 is 1 MiB on the portable loop.
func BenchmarkChecksum(b *testing.B) {
	portable := randomBytes(7, 1<<20)
	b.Run("portable/1048576", func(b *testing.B) {
		saved := useAVX2
		defer func() { useAVX2 = saved }()
		useAVX2 = false
		b.SetBytes(int64(len(portable)))
		for b.Loop() {
			Checksum(portable)
		}
	})
	for _, n := range []int{4 << 10, 1 << 20} {
		data := randomBytes(7, n)
		b.Run(fmt.Sprintf("oneshot/%d", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				Checksum(data)
			}
		})
	}
	data := randomBytes(8, 1<<20)
	b.Run("pages/1048576", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var d Digest
			for p := data; len(p) > 0; p = p[4096:] {
				d.Write(p[:4096])
			}
			d.Sum32()
		}
	})
}

var _ io.Writer = (*Digest)(nil)
