package lz4frame

import (
	"encoding/binary"
	"math/bits"
)

// xxHash32 (XXH32), the checksum of the LZ4 frame format: the header
// checksum, block checksums and the content checksum all use it with seed 0.
const (
	prime1 uint32 = 2654435761
	prime2 uint32 = 2246822519
	prime3 uint32 = 3266489917
	prime4 uint32 = 668265263
	prime5 uint32 = 374761393
)

// XXH32 is a streaming xxHash32 digest with seed 0. The zero value is ready
// to use.
type XXH32 struct {
	v1, v2, v3, v4 uint32
	total          uint64
	buf            [16]byte
	nbuf           int
	started        bool
}

// Reset returns the digest to its initial state.
func (d *XXH32) Reset() { *d = XXH32{} }

func (d *XXH32) init() {
	d.v1 = 606290984 // prime1 + prime2 mod 2³²
	d.v2 = prime2
	d.v3 = 0
	d.v4 = 1640531535 // -prime1 mod 2³²
	d.started = true
}

func round(acc, input uint32) uint32 {
	return bits.RotateLeft32(acc+input*prime2, 13) * prime1
}

// Write adds p to the digest; it never fails.
func (d *XXH32) Write(p []byte) (int, error) {
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
		d.stripes(d.buf[:])
		d.nbuf = 0
	}
	full := len(p) &^ 15
	if full > 0 {
		d.stripes(p[:full])
		p = p[full:]
	}
	d.nbuf = copy(d.buf[:], p)
	return n, nil
}

// stripes consumes a multiple of 16 bytes.
func (d *XXH32) stripes(p []byte) {
	v1, v2, v3, v4 := d.v1, d.v2, d.v3, d.v4
	for ; len(p) >= 16; p = p[16:] {
		v1 = round(v1, binary.LittleEndian.Uint32(p[0:]))
		v2 = round(v2, binary.LittleEndian.Uint32(p[4:]))
		v3 = round(v3, binary.LittleEndian.Uint32(p[8:]))
		v4 = round(v4, binary.LittleEndian.Uint32(p[12:]))
	}
	d.v1, d.v2, d.v3, d.v4 = v1, v2, v3, v4
}

// Sum32 returns the digest of everything written so far.
func (d *XXH32) Sum32() uint32 {
	var h uint32
	if d.total >= 16 {
		h = bits.RotateLeft32(d.v1, 1) + bits.RotateLeft32(d.v2, 7) +
			bits.RotateLeft32(d.v3, 12) + bits.RotateLeft32(d.v4, 18)
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

// Checksum32 is the xxHash32 of p with seed 0.
func Checksum32(p []byte) uint32 {
	var d XXH32
	d.Write(p)
	return d.Sum32()
}
