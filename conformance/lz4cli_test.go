package conformance

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/bits"
	"os/exec"
	"testing"

	"github.com/lz4warp/lz4warp/internal/lz4cmd"
	"github.com/lz4warp/lz4warp/reference"
	"github.com/pierrec/lz4/v4"
)

// The lz4 command (liblz4) is a third decoder, and an independent encoder.
// It reads frames, not blocks, so these tests wrap blocks in a minimal
// frame: magic, descriptor (version 01, independent blocks, no checksums,
// 64 KiB blocks), header checksum, blocks, end mark.

const (
	frameMagic  = 0x184D2204
	frameFLG    = 0x60 // version 01, block independence, no checksums, no content size
	frameBD     = 0x40 // largest block: 64 KiB
	maxFrameBlk = 64 << 10
)

// xxh32 is XXH32, which the frame's header checksum uses.
func xxh32(b []byte, seed uint32) uint32 {
	const (
		p1 uint32 = 2654435761
		p2 uint32 = 2246822519
		p3 uint32 = 3266489917
		p4 uint32 = 668265263
		p5 uint32 = 374761393
	)
	round := func(acc, in uint32) uint32 { return bits.RotateLeft32(acc+in*p2, 13) * p1 }
	n := len(b)
	var h uint32
	if n >= 16 {
		v1, v2, v3, v4 := seed+p1+p2, seed+p2, seed, seed-p1
		for ; len(b) >= 16; b = b[16:] {
			v1 = round(v1, binary.LittleEndian.Uint32(b))
			v2 = round(v2, binary.LittleEndian.Uint32(b[4:]))
			v3 = round(v3, binary.LittleEndian.Uint32(b[8:]))
			v4 = round(v4, binary.LittleEndian.Uint32(b[12:]))
		}
		h = bits.RotateLeft32(v1, 1) + bits.RotateLeft32(v2, 7) + bits.RotateLeft32(v3, 12) + bits.RotateLeft32(v4, 18)
	} else {
		h = seed + p5
	}
	h += uint32(n)
	for ; len(b) >= 4; b = b[4:] {
		h = bits.RotateLeft32(h+binary.LittleEndian.Uint32(b)*p3, 17) * p4
	}
	for _, c := range b {
		h = bits.RotateLeft32(h+uint32(c)*p5, 11) * p1
	}
	h ^= h >> 15
	h *= p2
	h ^= h >> 13
	h *= p3
	h ^= h >> 16
	return h
}

func TestXXH32(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint32
	}{
		{"", 0x02cc5d05},
		{"abc", 0x32d153ff},
		{"Nobody inspects the spammish repetition", 0xe2293b2f},
	} {
		if got := xxh32([]byte(c.in), 0); got != c.want {
			t.Errorf("xxh32(%q) = %#x, want %#x", c.in, got, c.want)
		}
	}
}

// frame builds an LZ4 frame from blocks; raw[i] marks a block stored
// uncompressed.
type frame struct{ buf []byte }

func newFrame() *frame {
	f := &frame{buf: binary.LittleEndian.AppendUint32(nil, frameMagic)}
	desc := []byte{frameFLG, frameBD}
	f.buf = append(f.buf, desc...)
	f.buf = append(f.buf, byte(xxh32(desc, 0)>>8))
	return f
}

func (f *frame) block(data []byte, uncompressed bool) {
	size := uint32(len(data))
	if uncompressed {
		size |= 1 << 31
	}
	f.buf = binary.LittleEndian.AppendUint32(f.buf, size)
	f.buf = append(f.buf, data...)
}

func (f *frame) bytes() []byte { return binary.LittleEndian.AppendUint32(f.buf, 0) }

// Checks PAGE-4, PARSE-4, PARSE-6: liblz4, through the lz4 command,
// decodes the canonical blocks of pages of every shape, and of blocks up
// to 65,535 bytes with matches at offsets above 65,000.
func TestLZ4CommandDecodesCanonicalBlocks(t *testing.T) {
	lz4Path := lz4cmd.Require(t) // CLI-15: $LZ4, then the PATH, then make lz4-tool's copy
	var inputs [][]byte
	for _, s := range Corpus(12*50, 0x1234) {
		p := s.Page()
		inputs = append(inputs, p[:])
	}
	for seed := range 8 {
		inputs = append(inputs, farBlock().Example(seed))
		inputs = append(inputs, shortBlock().Example(seed))
	}
	f := newFrame()
	var want []byte
	blocks := map[string]int{}
	for _, in := range inputs {
		want = append(want, in...)
		if len(in) == pageSize {
			// A page goes in as lz4warp stores it: its LZ4 block, or
			// itself when raw; a same-filled page as its canonical block.
			var payload [reference.PageBound]byte
			var p Page
			copy(p[:], in)
			kind, n := reference.EncodePage(payload[:], &p)
			if kind == reference.KindRaw {
				f.block(in, true)
				blocks["raw"]++
				continue
			}
			if kind == reference.KindLZ4 {
				f.block(payload[:n], false)
				blocks["lz4"]++
				continue
			}
		}
		block := make([]byte, reference.CompressBlockBound(len(in)))
		n, err := reference.CompressBlock(block, in)
		if err != nil {
			t.Fatal(err)
		}
		if n > maxFrameBlk {
			f.block(in, true)
			blocks["raw"]++
			continue
		}
		f.block(block[:n], false)
		blocks["canonical"]++
	}
	data := f.bytes()

	// pierrec/lz4's frame reader checks the frame itself first.
	got, err := io.ReadAll(lz4.NewReader(bytes.NewReader(data)))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("pierrec/lz4 reads %d of %d bytes from the frame: %v", len(got), len(want), err)
	}

	cmd := exec.Command(lz4Path, "-d", "-c")
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("lz4 -d: %v: %s", err, stderr.String())
	}
	if !bytes.Equal(out, want) {
		t.Fatalf("lz4 -d gives %d bytes, want %d; first difference at %d", len(out), len(want), firstDiff(out, want))
	}
	t.Logf("lz4 -d decoded %d blocks (%v), %d bytes", len(inputs), blocks, len(want))
}

func firstDiff(a, b []byte) int {
	i := 0
	for i < min(len(a), len(b)) && a[i] == b[i] {
		i++
	}
	return i
}

// Checks PAGE-6: the reference decodes the blocks liblz4 writes (lz4 -1
// and -9, 64 KiB independent blocks) from pages of every shape.
func TestReferenceDecodesLZ4CommandBlocks(t *testing.T) {
	lz4Path := lz4cmd.Require(t)
	var src []byte
	for _, s := range Corpus(12*16, 0x4321) {
		p := s.Page()
		src = append(src, p[:]...)
	}
	for _, level := range []string{"-1", "-9"} {
		cmd := exec.Command(lz4Path, level, "-c", "-B4", "-BI", "--no-frame-crc")
		cmd.Stdin = bytes.NewReader(src)
		framed, err := cmd.Output()
		if err != nil {
			t.Fatalf("lz4 %s: %v", level, err)
		}
		got, compressed := readFrame(t, framed)
		if !bytes.Equal(got, src) {
			t.Fatalf("lz4 %s: the reference decodes %d bytes, want %d; first difference at %d", level, len(got), len(src), firstDiff(got, src))
		}
		if compressed == 0 {
			t.Fatalf("lz4 %s wrote no compressed block", level)
		}
	}
}

// readFrame decodes a frame of independent blocks with the reference and
// counts its compressed blocks.
func readFrame(t *testing.T, b []byte) (out []byte, compressed int) {
	t.Helper()
	if len(b) < 7 || binary.LittleEndian.Uint32(b) != frameMagic {
		t.Fatal("not an LZ4 frame")
	}
	flg := b[4]
	if flg&0x20 == 0 {
		t.Fatal("frame with linked blocks")
	}
	in := 7 // magic, FLG, BD, HC
	if flg&0x08 != 0 {
		in += 8 // content size
	}
	if flg&0x01 != 0 {
		in += 4 // dictionary ID
	}
	for {
		if len(b)-in < 4 {
			t.Fatal("frame truncated")
		}
		size := binary.LittleEndian.Uint32(b[in:])
		in += 4
		if size == 0 {
			return out, compressed
		}
		n := int(size &^ (1 << 31))
		data := b[in : in+n]
		in += n
		if flg&0x10 != 0 {
			in += 4 // block checksum
		}
		if size&(1<<31) != 0 {
			out = append(out, data...)
			continue
		}
		buf := make([]byte, maxFrameBlk)
		m, err := reference.DecompressBlock(buf, data)
		if err != nil {
			t.Fatalf("block %d bytes: %v", n, err)
		}
		out = append(out, buf[:m]...)
		compressed++
	}
}
