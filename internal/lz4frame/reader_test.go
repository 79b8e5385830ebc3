package lz4frame

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/lz4warp/lz4warp/internal/xxh32"
	"github.com/pierrec/lz4/v4"
)

// appendSeq appends an LZ4 sequence: the literals lits, then a match of
// length ml (at least 4) at offset off, or no match when ml is 0 (the
// block's last sequence).
func appendSeq(b, lits []byte, off, ml int) []byte {
	token := byte(min(len(lits), 15)) << 4
	if ml > 0 {
		token |= byte(min(ml-4, 15))
	}
	b = appendLength(append(b, token), len(lits))
	b = append(b, lits...)
	if ml == 0 {
		return b
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(off))
	return appendLength(b, ml-4)
}

// appendLength appends the bytes that carry a length of n past the
// token's 15.
func appendLength(b []byte, n int) []byte {
	if n < 15 {
		return b
	}
	for n -= 15; n >= 255; n -= 255 {
		b = append(b, 255)
	}
	return append(b, byte(n))
}

// ruleBlock is a block of a frame as STREAM-3's rules see it.
type ruleBlock struct {
	at      int // offset of its size word in the stream
	stored  int // its stored bytes
	decoded int // what it decodes to
	raw     bool
}

// frameBuilder writes streams of frames block by block, with what the
// Writer does not write: linked blocks, blocks of exact sizes and
// hand-made LZ4 sequences. want is what the stream decodes to; blocks and
// ends record the blocks of the stream and where each ends.
type frameBuilder struct {
	stream, want []byte
	flg          byte
	start        int // where the current frame's content starts in want
	blocks       []ruleBlock
	ends         []int
}

// begin starts an LZ4 frame with FLG flg and BD bd.
func (b *frameBuilder) begin(flg, bd byte) *frameBuilder {
	b.stream = append(b.stream, descriptor(flg, bd)...)
	b.flg, b.start = flg, len(b.want)
	return b
}

// put appends a block of stored bytes, raw when they are the data itself,
// that decodes to decoded bytes.
func (b *frameBuilder) put(stored []byte, raw bool, decoded int) {
	word := uint32(len(stored))
	if raw {
		word |= uncompressedBit
	}
	b.blocks = append(b.blocks, ruleBlock{at: len(b.stream), stored: len(stored), decoded: decoded, raw: raw})
	b.stream = binary.LittleEndian.AppendUint32(b.stream, word)
	b.stream = append(b.stream, stored...)
	if b.flg&flagBlockChecksum != 0 {
		b.stream = binary.LittleEndian.AppendUint32(b.stream, xxh32.Checksum(stored))
	}
	b.ends = append(b.ends, len(b.stream))
}

// stored appends a block holding data as it is.
func (b *frameBuilder) stored(data []byte) *frameBuilder {
	b.put(data, true, len(data))
	b.want = append(b.want, data...)
	return b
}

// lz4 appends an LZ4 block: lits and a match of length ml at offset off
// (none when ml is 0), then the literals tail.
func (b *frameBuilder) lz4(lits []byte, off, ml int, tail []byte) *frameBuilder {
	n := len(b.want)
	b.want = append(b.want, lits...)
	for range ml {
		b.want = append(b.want, b.want[len(b.want)-off])
	}
	b.want = append(b.want, tail...)
	block := appendSeq(nil, append(slices.Clip(lits), tail...), 0, 0) // literals alone
	if ml > 0 {
		block = appendSeq(appendSeq(nil, lits, off, ml), tail, 0, 0)
	}
	b.put(block, false, len(b.want)-n)
	return b
}

// end ends the frame: its end mark and, when FLG asks, content checksum.
func (b *frameBuilder) end() *frameBuilder {
	b.stream = append(b.stream, 0, 0, 0, 0)
	if b.flg&flagContentCheck != 0 {
		b.stream = binary.LittleEndian.AppendUint32(b.stream, xxh32.Checksum(b.want[b.start:]))
	}
	return b
}

// raw appends bytes as they are, which decode to out.
func (b *frameBuilder) raw(p, out []byte) *frameBuilder {
	b.stream = append(b.stream, p...)
	b.want = append(b.want, out...)
	return b
}

// noise is n random bytes, which LZ4 does not compress.
func noise(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 99))
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(rng.Uint32())
	}
	return p
}

const (
	flgLinked = flagVersion | flagContentCheck                   // linked blocks, content checksum
	flgIndep  = flagVersion | flagIndependent | flagContentCheck // independent blocks, content checksum
	bd64K     = 4 << 4
	bd256K    = 5 << 4
	bd4M      = 7 << 4
)

// Checks CLI-5 and CLI-10: linked blocks match into the 64 KiB before them,
// across earlier blocks of any size, once the window has moved to the front
// of the buffer too; CLI-6: a match reaching before the frame's data is
// ErrCorrupt at its block, whatever frame came before (linked, legacy, or
// an independent frame read on one goroutine after a linked one), and so
// is a linked block cut short after the window has moved.
func TestLinkedWindow(t *testing.T) {
	tail := []byte("tail.")
	var lk frameBuilder
	lk.begin(flgLinked, bd64K).stored(noise(40000, 1)).stored(noise(40000, 2))
	lk.lz4(nil, 65535, 30000, tail) // the farthest match: into the first block
	lk.lz4([]byte("x"), 65535, 60000, tail)
	lk.stored(noise(65536, 3))
	lk.lz4(nil, 65535, 65531, tail) // a whole block of 64 KiB from the window
	lk.end()
	lk.begin(flgLinked|flagBlockChecksum, bd256K).stored(noise(200000, 4))
	lk.lz4([]byte("yz"), 65535, 100000, tail).lz4(nil, 1, 150000, tail).end()
	if got, err := decode(bytes.NewReader(lk.stream)); err != nil || !bytes.Equal(got, lk.want) {
		t.Fatalf("linked frames: %d bytes, %v; want %d bytes", len(got), err, len(lk.want))
	}

	before := appendSeq(nil, nil, 1, 4) // a match at offset 1 with no data before it
	before = appendSeq(before, tail, 0, 0)
	var legacy frameBuilder
	legacy.raw(legacyFrame(appendSeq(nil, []byte("legacy block"), 0, 0)), []byte("legacy block"))
	var indep frameBuilder
	indep.begin(flgIndep, bd64K).stored(noise(70000, 5)[:65536]).end()
	for _, c := range []struct {
		name  string
		first frameBuilder
		flg   byte
	}{
		{"after a linked frame", lk, flgLinked},
		{"after a legacy frame", legacy, flgLinked},
		{"independent, after a linked frame", lk, flgIndep},
		{"after an independent frame", indep, flgLinked},
	} {
		stream := append(bytes.Clone(c.first.stream), descriptor(c.flg, bd64K)...)
		at := len(stream)
		stream = binary.LittleEndian.AppendUint32(stream, uint32(len(before)))
		stream = append(stream, before...)
		got, err := decode(bytes.NewReader(stream))
		wantError(t, c.name, err, ErrCorrupt, int64(at))
		if !bytes.Equal(got, c.first.want) || !strings.Contains(fmt.Sprint(err), "before the start") {
			t.Errorf("%s: %d bytes, %v; want %d bytes and a match before the start", c.name, len(got), err, len(c.first.want))
		}
		// The same frame with a stored first block reads.
		var ok frameBuilder
		ok.raw(c.first.stream, c.first.want).begin(c.flg, bd64K).stored([]byte("stored")).lz4([]byte("abcdef"), 6, 600, tail).end()
		if got, err := decode(bytes.NewReader(ok.stream)); err != nil || !bytes.Equal(got, ok.want) {
			t.Errorf("%s, a stored first block: %d bytes, %v", c.name, len(got), err)
		}
	}

	// A linked block cut short inside its sequence, after the window moved.
	cut := appendSeq(nil, []byte("0123456789"), 0, 0)[:6]
	stream := bytes.Clone(lk.stream[:lk.ends[4]])
	at := len(stream)
	stream = binary.LittleEndian.AppendUint32(stream, uint32(len(cut)))
	stream = append(stream, cut...)
	got, err := decode(bytes.NewReader(stream))
	wantError(t, "a linked block cut short", err, ErrCorrupt, int64(at))
	served := 0
	for _, b := range lk.blocks[:5] {
		served += b.decoded
	}
	if !bytes.Equal(got, lk.want[:served]) {
		t.Errorf("a linked block cut short: %d bytes served, want %d", len(got), served)
	}
}

// Checks CLI-6: an LZ4 block may decode to its frame's block maximum, from
// few stored bytes (255 bytes of match length per byte), and not one byte
// more, in linked and independent frames.
func TestBlockDecodedSize(t *testing.T) {
	tail := []byte("tail.")
	for _, c := range []struct {
		name string
		flg  byte
		bd   byte
		ml   int
		ok   bool
	}{
		{"64 KiB, the maximum", flgIndep, bd64K, 65536 - 6, true},
		{"64 KiB, one byte more", flgIndep, bd64K, 65536 - 5, false},
		{"64 KiB linked, one byte more", flgLinked, bd64K, 65536 - 5, false},
		{"4 MiB, 10,000 bytes of length", flgIndep, bd4M, 19 + 255*10000 + 100, true},
		{"4 MiB linked, 10,000 bytes of length", flgLinked, bd4M, 19 + 255*10000 + 100, true},
		{"4 MiB, the maximum", flgIndep, bd4M, 4<<20 - 6, true},
	} {
		var b frameBuilder
		b.begin(c.flg, c.bd).lz4([]byte("a"), 1, c.ml, tail).end()
		got, err := decode(bytes.NewReader(b.stream))
		if c.ok {
			if err != nil || !bytes.Equal(got, b.want) {
				t.Errorf("%s: %d bytes, %v; want %d bytes", c.name, len(got), err, len(b.want))
			}
			continue
		}
		wantError(t, c.name, err, ErrCorrupt, 7)
		if !strings.Contains(fmt.Sprint(err), "more than the block maximum size") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// groupsByRule cuts a frame's blocks into STREAM-3's groups, with the
// rule's figures: a group takes blocks while each ends (its size word,
// data and block checksum) within the larger of 1 MiB and two blocks of the
// frame's largest size with theirs from the group's start, and while the
// decoded bound of those before is under 8 MiB; its first block always.
func groupsByRule(blocks []ruleBlock, blockMax int, checksums bool) [][]ruleBlock {
	limit := max(1<<20, 2*(4+blockMax+4))
	extra := 4
	if checksums {
		extra += 4
	}
	var groups [][]ruleBlock
	for first := 0; first < len(blocks); {
		last, used, bound := first, 0, 0
		for last < len(blocks) && bound < 8<<20 && (last == first || used+extra+blocks[last].stored <= limit) {
			b := blocks[last]
			used += extra + b.stored
			if b.raw {
				bound += b.stored
			} else {
				bound += min(blockMax, 255*b.stored+64)
			}
			last++
		}
		groups = append(groups, blocks[first:last])
		first = last
	}
	return groups
}

// batchesByRule is what WriteTo writes of a group, by STREAM-3: one call
// per batch, a batch taking blocks until it holds 32 KiB of stored bytes
// or 256 blocks.
func batchesByRule(group []ruleBlock) []int {
	var writes []int
	for first := 0; first < len(group); {
		last, stored, out := first, 0, 0
		for last < len(group) && last-first < 256 && stored < 32<<10 {
			stored += group[last].stored
			out += group[last].decoded
			last++
		}
		writes = append(writes, out)
		first = last
	}
	return writes
}

// writeLog records the length of every write, and takes take(len(p))
// bytes of each (all when take is nil) without an error.
type writeLog struct {
	bytes.Buffer
	writes []int
	take   func(n int) int
}

func (w *writeLog) Write(p []byte) (int, error) {
	w.writes = append(w.writes, len(p))
	if w.take != nil {
		p = p[:w.take(len(p))]
	}
	return w.Buffer.Write(p)
}

// startProcs is GOMAXPROCS before any test ran.
var startProcs = runtime.GOMAXPROCS(0)

// Checks STREAM-3: WriteTo writes each batch's output in one call, with
// batches and groups cut by the rule's figures (1 MiB chunks, 8 MiB of
// decoded bound, 32 KiB of stored bytes or 256 blocks a batch), when the
// Reader decodes on several goroutines (NewReader's default with several
// cores, or SetConcurrency above 1), and each block's output in one call
// when it decodes on one (SetConcurrency 1, or below); NewReader leaves
// GOMAXPROCS as it is. A write that takes less without an error is
// io.ErrShortWrite, with the count of what it took.
func TestWriteToCalls(t *testing.T) {
	block4K := noise(5000, 9)
	var kib, kibSums, tens, ones frameBuilder
	kib.begin(flgIndep, bd64K)
	kibSums.begin(flgIndep|flagBlockChecksum, bd64K)
	for i := range 2500 {
		kib.stored(noise(1024, uint64(i)))
		kibSums.stored(noise(1024, uint64(i)))
	}
	tens.begin(flgIndep, bd64K)
	for range 6000 { // 11 stored bytes, 10 decoded, 2869 of bound
		tens.lz4([]byte("0123456789"), 0, 0, nil)
	}
	ones.begin(flgIndep, bd64K)
	for i := range 300 {
		ones.stored([]byte{byte(i)})
	}
	// Blocks whose bytes end 2 bytes short of 1 MiB: the next size word
	// lies across the chunk's end.
	var straddle frameBuilder
	straddle.begin(flgIndep, bd64K)
	for i := range 3 * 255 {
		size := 4108
		if i%255 == 254 {
			size = 4122
		}
		straddle.stored(block4K[:size])
	}
	// Stored blocks of 4,681 bytes: seven hold 32,767 bytes, one short of a
	// batch's 32 KiB.
	var odd frameBuilder
	odd.begin(flgIndep, bd64K)
	for range 300 {
		odd.stored(block4K[:4681])
	}
	// 253 LZ4 blocks of 32,833 stored bytes in all: a decoded bound of
	// 255 × 32,833 + 253 × 64, one byte short of 8 MiB, so that the group
	// takes the next block too.
	var short frameBuilder
	short.begin(flgIndep, bd64K)
	for i := range 353 {
		lits := sample(128, uint64(i)) // 130 stored bytes
		if i == 252 {
			lits = lits[:71] // 73
		}
		short.lz4(lits, 0, 0, nil)
	}
	procs := runtime.GOMAXPROCS(0)
	if procs != startProcs {
		t.Fatalf("GOMAXPROCS is %d, was %d when the tests began: a Reader changed it", procs, startProcs)
	}
	for _, c := range []struct {
		name      string
		b         *frameBuilder
		checksums bool
	}{
		{"1 KiB stored blocks", &kib, false},
		{"1 KiB stored blocks, block checksums", &kibSums, true},
		{"11-byte LZ4 blocks", &tens, false},
		{"1-byte stored blocks", &ones, false},
		{"a decoded bound one byte short of 8 MiB", &short, false},
		{"a size word across the chunk's end", &straddle, false},
		{"batches one byte short of 32 KiB", &odd, false},
	} {
		c.b.end()
		var batches, perBlock []int
		for _, g := range groupsByRule(c.b.blocks, 64<<10, c.checksums) {
			batches = append(batches, batchesByRule(g)...)
		}
		for _, b := range c.b.blocks {
			perBlock = append(perBlock, b.decoded)
		}
		for _, workers := range []int{0, -1, 1, 2, 4} { // 0: NewReader's default
			r := NewReader(bytes.NewReader(c.b.stream))
			want := batches
			if workers != 0 {
				r.SetConcurrency(workers)
			}
			if workers == 1 || workers < 0 || workers == 0 && procs == 1 {
				want = perBlock
			}
			if runtime.GOMAXPROCS(0) != procs {
				t.Fatalf("NewReader changed GOMAXPROCS from %d to %d", procs, runtime.GOMAXPROCS(0))
			}
			w := &writeLog{}
			n, err := r.WriteTo(w)
			if err != nil || n != int64(len(c.b.want)) || !bytes.Equal(w.Bytes(), c.b.want) {
				t.Fatalf("%s, concurrency %d: %d bytes, %v; want %d", c.name, workers, n, err, len(c.b.want))
			}
			if !slices.Equal(w.writes, want) {
				t.Errorf("%s, concurrency %d: %d writes %v...; want %d: %v...", c.name, workers,
					len(w.writes), w.writes[:min(len(w.writes), 40)], len(want), want[:min(len(want), 40)])
			}
		}
	}
	for _, workers := range []int{1, 4} {
		for name, take := range map[string]func(int) int{
			"nothing":        func(int) int { return 0 },
			"all but a byte": func(n int) int { return n - 1 },
		} {
			r := NewReader(bytes.NewReader(kib.stream))
			r.SetConcurrency(workers)
			w := &writeLog{take: take}
			n, err := r.WriteTo(w)
			if !errors.Is(err, io.ErrShortWrite) || len(w.writes) != 1 || n != int64(take(w.writes[0])) || !bytes.Equal(w.Bytes(), kib.want[:n]) {
				t.Errorf("concurrency %d, a writer taking %s: %d bytes in %d writes, %v; want %v", workers, name, n, len(w.writes), err, io.ErrShortWrite)
			}
		}
	}
}

// Checks CLI-10's bound on memory over time: the read-ahead reuses its
// groups' buffers, so that reading a frame of independent blocks three
// times as long allocates about as much, far less than its groups' chunks;
// and STREAM-3's outputs: each batch decodes into a buffer of at most its
// bound, so that a group's outputs, where the blocks are all of one size,
// hold no more than the largest group's decoded bound.
func TestReadAheadReusesBuffers(t *testing.T) {
	block := noise(4096, 1)
	allocated := func(mib int) uint64 {
		var b frameBuilder
		b.begin(flgIndep, bd64K)
		for range mib << 8 {
			b.stored(block)
		}
		b.end()
		r := NewReader(bytes.NewReader(b.stream))
		r.SetConcurrency(4)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if n, err := r.WriteTo(io.Discard); err != nil || n != int64(mib<<20) {
			t.Fatalf("%d MiB: %d bytes, %v", mib, n, err)
		}
		runtime.ReadMemStats(&after)
		bound := 0 // the largest group's: stored blocks' bound is their size
		for _, g := range groupsByRule(b.blocks, 64<<10, false) {
			bound = max(bound, len(g)*len(block))
		}
		for _, g := range r.finished {
			held := 0
			for _, bt := range g.batches[:cap(g.batches)] {
				held += cap(bt.out)
			}
			if held > bound {
				t.Errorf("%d MiB: a group's outputs hold %d bytes, its bound is %d", mib, held, bound)
			}
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	short, long := allocated(16), allocated(48)
	if long > short+4<<20 {
		t.Errorf("reading 16 MiB allocated %d bytes, 48 MiB %d: the buffers are not reused", short, long)
	}
}

// Checks CLI-10's bound on the read-ahead's memory: a group's batches keep
// their output buffers from one use to the next, but drop them once they
// hold more than twice a group's decoded bound, so that groups whose
// batches change places (here, 0 to 4 batches of 256 one-byte blocks
// before the large ones) do not pile up buffers: at most twice a group's
// bound kept and this use's outputs, its bound.
func TestReadAheadOutputsBounded(t *testing.T) {
	tail := []byte{0, 0, 0, 0, 0}
	var b frameBuilder
	b.begin(flgIndep, bd64K)
	for k := range 5 {
		for range 5 { // every group of the Reader's takes each pattern
			for i := range 256 * k {
				b.stored([]byte{byte(i)})
			}
			for range 128 { // 8 MiB of zeros in blocks of about 270 bytes: the group's bound
				b.lz4([]byte{0}, 1, 64<<10-6, tail)
			}
		}
	}
	b.end()
	r := NewReader(bytes.NewReader(b.stream))
	r.SetConcurrency(4)
	p := make([]byte, 1<<20)
	const most = 3*8<<20 + 64<<10
	for {
		_, err := r.Read(p)
		for _, g := range append(slices.Clone(r.groups), r.finished...) {
			<-g.hashed // the decoders grow the buffers
			held := 0
			for _, bt := range g.batches[:cap(g.batches)] {
				held += cap(bt.out)
			}
			if held > most {
				t.Fatalf("a group's batches hold %d bytes of output, over %d", held, most)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// readLog records the length of the buffer given to each read, the bytes
// read before each, and the bytes read.
type readLog struct {
	r            io.Reader
	asked, after []int
	read         int
}

func (l *readLog) Read(p []byte) (int, error) {
	l.asked, l.after = append(l.asked, len(p)), append(l.after, l.read)
	n, err := l.r.Read(p)
	l.read += n
	return n, err
}

// Checks STREAM-3's reads of the source: on one goroutine the Reader reads
// 64 KiB at a time into its input buffer, so that a stream of N bytes of
// blocks smaller than that takes about N / 64 KiB reads; reading ahead on
// several, at most 256 KiB at a time (or a block with its size word and
// checksum, when larger), filling the chunks' buffers; at most 4 groups
// are read ahead. CLI-10's memory for legacy and linked frames: one block
// of the largest size (8 MiB, 4 MiB) and the window, with what a block of
// 64 KiB or more lacks read straight into the block's own buffer, not also
// into the input buffer, which stays far below a block's size, from
// sources that give all that is asked, half of it or a few bytes.
func TestSourceReadSizes(t *testing.T) {
	var small frameBuilder
	small.begin(flgIndep, bd64K)
	for i := range 420 { // 16 MiB in blocks of 40,000 bytes
		small.stored(noise(40000, uint64(i)))
	}
	small.end()
	l := &readLog{r: bytes.NewReader(small.stream)}
	r := NewReader(l)
	r.SetConcurrency(1)
	if n, err := io.Copy(io.Discard, r); err != nil || n != int64(len(small.want)) {
		t.Fatalf("one goroutine: %d bytes, %v", n, err)
	}
	// Each read but the last fills the buffer, less an element's few bytes
	// cut at its end (a size word).
	if most := len(small.stream)/(64<<10-4) + 2; l.asked[0] != 64<<10 || slices.Max(l.asked) != 64<<10 || len(l.asked) > most {
		t.Errorf("one goroutine: %d reads of up to %d bytes, the first %d; want reads of 64 KiB, %d at most", len(l.asked), slices.Max(l.asked), l.asked[0], most)
	}

	for _, c := range []struct {
		name     string
		stream   []byte
		blockMax int
	}{
		{"64 KiB blocks", small.stream, 64 << 10},
		{"1 MiB blocks", pierrecFrame(t, noise(12<<20, 7), lz4.BlockSizeOption(lz4.Block1Mb)), 1 << 20},
	} {
		l := &readLog{r: bytes.NewReader(c.stream)}
		r := NewReader(l)
		r.SetConcurrency(4)
		step := max(256<<10, c.blockMax+8)
		if _, err := r.Read(make([]byte, 1)); err != nil {
			t.Fatal(err)
		}
		// Four groups are on their way: their chunks hold all but the end
		// of the data that was read.
		if len(r.groups) != 4 || l.read > 4*max(1<<20, 2*(c.blockMax+8))+step {
			t.Errorf("%s: after the first read, %d groups on their way, %d bytes read", c.name, len(r.groups), l.read)
		}
		if _, err := io.Copy(io.Discard, r); err != nil {
			t.Fatal(err)
		}
		// Reads after the frame's last group (its content checksum, the
		// end of the input) take the room of the input buffer.
		most := 0
		for i, n := range l.asked {
			if l.after[i] < len(c.stream)-8 {
				most = max(most, n)
			}
		}
		if most != step {
			t.Errorf("%s: reads of up to %d bytes inside the frame, want %d", c.name, most, step)
		}
	}

	data := sample(20<<20, 71)
	var big frameBuilder
	big.begin(flgLinked, bd4M).stored(data[:3<<20]).lz4(nil, 65535, 2<<20, []byte("tail.")).stored(data[3<<20 : 7<<20]).end()
	for name, c := range map[string]struct{ stream, want []byte }{
		"legacy": {pierrecFrame(t, data, lz4.LegacyOption(true)), data},
		"linked": {big.stream, big.want},
	} {
		for _, src := range []func(io.Reader) io.Reader{
			func(r io.Reader) io.Reader { return r }, iotest.HalfReader, func(r io.Reader) io.Reader { return &chunkedReader{r: r} },
		} {
			r := NewReader(src(bytes.NewReader(c.stream)))
			var out bytes.Buffer
			if n, err := io.Copy(&out, r); err != nil || !bytes.Equal(out.Bytes(), c.want) {
				t.Fatalf("%s: %d bytes, %v; want %d", name, n, err, len(c.want))
			}
			if cap(r.block) < 1<<20 || cap(r.in) >= 1<<20 {
				t.Errorf("%s: stored blocks of %d bytes, an input buffer of %d: want the blocks read straight into their buffer", name, cap(r.block), cap(r.in))
			}
		}
	}
}

// emptyReads returns no bytes and no error 99 times before each of r's
// reads.
type emptyReads struct {
	r     io.Reader
	count int
}

func (e *emptyReads) Read(p []byte) (int, error) {
	if e.count++; e.count < 100 {
		return 0, nil
	}
	e.count = 0
	return e.r.Read(p)
}

// stuckReader gives r's bytes and then returns no bytes and no error, for
// ever: up to 10,000 times, then errStuck. stuck counts those reads.
type stuckReader struct {
	r     io.Reader
	stuck int
}

var errStuck = errors.New("read 10,000 times after the end")

func (s *stuckReader) Read(p []byte) (int, error) {
	if s.stuck == 0 {
		if n, err := s.r.Read(p); n > 0 || err != io.EOF {
			return n, err
		}
	}
	if s.stuck++; s.stuck > 10000 {
		return 0, errStuck
	}
	return 0, nil
}

// Checks STREAM-3 and STREAM-4: a stream of every kind of frame (a
// skippable frame at offset 0 and a one-byte one at the end, linked
// blocks, block checksums, legacy blocks read straight and through the
// buffer) reads the same from sources of every pattern: whole, a byte at a
// time, half of what is asked, the last bytes with io.EOF, 99 empty reads
// before each, a varying few bytes; a stray byte after it is ErrTruncated
// at its offset. A source that returns nothing and no error is stuck:
// io.ErrNoProgress after exactly 100 such reads, wherever it stops, with
// the blocks before served.
func TestSourcePatterns(t *testing.T) {
	var b frameBuilder
	b.raw(skippable(5), nil)
	b.begin(flgLinked, bd256K).stored(noise(100000, 1)).lz4([]byte("ab"), 65535, 70000, []byte("tail.")).end()
	b.raw(encode(t, sample(70000, 2), WriterOptions{BlockChecksum: true}), sample(70000, 2))
	big := sample(300000, 3)
	b.raw(legacyFrame(appendSeq(nil, big, 0, 0)), big)
	b.raw(legacyFrame(appendSeq(nil, []byte("small legacy block"), 0, 0)), []byte("small legacy block"))
	b.raw(skippable(0), nil)
	b.begin(flgIndep|flagBlockChecksum, bd64K).stored([]byte("stored")).lz4([]byte("x"), 1, 5000, []byte("tail.")).end()
	b.raw(skippable(1), nil)
	sources := map[string]func(io.Reader) io.Reader{
		"whole":              func(r io.Reader) io.Reader { return r },
		"one byte":           iotest.OneByteReader,
		"half":               iotest.HalfReader,
		"last bytes and EOF": iotest.DataErrReader,
		"99 empty reads":     func(r io.Reader) io.Reader { return &emptyReads{r: r} },
		"a few bytes":        func(r io.Reader) io.Reader { return &chunkedReader{r: r} },
	}
	for name, src := range sources {
		for _, workers := range []int{1, 4} {
			r := NewReader(src(bytes.NewReader(b.stream)))
			r.SetConcurrency(workers)
			got, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(got, b.want) || r.Offset() != int64(len(b.stream)) || r.Frames() != 5 {
				t.Errorf("%s, concurrency %d: %d bytes, %v, offset %d, %d frames; want %d bytes, offset %d, 5 frames",
					name, workers, len(got), err, r.Offset(), r.Frames(), len(b.want), len(b.stream))
			}
			r = NewReader(src(bytes.NewReader(append(bytes.Clone(b.stream), 0x04))))
			r.SetConcurrency(workers)
			got, err = io.ReadAll(r)
			wantError(t, fmt.Sprintf("%s, concurrency %d, a stray byte", name, workers), err, ErrTruncated, int64(len(b.stream)))
			if !bytes.Equal(got, b.want) {
				t.Errorf("%s, concurrency %d, a stray byte: %d bytes", name, workers, len(got))
			}
		}
	}
	// A frame after a skippable frame, with its header ending 0 to 8 bytes
	// past the end of the first 64 KiB read: its blocks start near the
	// front of the input buffer.
	frame := encode(t, sample(100000, 4), WriterOptions{})
	for k := range 9 {
		stream := append(skippable(64<<10-14+k), frame...)
		if got, err := decode(bytes.NewReader(stream)); err != nil || !bytes.Equal(got, sample(100000, 4)) {
			t.Errorf("a header ending %d bytes past the first read: %d bytes, %v", k, len(got), err)
		}
	}
	cuts := []int{0, 1, 5, 13, 20, 50000, 100100, 200000, len(b.stream) - 1, len(b.stream)}
	for _, e := range b.ends {
		cuts = append(cuts, e-2, e)
	}
	for at := 0; at < len(b.stream); at += 50021 {
		cuts = append(cuts, at)
	}
	for _, cut := range cuts {
		for _, workers := range []int{1, 4} {
			in := b.stream[:cut]
			zr := NewReader(bytes.NewReader(in))
			zr.SetConcurrency(workers)
			want, _ := io.ReadAll(zr)
			src := &stuckReader{r: bytes.NewReader(in)}
			r := NewReader(src)
			r.SetConcurrency(workers)
			got, err := io.ReadAll(r)
			if !errors.Is(err, io.ErrNoProgress) || src.stuck != 100 || !bytes.Equal(got, want) {
				t.Errorf("stuck after %d bytes, concurrency %d: %d bytes, %v after %d empty reads; want %d bytes, %v after 100",
					cut, workers, len(got), err, src.stuck, len(want), io.ErrNoProgress)
			}
			if zr.Offset() != int64(cut) || r.Offset() != int64(cut) {
				t.Errorf("cut at %d, concurrency %d: offsets %d at the end, %d stuck; want every byte consumed", cut, workers, zr.Offset(), r.Offset())
			}
		}
	}
}

// servedProbe gives r's bytes and then fails with errBlocked as a pipe
// held open would block, noting how many bytes of output had been served
// then.
type servedProbe struct {
	r        io.Reader
	served   *int
	servedAt int
	blocked  bool
}

var errBlocked = errors.New("no more input yet")

func (s *servedProbe) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err == io.EOF {
		if !s.blocked {
			s.blocked, s.servedAt = true, *s.served
		}
		return n, errBlocked
	}
	return n, err
}

// Checks CLI-10's streaming on one goroutine: every block whose bytes have
// arrived is served before the Reader asks for more input, wherever the
// input stops: in linked frames, legacy frames and frames of independent
// blocks with block checksums read with SetConcurrency(1), from a source
// giving a varying few bytes at a time.
func TestServedBeforeReadingOn(t *testing.T) {
	tail := []byte("tail.")
	var linked, indep, legacy frameBuilder
	linked.begin(flgLinked|flagBlockChecksum, bd256K).stored(noise(100000, 1)).lz4([]byte("ab"), 65535, 70000, tail)
	linked.stored(noise(3000, 2)).lz4(nil, 3000, 9000, tail).stored(noise(250000, 3)).end()
	indep.begin(flgIndep|flagBlockChecksum, bd64K)
	for i := range 40 {
		indep.stored(noise(1000*i+7, uint64(i))).lz4([]byte("ab"), 2, 1000*i, tail)
	}
	indep.end()
	for i := range 12 {
		block := appendSeq(nil, noise(9000*i+100, uint64(i)), 0, 0)
		legacy.raw(binary.LittleEndian.AppendUint32(nil, uint32(len(block))), nil)
		legacy.raw(block, nil)
		legacy.ends = append(legacy.ends, len(legacy.stream))
	}
	legacy.stream = append(binary.LittleEndian.AppendUint32(nil, LegacyMagic), legacy.stream...)
	for i := range legacy.ends {
		legacy.ends[i] += 4
	}
	for name, b := range map[string]*frameBuilder{"linked": &linked, "independent": &indep, "legacy": &legacy} {
		for _, end := range b.ends {
			for _, cut := range []int{end, end + 3} {
				in := b.stream[:min(cut, len(b.stream))]
				zr := NewReader(bytes.NewReader(in))
				zr.SetConcurrency(1)
				want, _ := io.ReadAll(zr)
				served := 0
				src := &servedProbe{r: &chunkedReader{r: bytes.NewReader(in)}, served: &served}
				r := NewReader(src)
				r.SetConcurrency(1)
				buf := make([]byte, 100000)
				var err error
				for err == nil {
					var n int
					n, err = r.Read(buf)
					served += n
				}
				if !errors.Is(err, errBlocked) || served != len(want) || src.servedAt != len(want) {
					t.Errorf("%s, cut at %d: %d bytes served before the Reader asked for more, %d in all, %v; want %d, %v",
						name, len(in), src.servedAt, served, err, len(want), errBlocked)
				}
			}
		}
	}
}

// Checks CLI-5 and CLI-6 to the byte: the offset, sentinel and detail of
// errors in frame headers and between frames, and the output before them.
func TestStreamErrors(t *testing.T) {
	data := sample(5000, 1)
	frame := encode(t, data, WriterOptions{})
	header := func(flg byte, fields ...byte) []byte {
		return append(binary.LittleEndian.AppendUint32(nil, Magic), append([]byte{flg, bd64K}, fields...)...)
	}
	dict := header(flgIndep|flagDictID, 1, 2, 3, 4)
	dict = append(dict, headerChecksum(dict[4:]))
	good := headerChecksum([]byte{flgIndep, bd64K})
	badSum := append(header(flgIndep), good^0x5a)
	legacyBlock := appendSeq(nil, []byte("legacy block"), 0, 0)
	for _, c := range []struct {
		name     string
		stream   []byte
		want     []byte
		sentinel error
		offset   int64
		detail   string
	}{
		{"no magic after a skippable frame at 0", append(append(skippable(3), "abcd"...), frame...), nil,
			ErrCorrupt, 11, "magic number 0x64636261: neither an LZ4, legacy nor skippable frame"},
		{"no magic at 0", append([]byte("abcd"), frame...), nil, ErrNotLZ4, 0, "magic number 0x64636261 is not"},
		{"no magic after a frame", append(append(bytes.Clone(frame), "abcd"...), frame...), data,
			ErrCorrupt, int64(len(frame)), "neither an LZ4"},
		{"no magic after a skippable frame after a legacy frame", append(append(legacyFrame(legacyBlock), skippable(2)...), "abcd"...),
			[]byte("legacy block"), ErrCorrupt, int64(8 + len(legacyBlock) + 10), "neither an LZ4"},
		{"content size cut short", header(flgIndep|flagContentSize, 1, 2, 3), nil,
			ErrTruncated, 6, "content size of 8 bytes cut short: the input ends at byte 9"},
		{"dictionary ID cut short", header(flgIndep|flagDictID, 1, 2), nil,
			ErrTruncated, 6, "dictionary ID of 4 bytes cut short: the input ends at byte 8"},
		{"dictionary ID after the content size, cut short", header(flgIndep|flagContentSize|flagDictID, 1, 2, 3, 4, 5, 6, 7, 8, 9), nil,
			ErrTruncated, 14, "dictionary ID of 4 bytes cut short: the input ends at byte 15"},
		{"skippable frame size cut short", append(append(bytes.Clone(frame), skippable(0)[:4]...), 7, 0), data,
			ErrTruncated, int64(len(frame) + 4), "skippable frame size of 4 bytes cut short"},
		{"dictionary", dict, nil, ErrUnsupported, 0, "the frame needs dictionary 0x04030201"},
		{"header checksum", badSum, nil, ErrChecksum, 6, fmt.Sprintf("header checksum %#02x, want %#02x", good^0x5a, good)},
	} {
		got, err := decode(bytes.NewReader(c.stream))
		wantError(t, c.name, err, c.sentinel, c.offset)
		if !bytes.Equal(got, c.want) || !strings.Contains(fmt.Sprint(err), c.detail) {
			t.Errorf("%s: %d bytes, %v; want %d bytes and %q", c.name, len(got), err, len(c.want), c.detail)
		}
	}
}
