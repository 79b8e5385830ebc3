package lz4frame

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/lz4warp/lz4warp/internal/golden"

	"github.com/lz4warp/lz4warp/internal/lz4cmd"
	"github.com/lz4warp/lz4warp/reference"
	"github.com/pierrec/lz4/v4"
)

// sample is deterministic data of n bytes mixing words, zero runs and
// random bytes, so that frames hold LZ4 and stored blocks.
func sample(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b9))
	words := strings.Fields("page frame block lz4 warp kernel batch zero the of and memory compress")
	var b bytes.Buffer
	for b.Len() < n {
		switch rng.IntN(8) {
		case 0:
			b.Write(make([]byte, rng.IntN(6000)))
		case 1:
			r := make([]byte, rng.IntN(5000))
			for i := range r {
				r[i] = byte(rng.Uint32())
			}
			b.Write(r)
		default:
			for i := rng.IntN(400); i > 0; i-- {
				b.WriteString(words[rng.IntN(len(words))])
				b.WriteByte(' ')
			}
		}
	}
	return b.Bytes()[:n]
}

// encode writes data as lz4warp does: one frame, 4 KiB per block, each the
// canonical LZ4 block, stored when compression does not pay.
func encode(t testing.TB, data []byte, opts WriterOptions) []byte {
	var buf bytes.Buffer
	w := NewWriter(&buf, opts)
	block := make([]byte, reference.CompressBlockBound(4096))
	for off := 0; off < len(data); off += 4096 {
		chunk := data[off:min(off+4096, len(data))]
		n, err := reference.CompressBlock(block, chunk)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteBlock(chunk, block[:n]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.Written() != int64(buf.Len()) {
		t.Fatalf("Written %d, wrote %d", w.Written(), buf.Len())
	}
	return buf.Bytes()
}

// decode reads a whole stream twice, on one goroutine and on four, and
// requires the same output and the same error (CLI-5).
func decode(r io.Reader) ([]byte, error) {
	in, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var outs [2]bytes.Buffer
	var errs [2]error
	for i, workers := range []int{1, 4} {
		zr := NewReader(bytes.NewReader(in))
		zr.SetConcurrency(workers)
		_, errs[i] = outs[i].ReadFrom(zr)
	}
	if !bytes.Equal(outs[0].Bytes(), outs[1].Bytes()) || fmt.Sprint(errs[0]) != fmt.Sprint(errs[1]) {
		panic(fmt.Sprintf("sequential and concurrent readers differ: %d bytes, %v; %d bytes, %v",
			outs[0].Len(), errs[0], outs[1].Len(), errs[1]))
	}
	return outs[1].Bytes(), errs[1]
}

// Checks CLI-3: the header of the frames lz4warp writes.
func TestWriterHeader(t *testing.T) {
	got := encode(t, nil, WriterOptions{})
	// magic, FLG 0x64 (version 1, independent blocks, content checksum),
	// BD 0x40 (64 KiB), HC, end mark, XXH32 of nothing: the lz4 command
	// writes the same bytes for an empty input.
	want := []byte{0x04, 0x22, 0x4d, 0x18, 0x64, 0x40, 0xa7, 0, 0, 0, 0, 0x05, 0x5d, 0xcc, 0x02}
	if !bytes.Equal(got, want) {
		t.Fatalf("empty frame % x, want % x", got, want)
	}
}

// Checks CLI-3: one block per 4 KiB, stored blocks for what does not compress.
func TestWriterBlocks(t *testing.T) {
	data := sample(50000, 1)
	frame := encode(t, data, WriterOptions{})
	pos, blocks, stored := 7, 0, 0
	for {
		word := binary.LittleEndian.Uint32(frame[pos:])
		pos += 4
		if word == 0 {
			break
		}
		size := int(word &^ uncompressedBit)
		if word&uncompressedBit != 0 {
			stored++
			if size != min(4096, len(data)-blocks*4096) {
				t.Fatalf("stored block %d holds %d bytes", blocks, size)
			}
		}
		pos += size
		blocks++
	}
	if want := (len(data) + 4095) / 4096; blocks != want {
		t.Fatalf("%d blocks, want %d", blocks, want)
	}
	if stored == 0 || stored == blocks {
		t.Fatalf("%d of %d blocks stored: the sample should mix both", stored, blocks)
	}
	if pos+4 != len(frame) {
		t.Fatalf("frame of %d bytes ends at %d", len(frame), pos+4)
	}
}

func TestRoundTripOwn(t *testing.T) {
	for _, n := range []int{0, 1, 11, 4095, 4096, 4097, 12288, 100001} {
		for _, bc := range []bool{false, true} {
			data := sample(n, uint64(n))
			got, err := decode(bytes.NewReader(encode(t, data, WriterOptions{BlockChecksum: bc})))
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("%d bytes, block checksums %v: err %v, equal %v", n, bc, err, bytes.Equal(got, data))
			}
		}
	}
}

// Checks CLI-3: pierrec/lz4's frame Reader reads what the Writer writes.
func TestWriterToPierrec(t *testing.T) {
	for _, n := range []int{0, 5000, 100001} {
		data := sample(n, 7)
		for _, bc := range []bool{false, true} {
			got, err := io.ReadAll(lz4.NewReader(bytes.NewReader(encode(t, data, WriterOptions{BlockChecksum: bc}))))
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("%d bytes: pierrec read err %v, equal %v", n, err, bytes.Equal(got, data))
			}
		}
	}
}

// Checks CLI-5: the Reader reads pierrec/lz4's frames of every block size
// and option.
// pierrecFrame is data as pierrec/lz4's frame Writer writes it with opts.
func pierrecFrame(t *testing.T, data []byte, opts ...lz4.Option) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := lz4.NewWriter(&buf)
	if err := zw.Apply(opts...); err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestPierrecToReader(t *testing.T) {
	data := sample(300000, 9)
	cases := map[string][]lz4.Option{
		"64K":        {lz4.BlockSizeOption(lz4.Block64Kb)},
		"256K+bcsum": {lz4.BlockSizeOption(lz4.Block256Kb), lz4.BlockChecksumOption(true)},
		"1M+size":    {lz4.BlockSizeOption(lz4.Block1Mb), lz4.SizeOption(uint64(len(data)))},
		"4M+csum":    {lz4.BlockSizeOption(lz4.Block4Mb), lz4.ChecksumOption(true)},
		"legacy":     {lz4.LegacyOption(true)},
		"level9":     {lz4.CompressionLevelOption(lz4.Level9)},
	}
	for name, opts := range cases {
		got, err := decode(bytes.NewReader(pierrecFrame(t, data, opts...)))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: err %v, equal %v", name, err, bytes.Equal(got, data))
		}
	}
}

// lz4Variants are lz4 command lines whose frames the Reader must read:
// linked blocks, every block size, block checksums, content size, legacy.
var lz4Variants = map[string][]string{
	"linked64K":   {"-BD", "-B4"},
	"linked256K":  {"-BD", "-B5", "--content-size"},
	"indep1M":     {"-B6", "-BX"},
	"indep4M":     {"-B7"},
	"legacy":      {"-l"},
	"level9":      {"-9", "-BD", "-B4"},
	"fast":        {"--fast=3"},
	"nochecksums": {"--no-frame-crc", "-B4"},
}

// Checks CLI-5: frames written by the lz4 command, and CLI-3: the command
// reads the Writer's frames.
func TestLZ4Command(t *testing.T) {
	data := sample(600000, 11)
	for _, args := range lz4Variants {
		frame := lz4cmd.Run(t, data, append([]string{"-c", "-q"}, args...)...)
		got, err := decode(bytes.NewReader(frame))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("lz4 %v: err %v, equal %v", args, err, bytes.Equal(got, data))
		}
	}
	for _, n := range []int{0, 1, 4096, 600000} {
		out := lz4cmd.Run(t, encode(t, data[:n], WriterOptions{BlockChecksum: n == 4096}), "-d", "-c", "-q")
		if !bytes.Equal(out, data[:n]) {
			t.Errorf("lz4 -d of a %d-byte frame: %d bytes, differ", n, len(out))
		}
	}
}

// Golden frames written by the lz4 command (go test -update rewrites them),
// so that the Reader is checked against them even without the command.
func TestGoldenLZ4Frames(t *testing.T) {
	data := sample(70000, 13)
	for name, args := range lz4Variants {
		path := filepath.Join("testdata", name+".lz4")
		if golden.Updating() {
			frame := lz4cmd.Run(t, data, append([]string{"-c", "-q"}, args...)...)
			if err := os.WriteFile(path, frame, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		frame, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decode(bytes.NewReader(frame))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: err %v, equal %v", path, err, bytes.Equal(got, data))
		}
	}
}

func skippable(n int) []byte {
	f := binary.LittleEndian.AppendUint32(nil, SkippableMagic+5)
	f = binary.LittleEndian.AppendUint32(f, uint32(n))
	return append(f, make([]byte, n)...)
}

// Checks CLI-5: concatenated frames of every kind read as one stream.
func TestConcatenated(t *testing.T) {
	a, b := sample(9000, 21), sample(20000, 22)
	legacy := goldenFrame(t, "legacy")
	var stream []byte
	stream = append(stream, skippable(10)...)
	stream = append(stream, encode(t, a, WriterOptions{})...)
	stream = append(stream, skippable(0)...)
	stream = append(stream, legacy...)
	stream = append(stream, encode(t, b, WriterOptions{})...)
	stream = append(stream, legacy...)
	want := append(append(append(append([]byte{}, a...), sample(70000, 13)...), b...), sample(70000, 13)...)
	r := NewReader(bytes.NewReader(stream))
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("err %v, %d bytes, want %d", err, len(got), len(want))
	}
	if r.Frames() != 4 || r.Offset() != int64(len(stream)) {
		t.Fatalf("%d frames, offset %d; want 4 frames, offset %d", r.Frames(), r.Offset(), len(stream))
	}
}

func goldenFrame(t *testing.T, name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", name+".lz4"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Checks CLI-5: an empty stream has no frame and reads as empty.
func TestEmptyStream(t *testing.T) {
	got, err := decode(bytes.NewReader(nil))
	if err != nil || len(got) != 0 {
		t.Fatalf("empty stream: %d bytes, err %v", len(got), err)
	}
}

// Checks CLI-6: every truncation is an ErrTruncated with the offset of the
// element it cuts, never a panic and never a silent success.
func TestTruncated(t *testing.T) {
	data := sample(9000, 5)
	frame := encode(t, data, WriterOptions{BlockChecksum: true})
	for n := 1; n < len(frame); n++ {
		_, err := decode(bytes.NewReader(frame[:n]))
		var fe *Error
		if !errors.As(err, &fe) || !errors.Is(err, ErrTruncated) {
			t.Fatalf("cut at %d: %v, want an *Error wrapping ErrTruncated", n, err)
		}
		if fe.Offset < 0 || fe.Offset > int64(n) {
			t.Fatalf("cut at %d: offset %d outside the input", n, fe.Offset)
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("byte offset %d", fe.Offset)) {
			t.Fatalf("message %q does not give the offset", err)
		}
	}
}

// Checks CLI-6: a flipped bit anywhere in a frame with checksums is an
// error (the checksums catch what the format does not), never a panic, or
// leaves the decoded data unchanged (a match offset pointing at equal bytes).
func TestCorrupted(t *testing.T) {
	data := sample(6000, 6)
	frame := encode(t, data, WriterOptions{})
	for i := range frame {
		for _, bit := range []byte{1, 0x80} {
			bad := bytes.Clone(frame)
			bad[i] ^= bit
			got, err := decode(bytes.NewReader(bad))
			if err == nil {
				if !bytes.Equal(got, data) {
					t.Fatalf("flipping %#x at byte %d changed the output unnoticed", bit, i)
				}
				continue
			}
			var fe *Error
			if !errors.As(err, &fe) {
				t.Fatalf("flip at %d: %v is not an *Error", i, err)
			}
		}
	}
}

// Checks CLI-6: errors point at the element at fault.
func TestErrorOffsets(t *testing.T) {
	data := sample(9000, 8)
	frame := encode(t, data, WriterOptions{})
	// The second block's size word starts after the header and block one.
	first := int(binary.LittleEndian.Uint32(frame[7:]) &^ uncompressedBit)
	second := int64(7 + 4 + first)
	cases := []struct {
		name     string
		mutate   func([]byte) []byte
		sentinel error
		offset   int64
	}{
		{"magic", func(b []byte) []byte { b[0] = 'x'; return b }, ErrNotLZ4, 0},
		{"version", func(b []byte) []byte { b[4] = 0x24; return b }, ErrUnsupported, 4},
		{"header checksum", func(b []byte) []byte { b[6]++; return b }, ErrChecksum, 6},
		{"block size", func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[second:], 70000)
			return b
		}, ErrCorrupt, second},
		{"content checksum", func(b []byte) []byte { b[len(b)-1]++; return b }, ErrChecksum, int64(len(frame) - 4)},
		{"cut block", func(b []byte) []byte { return b[:second+10] }, ErrTruncated, second},
	}
	for _, c := range cases {
		_, err := decode(bytes.NewReader(c.mutate(bytes.Clone(frame))))
		var fe *Error
		if !errors.As(err, &fe) || !errors.Is(err, c.sentinel) || fe.Offset != c.offset {
			t.Errorf("%s: %v, want %v at offset %d", c.name, err, c.sentinel, c.offset)
		}
	}
}

func TestDictionaryUnsupported(t *testing.T) {
	desc := []byte{0x60 | flagDictID, 0x40, 1, 2, 3, 4}
	frame := binary.LittleEndian.AppendUint32(nil, Magic)
	frame = append(frame, desc...)
	frame = append(frame, headerChecksum(desc))
	if _, err := decode(bytes.NewReader(frame)); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("dictionary frame: %v, want ErrUnsupported", err)
	}
}

// Checks CLI-6: a linked block whose match reaches before the window is
// corrupt, and so is one in an independent block reaching into the
// previous block.
func TestMatchBeforeData(t *testing.T) {
	desc := []byte{0x64, 0x40}
	frame := binary.LittleEndian.AppendUint32(nil, Magic)
	frame = append(frame, desc...)
	frame = append(frame, headerChecksum(desc))
	frame = binary.LittleEndian.AppendUint32(frame, 8|uncompressedBit)
	frame = append(frame, "abcdefgh"...)
	block := []byte{0x10, 'x', 4, 0, 0x00} // one literal, then a match at offset 4
	frame = binary.LittleEndian.AppendUint32(frame, uint32(len(block)))
	frame = append(frame, block...)
	_, err := decode(bytes.NewReader(frame))
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "before the start") || !strings.Contains(err.Error(), "offset 19:") {
		t.Fatalf("independent block reaching back: %v", err)
	}
}

func TestWriterErrors(t *testing.T) {
	w := NewWriter(io.Discard, WriterOptions{})
	if err := w.WriteBlock(make([]byte, MaxBlockSize64K+1), nil); !errors.Is(err, ErrBlockSize) {
		t.Fatalf("oversized block: %v", err)
	}
	w.Close()
	if err := w.WriteBlock([]byte("x"), nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

// FuzzReader: any input gives an error or output, never a panic; a frame
// the Writer wrote always reads back.
func FuzzReader(f *testing.F) {
	for name := range lz4Variants {
		if b, err := os.ReadFile(filepath.Join("testdata", name+".lz4")); err == nil {
			f.Add(b[:min(len(b), 3000)])
		}
	}
	f.Add(encode(f, sample(9000, 3), WriterOptions{BlockChecksum: true}))
	f.Add(skippable(3))
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := decode(bytes.NewReader(in))
		if err != nil {
			var fe *Error
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > int64(len(in)) {
				t.Fatalf("error %v is not an *Error with an offset inside the input", err)
			}
			return
		}
		if len(out) > 1<<20 {
			return // re-encoding with the reference codec would be slow
		}
		again, err := decode(bytes.NewReader(encode(t, out, WriterOptions{})))
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("re-encoding the %d decoded bytes: err %v", len(out), err)
		}
	})
}

// Checks CLI-10's bound on memory across frames of different block sizes:
// the read-ahead's buffers, those kept for reuse included, stay within
// maxGroups groups' limits even after frames of larger blocks left their
// buffers behind.
func TestReadAheadMemoryAcrossFrames(t *testing.T) {
	data := sample(9<<20, 31)
	var stream []byte
	for _, size := range []lz4.BlockSize{lz4.Block4Mb, lz4.Block1Mb, lz4.Block256Kb, lz4.Block64Kb} {
		stream = append(stream, pierrecFrame(t, data, lz4.BlockSizeOption(size))...)
	}
	r := NewReader(bytes.NewReader(stream))
	r.SetConcurrency(8)
	held := func() int {
		n := cap(r.in)
		for _, g := range append(append([]*group{}, r.finished...), r.groups...) {
			<-g.hashed // the decoding goroutines grow the buffers
			n += cap(g.chunk)
			for _, b := range g.batches[:cap(g.batches)] {
				n += cap(b.out)
			}
		}
		return n
	}
	most, total := 0, 0
	p := make([]byte, 1<<20)
	for {
		n, err := r.Read(p)
		total += n
		most = max(most, held())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if total != 4*len(data) {
		t.Fatalf("%d bytes read, want %d", total, 4*len(data))
	}
	// The input buffer and each group's chunk hold at most chunkLimit
	// bytes; a group's outputs at most its decoded bound, which may pass
	// maxGroupDecoded by one block, and as much again kept from its last use.
	limit := (maxGroups+1)*chunkLimit(4<<20) + maxGroups*2*(maxGroupDecoded+4<<20)
	if most > limit {
		t.Errorf("blocks held %d bytes at most, over the limit of %d", most, limit)
	}
}

// Checks STREAM-3's read-ahead limits with the rule's figures rather than
// the constants under test: at most 4 groups on their way, each one chunk
// of at most 1 MiB or two blocks of the frame's largest size (each with
// its size word and block checksum), and up to 8 MiB of decoded bound,
// which only a group's last block may pass; and that the limits are
// reached: each group takes the blocks groupsByRule gives it, and 4 groups
// are on their way. Zero pages in 64 KiB blocks put thousands of blocks in
// a chunk, so that the decoded bound ends each group; mixed data in 1 MiB
// blocks fills chunks to their limit, and 1 MiB blocks of uneven stored
// sizes meet a block that would pass it; noise in 4 MiB blocks with block
// checksums puts exactly two blocks in each.
func TestReadAheadLimits(t *testing.T) {
	noise := make([]byte, 24<<20)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	// Blocks that store about 600 KB, 500 KB and 1 MiB: the chunk's buffer
	// grows to the first, doubles to 1.2 MB, and the third block's size
	// word lies inside it while the block would end past the 2 MiB limit.
	straddling := bytes.Clone(noise[:4<<20])
	clear(straddling[600000 : 1<<20])
	clear(straddling[1<<20+500000 : 2<<20])
	for _, c := range []struct {
		name     string
		stream   []byte
		blockMax int
	}{
		{"zero pages in 64 KiB blocks", pierrecFrame(t, make([]byte, 64<<20), lz4.BlockSizeOption(lz4.Block64Kb)), 64 << 10},
		{"mixed data in 1 MiB blocks", pierrecFrame(t, sample(16<<20, 5), lz4.BlockSizeOption(lz4.Block1Mb)), 1 << 20},
		{"noise in 4 MiB blocks", pierrecFrame(t, noise, lz4.BlockSizeOption(lz4.Block4Mb), lz4.BlockChecksumOption(true)), 4 << 20},
		{"1 MiB blocks of 600 KB, 500 KB, 1 MiB", pierrecFrame(t, straddling, lz4.BlockSizeOption(lz4.Block1Mb)), 1 << 20},
		// The input the first frame's last group read past its end fills a
		// buffer larger than the second frame's chunks may be.
		{"64 KiB blocks after 4 MiB blocks", append(pierrecFrame(t, noise[:6<<20], lz4.BlockSizeOption(lz4.Block4Mb)),
			pierrecFrame(t, noise[:8<<20], lz4.BlockSizeOption(lz4.Block64Kb))...), 4 << 20},
	} {
		chunkMax := max(1<<20, 2*(4+c.blockMax+4))
		want := streamGroups(c.stream)
		got, most := map[int]int{}, 0
		r := NewReader(bytes.NewReader(c.stream))
		r.SetConcurrency(4)
		p := make([]byte, 1<<20)
		for {
			_, err := r.Read(p)
			if len(r.groups) > 4 {
				t.Fatalf("%s: %d groups on their way", c.name, len(r.groups))
			}
			ways := 0 // groups with blocks: one may hold only the end mark
			for _, g := range r.groups {
				if len(g.blocks) > 0 {
					got[int(g.blocks[0].at)] = len(g.blocks)
					ways++
				}
				most = max(most, ways)
				if len(g.chunk) > chunkMax {
					t.Fatalf("%s: a chunk of %d bytes, over %d", c.name, len(g.chunk), chunkMax)
				}
				bound := 0
				for i, b := range g.blocks {
					if bound >= 8<<20 {
						t.Fatalf("%s: %d of a group's %d blocks come after 8 MiB of decoded bound", c.name, len(g.blocks)-i, len(g.blocks))
					}
					bound += decodedRoom(b.end-b.start, b.raw, c.blockMax)
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		if most != min(4, len(want)) || !maps.Equal(got, want) {
			t.Errorf("%s: at most %d groups on their way, %d groups; want %d, %d groups", c.name, most, len(got), min(4, len(want)), len(want))
			for at, n := range want {
				if got[at] != n {
					t.Errorf("%s: the group at byte %d has %d blocks, want %d", c.name, at, got[at], n)
					break
				}
			}
		}
	}
}

// streamGroups gives the groups groupsByRule makes of each frame of a
// stream of LZ4 frames: each group's first block's offset, and its blocks.
func streamGroups(stream []byte) map[int]int {
	groups := map[int]int{}
	for p := 0; p < len(stream); {
		flg, bd := stream[p+4], stream[p+5]
		p += 7
		if flg&flagContentSize != 0 {
			p += 8
		}
		checksums := flg&flagBlockChecksum != 0
		var blocks []ruleBlock
		for {
			word := binary.LittleEndian.Uint32(stream[p:])
			p += 4
			if word == 0 {
				break
			}
			size := int(word &^ uncompressedBit)
			blocks = append(blocks, ruleBlock{at: p - 4, stored: size, raw: word&uncompressedBit != 0})
			p += size
			if checksums {
				p += 4
			}
		}
		if flg&flagContentCheck != 0 {
			p += 4
		}
		for _, g := range groupsByRule(blocks, blockMaxSize(bd>>4&7), checksums) {
			groups[g[0].at] = len(g)
		}
	}
	return groups
}

// Checks CLI-10's streaming: the Reader serves the data of the frames that
// have arrived, and the error at their end, without waiting for more
// input, so that a decompressor on a pipe keeps up with a writer that
// waits for its output. The source gives two whole frames, of 4 MiB and
// of 64 KiB blocks, in reads as large as asked and one byte at a time
// (each element then arrives exactly as it is asked for), and then blocks,
// as a pipe held open does; a copy whose content checksum is wrong ends
// in ErrChecksum.
func TestReaderServesWhatArrived(t *testing.T) {
	data := sample(1<<20, 61)
	stream := append(pierrecFrame(t, data[:200000], lz4.BlockSizeOption(lz4.Block4Mb)), encode(t, data, WriterOptions{})...)
	want := append(bytes.Clone(data[:200000]), data...)
	bad := bytes.Clone(stream)
	bad[len(bad)-1] ^= 1 // the content checksum
	for _, c := range []struct {
		name    string
		stream  []byte
		wantErr error
	}{{"whole frames", stream, nil}, {"a wrong content checksum", bad, ErrChecksum}} {
		for name, src := range map[string]io.Reader{
			"whole reads":    bytes.NewReader(c.stream),
			"one byte reads": iotest.OneByteReader(bytes.NewReader(c.stream)),
		} {
			open := &heldOpen{r: src, release: make(chan struct{})}
			type result struct {
				out []byte
				err error
			}
			got := make(chan result, 1)
			go func() {
				if c.wantErr == nil { // then the Reader waits for the next frame
					out := make([]byte, len(want))
					_, err := io.ReadFull(NewReader(open), out)
					got <- result{out, err}
					return
				}
				out, err := io.ReadAll(NewReader(open))
				got <- result{out, err}
			}()
			select {
			case res := <-got:
				if !bytes.Equal(res.out, want) || !errors.Is(res.err, c.wantErr) {
					t.Errorf("%s, %s: %d bytes, %v; want %d bytes, %v", c.name, name, len(res.out), res.err, len(want), c.wantErr)
				}
			case <-time.After(20 * time.Second):
				t.Errorf("%s, %s: no result after 20 s: the Reader waits for input past the frames it has", c.name, name)
			}
			close(open.release)
		}
	}
}

// heldOpen reads r and then, instead of ending, blocks until release is
// closed.
type heldOpen struct {
	r       io.Reader
	release chan struct{}
}

func (h *heldOpen) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if err == io.EOF {
		<-h.release
	}
	return n, err
}

// Checks CLI-6: a content size of 0 is unknown, as the lz4 command reads it;
// any other that does not match is corrupt.
func TestContentSizeZero(t *testing.T) {
	data := sample(5000, 41)
	frame := pierrecFrame(t, data, lz4.SizeOption(uint64(len(data))))
	withSize := func(n uint64) []byte {
		f := bytes.Clone(frame)
		binary.LittleEndian.PutUint64(f[6:14], n)
		f[14] = headerChecksum(f[4:14])
		return f
	}
	if got, err := decode(bytes.NewReader(withSize(0))); err != nil || !bytes.Equal(got, data) {
		t.Errorf("content size 0: err %v, equal %v", err, bytes.Equal(got, data))
	}
	if _, err := decode(bytes.NewReader(withSize(uint64(len(data)) + 1))); !errors.Is(err, ErrCorrupt) {
		t.Errorf("content size one too many: %v, want ErrCorrupt", err)
	}
}

// Checks STREAM-3: a frame whose blocks change size, many small ones then
// ones of nearly 64 KiB (the reference codec's largest), read ahead in
// groups on several goroutines.
func TestBlocksLargerThanEarlierOnes(t *testing.T) {
	var want []byte
	var buf bytes.Buffer
	w := NewWriter(&buf, WriterOptions{})
	add := func(data []byte) {
		block := make([]byte, reference.CompressBlockBound(len(data)))
		n, err := reference.CompressBlock(block, data)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteBlock(data, block[:n]); err != nil {
			t.Fatal(err)
		}
		want = append(want, data...)
	}
	for i := range 3000 {
		add(sample(100, uint64(i)))
	}
	for i := range 40 {
		add(sample(MaxBlockSize64K-1, uint64(i)))
		add(make([]byte, MaxBlockSize64K-1))
	}
	w.Close()
	r := NewReader(bytes.NewReader(buf.Bytes()))
	r.SetConcurrency(4)
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("err %v, %d bytes of %d, equal %v", err, len(got), len(want), bytes.Equal(got, want))
	}
}

// chunkedReader returns at most a varying few bytes per Read, as a pipe or
// socket may.
type chunkedReader struct {
	r    io.Reader
	next int
}

func (c *chunkedReader) Read(p []byte) (int, error) {
	c.next = (c.next*7 + 3) % 40009
	return c.r.Read(p[:min(len(p), 1+c.next%40000)])
}

// Checks STREAM-3, STREAM-4: independent frames spanning many read-ahead
// groups, with block checksums, a skippable frame and a frame of 4 MiB
// blocks between them, read from sources that give few bytes at a time,
// whole and cut at points around the groups' ends, give the sequential
// reader's output and errors. The chunks' block headers are parsed in one
// pass and what follows a group's last block moves to the next chunk, so
// the cuts fall before, inside and after a chunk's end.
func TestReaderChunkBoundaries(t *testing.T) {
	data := append(sample(5<<20, 51), make([]byte, 3<<20)...) // compressible, then zero pages
	stream := encode(t, data, WriterOptions{})
	stream = append(stream, skippable(70000)...)
	stream = append(stream, encode(t, data[:1<<20], WriterOptions{BlockChecksum: true, NoContentChecksum: true})...)
	stream = append(stream, pierrecFrame(t, data[:7<<20], lz4.BlockSizeOption(lz4.Block4Mb))...)
	stream = append(stream, encode(t, data[:100000], WriterOptions{})...)
	want, err := decode(bytes.NewReader(stream))
	if err != nil || len(want) != len(data)+1<<20+7<<20+100000 {
		t.Fatalf("%d bytes, %v", len(want), err)
	}
	cuts := []int{len(stream)}
	for _, c := range []int{chunkBytes, 2 * chunkBytes, 3*chunkBytes + 5, len(stream) / 2, len(stream) - 3} {
		for _, d := range []int{-5, 0, 4} {
			cuts = append(cuts, c+d)
		}
	}
	for _, cut := range cuts {
		in := stream[:cut]
		wantOut, wantErr := decode(bytes.NewReader(in))
		for _, src := range []io.Reader{&chunkedReader{r: bytes.NewReader(in)}, iotest.HalfReader(bytes.NewReader(in))} {
			zr := NewReader(src)
			zr.SetConcurrency(3)
			got, err := io.ReadAll(zr)
			if !bytes.Equal(got, wantOut) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("cut at %d: %d bytes, %v; want %d bytes, %v", cut, len(got), err, len(wantOut), wantErr)
			}
			if err == nil && zr.Offset() != int64(cut) {
				t.Fatalf("cut at %d: offset %d", cut, zr.Offset())
			}
		}
	}
}
