package gpuimpl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lz4warp/lz4warp/reference"
)

// fakeKernel fills meta words and output slots as GPU-1 says the kernel
// does, from the reference, and scribbles over raw pages' slots, whose
// content GPU-1 leaves unspecified.
func fakeKernel(pages [][PageSize]byte) (meta, slots []byte) {
	meta = make([]byte, 4*len(pages))
	slots = make([]byte, OutSlot*len(pages))
	var buf [reference.PageBound]byte
	for i := range pages {
		kind, n := reference.EncodePage(buf[:], &pages[i])
		binary.LittleEndian.PutUint32(meta[4*i:], uint32(kind)<<MetaKindShift|uint32(n))
		if kind == reference.KindRaw {
			for j := range OutSlot {
				slots[OutSlot*i+j] = byte(j)
			}
			continue
		}
		copy(slots[OutSlot*i:], buf[:n])
	}
	return meta, slots
}

// packSlots is what GPU-8's kernels make of meta and slots: each page's
// packedLen bytes from the start of its slot, back to back in page order,
// and where each begins.
func packSlots(meta, slots []byte) (packed []byte, offsets []uint32) {
	for i := range len(meta) / 4 {
		offsets = append(offsets, uint32(len(packed)))
		kind, n := DecodeMeta(binary.LittleEndian.Uint32(meta[4*i:]))
		packed = append(packed, slots[OutSlot*i:OutSlot*i+packedLen(kind, n)]...)
	}
	return packed, offsets
}

// Checks RT-8, RT-13: kinds and lengths from the meta words, payloads from
// the slots, raw pages from the input; every payload copied out when the
// outputs own their bytes, none when they are views.
func TestAssemble(t *testing.T) {
	for _, own := range []bool{true, false} {
		t.Run(fmt.Sprintf("own=%v", own), func(t *testing.T) { testAssemble(t, own) })
	}
}

func testAssemble(t *testing.T, own bool) {
	rng := rand.New(rand.NewPCG(3, 4))
	var pages [][PageSize]byte
	for i := range 900 {
		pages = append(pages, *genPage(pageKinds[i%len(pageKinds)], rng))
	}
	meta, slots := fakeKernel(pages)
	packed, _ := packSlots(meta, slots)
	out := make([]Output, len(pages))
	if err := assemble(out, pages, meta, packed, own); err != nil {
		t.Fatal(err)
	}
	kinds := map[uint8]int{}
	var buf [reference.PageBound]byte
	for i := range pages {
		kind, n := reference.EncodePage(buf[:], &pages[i])
		if out[i].Kind != uint8(kind) || !bytes.Equal(out[i].Data, buf[:n]) {
			t.Fatalf("page %d: kind %d, %d bytes; want %v, %d bytes", i, out[i].Kind, len(out[i].Data), kind, n)
		}
		if cap(out[i].Data) != len(out[i].Data) {
			t.Fatalf("page %d: an append to its payload would overwrite the next", i)
		}
		kinds[out[i].Kind]++
	}
	if kinds[kindSame] == 0 || kinds[kindLZ4] == 0 || kinds[kindRaw] == 0 {
		t.Errorf("kinds covered: %v", kinds)
	}
	// Owned outputs keep their bytes when the staging buffers and the
	// input pages change; views show the change.
	want := make([]Output, len(out))
	for i, o := range out {
		want[i] = Output{Kind: o.Kind, Data: bytes.Clone(o.Data)}
	}
	for i := range packed {
		packed[i] ^= 0x5a
	}
	for i := range pages {
		pages[i][0] ^= 1
	}
	for i := range out {
		if bytes.Equal(out[i].Data, want[i].Data) != own {
			t.Fatalf("own=%v, page %d (kind %d): output changed with its buffers: %v", own, i, out[i].Kind, !own)
		}
	}
}

// Checks RT-8, GPU-8: a meta word GPU-1 does not allow is a fault, not
// output, and so are packed payloads of another size than the meta words
// give.
func TestAssembleRejectsBadMeta(t *testing.T) {
	pages := make([][PageSize]byte, 4)
	for _, word := range []uint32{0, 1<<24 | 7, 2 << 24 /* LZ4, length 0 */, 2<<24 | OutSlot, 3<<24 | 100, 4<<24 | 8} {
		meta, slots := fakeKernel(pages)
		binary.LittleEndian.PutUint32(meta[8:], word)
		packed, _ := packSlots(meta, slots)
		err := assemble(make([]Output, 4), pages, meta, packed, true)
		if !errors.Is(err, ErrFault) {
			t.Errorf("meta word %#x: %v, want ErrFault", word, err)
		}
	}
	meta, slots := fakeKernel(pages)
	packed, _ := packSlots(meta, slots)
	for _, n := range []int{len(packed) - 16, len(packed) + 16} {
		if err := assemble(make([]Output, 4), pages, meta, make([]byte, n), true); !errors.Is(err, ErrFault) {
			t.Errorf("%d packed bytes where the meta words give %d: %v, want ErrFault", n, len(packed), err)
		}
	}
}

// Checks RT-5: the PTX target of each compute capability.
func TestKernelTarget(t *testing.T) {
	for _, c := range []struct{ major, minor, sm int }{
		{6, 1, 0}, {7, 0, 70}, {7, 2, 70}, {7, 5, 75}, {8, 0, 80}, {8, 6, 86}, {8, 7, 86},
		{8, 9, 89}, {9, 0, 90}, {10, 0, 90}, {12, 0, 90},
	} {
		if got := KernelTarget(c.major, c.minor); got != c.sm {
			t.Errorf("KernelTarget(%d, %d) = %d, want %d", c.major, c.minor, got, c.sm)
		}
	}
}

// Checks RT-6: a batch is cut into chunks of BatchPages pages, or, with
// asynchronous stages over several slots, each of about 1 / (2 × slots) of
// the pages still to issue, none below minChunk pages (but the last) nor
// above BatchPages, the last 2 × minChunk pages halved down to tailChunk,
// and together exactly the batch.
func TestChunkPages(t *testing.T) {
	for _, c := range []struct {
		n, batchPages, slots int
		async                bool
		want                 int
	}{
		{100000, 8192, 4, true, 8192},
		{30000, 8192, 4, true, 3750},
		{20000, 8192, 4, true, 2500},
		{10000, 8192, 4, true, minChunk},
		{1000, 8192, 4, true, 1000},
		{10000, 1000, 4, true, 1000},
		{30000, 8192, 2, true, 7500},
		{30000, 8192, 1, true, 8192},
		{30000, 8192, 4, false, 8192},
		{500, 8192, 4, false, 500},
	} {
		if got := chunkPages(c.n, c.batchPages, c.slots, c.async); got != c.want {
			t.Errorf("chunkPages(%d, %d, %d, %v) = %d, want %d", c.n, c.batchPages, c.slots, c.async, got, c.want)
		}
	}
	var sizes []int
	for left := 30000; left > 0; {
		n := chunkPages(left, 8192, 4, true)
		sizes = append(sizes, n)
		left -= n
	}
	want := []int{3750, 3282, 2871, 2513, 2198, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 1050}
	if !slices.Equal(sizes, want) {
		t.Errorf("30,000 pages in chunks of %v, want %v", sizes, want)
	}
	defer func(t int) { tailChunk = t }(tailChunk)
	tailChunk = 512
	sizes = sizes[:0]
	for left := 10000; left > 0; {
		n := chunkPages(left, 8192, 4, true)
		sizes = append(sizes, n)
		left -= n
	}
	want = []int{2048, 2048, 2048, 1928, 964, 512, 452}
	if !slices.Equal(sizes, want) {
		t.Errorf("10,000 pages with tailChunk 512 in chunks of %v, want %v", sizes, want)
	}
}

// Checks RT-6: parallel covers every index once.
func TestParallel(t *testing.T) {
	for _, n := range []int{0, 1, 255, 256, 257, 10000} {
		seen := make([]int32, n)
		parallel(n, 64, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		for i, s := range seen {
			if s != 1 {
				t.Fatalf("n=%d: index %d visited %d times", n, i, s)
			}
		}
	}
	src := make([]byte, 3<<20)
	for i := range src {
		src[i] = byte(i * 7)
	}
	dst := make([]byte, len(src))
	parallelCopy(dst, src)
	if !bytes.Equal(dst, src) {
		t.Fatal("parallelCopy differs")
	}
}

// Checks RT-14: outputs from slots that the kernel wrote through the
// mapping are views of each page's slot, raw pages of the input, and a
// meta word GPU-1 does not allow is a fault naming the page.
func TestAssembleSlots(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var pages [][PageSize]byte
	for i := range 600 {
		pages = append(pages, *genPage(pageKinds[i%len(pageKinds)], rng))
	}
	meta, slots := fakeKernel(pages)
	out := make([]Output, len(pages))
	if err := assembleSlots(out, pages, meta, slots, 0); err != nil {
		t.Fatal(err)
	}
	kinds := map[uint8]int{}
	var buf [reference.PageBound]byte
	for i := range pages {
		kind, n := reference.EncodePage(buf[:], &pages[i])
		if out[i].Kind != uint8(kind) || !bytes.Equal(out[i].Data, buf[:n]) || cap(out[i].Data) != n {
			t.Fatalf("page %d: kind %d, %d bytes (cap %d); want %v, %d bytes", i, out[i].Kind, len(out[i].Data), cap(out[i].Data), kind, n)
		}
		want := &slots[OutSlot*i]
		if kind == reference.KindRaw {
			want = &pages[i][0]
		}
		if &out[i].Data[0] != want {
			t.Fatalf("page %d (kind %v): not a view of its slot or page", i, kind)
		}
		kinds[out[i].Kind]++
	}
	if kinds[kindSame] == 0 || kinds[kindLZ4] == 0 || kinds[kindRaw] == 0 {
		t.Errorf("kinds covered: %v", kinds)
	}
	binary.LittleEndian.PutUint32(meta[4*300:], 2<<24|OutSlot)
	err := assembleSlots(out[100:], pages[100:], meta[4*100:], slots[OutSlot*100:], 100)
	if !errors.Is(err, ErrFault) || !strings.Contains(err.Error(), "page 300:") {
		t.Errorf("a bad meta word at page 300: %v, want ErrFault naming it", err)
	}
}
