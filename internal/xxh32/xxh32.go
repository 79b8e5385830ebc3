// Package xxh32 is xxHash32 with seed 0, the checksum of the LZ4 frame
// format (its header checksum, block checksums and content checksum).
//
// On amd64 with AVX2 the stripes' products by prime2 are computed four
// lanes at a time (stripes_amd64.s): the lanes' chains then take one
// multiply per word instead of two, about twice as fast. Elsewhere, the
// loop over 16-byte stripes keeps the four lanes in registers and loads
// through unsafe pointers, two stripes per iteration: the lanes' multiply
// chains then run at the core's multiplier throughput (about 2 bytes a
// cycle) where bounds-checked slicing ran at about half of it.
package xxh32

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

const (
	prime1 uint32 = 2654435761
	prime2 uint32 = 2246822519
	prime3 uint32 = 3266489917
	prime4 uint32 = 668265263
	prime5 uint32 = 374761393
)

// Digest is a streaming xxHash32 with seed 0. The zero value is ready to
// use.
type Digest struct {
	v       [4]uint32
	total   uint64
	buf     [16]byte
	nbuf    int
	started bool
}

// Reset returns the digest to its initial state.
func (d *Digest) Reset() { *d = Digest{} }

func (d *Digest) init() {
	d.v = [4]uint32{606290984, prime2, 0, 1640531535} // prime1+prime2 and -prime1, mod 2³²
	d.started = true
}

// Write adds p to the digest; it never fails.
func (d *Digest) Write(p []byte) (int, error) {
	if !d.started {
		d.init()
	}
	n := len(p)
	d.total += uint64(n)
	if d.nbuf > 0 {
		k := copy(d.buf[d.nbuf:], p)
		d.nbuf += k
		p = p[k:]
		if d.nbuf < 16 {
			return n, nil
		}
		stripes(&d.v, d.buf[:])
		d.nbuf = 0
	}
	if full := len(p) &^ 15; full > 0 {
		stripes(&d.v, p[:full])
		p = p[full:]
	}
	d.nbuf = copy(d.buf[:], p)
	return n, nil
}

func load32(p unsafe.Pointer, off uintptr) uint32 {
	return binary.LittleEndian.Uint32((*[4]byte)(unsafe.Add(p, off))[:])
}

func round(acc, input uint32) uint32 {
	return bits.RotateLeft32(acc+input*prime2, 13) * prime1
}

// stripesGo consumes len(p)/16 stripes of p.
func stripesGo(v *[4]uint32, p []byte) {
	v1, v2, v3, v4 := v[0], v[1], v[2], v[3]
	base := unsafe.Pointer(unsafe.SliceData(p))
	n := uintptr(len(p)) &^ 15
	i := uintptr(0)
	for ; i+32 <= n; i += 32 {
		s := unsafe.Add(base, i)
		v1 = round(v1, load32(s, 0))
		v2 = round(v2, load32(s, 4))
		v3 = round(v3, load32(s, 8))
		v4 = round(v4, load32(s, 12))
		v1 = round(v1, load32(s, 16))
		v2 = round(v2, load32(s, 20))
		v3 = round(v3, load32(s, 24))
		v4 = round(v4, load32(s, 28))
	}
	if i < n {
		s := unsafe.Add(base, i)
		v1 = round(v1, load32(s, 0))
		v2 = round(v2, load32(s, 4))
		v3 = round(v3, load32(s, 8))
		v4 = round(v4, load32(s, 12))
	}
	v[0], v[1], v[2], v[3] = v1, v2, v3, v4
}

// Sum32 returns the digest of everything written so far; it does not
// change the state.
func (d *Digest) Sum32() uint32 {
	var h uint32
	if d.total >= 16 {
		h = bits.RotateLeft32(d.v[0], 1) + bits.RotateLeft32(d.v[1], 7) +
			bits.RotateLeft32(d.v[2], 12) + bits.RotateLeft32(d.v[3], 18)
	} else {
		h = prime5
	}
	h += uint32(d.total)
	p := d.buf[:d.nbuf]
	for ; len(p) >= 4; p = p[4:] {
		h += binary.LittleEndian.Uint32(p) * prime3
		h = bits.RotateLeft32(h, 17) * prime4
	}
	for _, b := range p {
		h += uint32(b) * prime5
		h = bits.RotateLeft32(h, 11) * prime1
	}
	h ^= h >> 15
	h *= prime2
	h ^= h >> 13
	h *= prime3
	h ^= h >> 16
	return h
}

// Checksum is the xxHash32 of p with seed 0.
func Checksum(p []byte) uint32 {
	var d Digest
	d.Write(p)
	return d.Sum32()
}
