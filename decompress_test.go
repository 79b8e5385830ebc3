package lz4warp

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/lz4warp/lz4warp/gpuimpl"
	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/reference"
)

// Checks API-25: into a page-locked buffer on a GPU, the GPU decodes from
// GPUMinDecodeBatch pages stored compressed; otherwise, and below it, the
// fast decoder in chunks over the workers, whatever the batch's size;
// storedCompressed counts a batch's same-filled and LZ4 pages, not its raw
// ones.
func TestSelectDecodeBackend(t *testing.T) {
	for _, c := range []struct {
		n         int
		gpuBuffer bool
		want      Backend
	}{
		{-1, true, BackendSIMD}, {0, true, BackendSIMD}, {3, true, BackendSIMD}, {4, true, BackendSIMD},
		{GPUMinDecodeBatch - 1, true, BackendSIMD}, {GPUMinDecodeBatch, true, BackendGPU}, {1 << 20, true, BackendGPU},
		{1, false, BackendSIMD}, {4, false, BackendSIMD}, {GPUMinDecodeBatch, false, BackendSIMD}, {1 << 20, false, BackendSIMD},
	} {
		if got := SelectDecodeBackend(c.n, c.gpuBuffer); got != c.want {
			t.Errorf("SelectDecodeBackend(%d, %v) = %v, want %v", c.n, c.gpuBuffer, got, c.want)
		}
	}
	batch := []CompressedPage{{Kind: KindLZ4}, {Kind: KindSame}, {Kind: KindRaw}, {Kind: KindLZ4}, {Kind: PageKind(7)}}
	if got := storedCompressed(batch); got != 3 {
		t.Errorf("storedCompressed counts %d of a batch with 2 LZ4 pages and 1 same-filled", got)
	}
}

// Checks API-25 and API-27 without a GPU: on a Compressor whose device
// pool has a fake engine (which decodes with the CPU decoder and records
// its batches), DecompressBatchOn(BackendGPU) reaches it with the CPU's
// pages and errors, while DecompressBatch decodes even a large batch on
// the CPU, and so does DecompressBuffer into a buffer that is not
// page-locked.
func TestDecodeStaysOnCPUFromGoMemory(t *testing.T) {
	c, _, fakes := fakeCompressor(1)
	n := 4000
	_, comp := decodeBatch(t, c, n)
	want, wantErr := decodeOnCPUBackend(comp)
	got := make([]Page, n)
	sameDecode(t, "DecompressBatchOn(gpu)", got, want, c.DecompressBatchOn(BackendGPU, comp, got), wantErr)
	if len(fakes[0].decoded) != 1 {
		t.Fatalf("DecompressBatchOn(gpu): the fake GPU decoded %d batches, want 1", len(fakes[0].decoded))
	}
	clear(got)
	sameDecode(t, "DecompressBatch", got, want, c.DecompressBatch(comp, got), wantErr)
	buf, err := c.NewPageBuffer(n)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	if buf.Pinned() {
		t.Fatal("the fake pool gave a page-locked buffer")
	}
	sameDecode(t, "DecompressBuffer", buf.Pages(), want, c.DecompressBuffer(buf, comp), wantErr)
	clear(buf.Pages())
	pd, err := c.DecompressBufferAsync(buf, comp)
	if err != nil {
		t.Fatal(err)
	}
	sameDecode(t, "DecompressBufferAsync", buf.Pages(), want, pd.Wait(), wantErr)
	if len(fakes[0].decoded) != 1 {
		t.Errorf("the fake GPU decoded %d batches, want only DecompressBatchOn's", len(fakes[0].decoded))
	}
	if s := c.Stats(); s.GPUFallbacks != 0 {
		t.Errorf("GPUFallbacks %d: a batch fell back from the GPU", s.GPUFallbacks)
	}
}

// decodeBatch is a batch for the decode tests: pages of every kind,
// compressed, with some payloads damaged, each way the decoder rejects.
func decodeBatch(t *testing.T, c *Compressor, n int) ([]Page, []CompressedPage) {
	t.Helper()
	pages := testPages(n)
	res, err := c.CompressBatchOn(BackendSIMD, pages)
	if err != nil {
		t.Fatal(err)
	}
	comp := res.Pages
	for i := range comp {
		if comp[i].Kind != KindLZ4 {
			continue
		}
		d := bytes.Clone(comp[i].Data)
		switch i % 7 {
		case 1:
			d = d[:len(d)-1] // ends inside the last literals
		case 3:
			d = append(d, 0x10, 1, 0, 0) // a sequence past the page
		case 5:
			d[0] = 0xff // a length field running on
		default:
			continue
		}
		comp[i].Data = d
	}
	comp[0] = CompressedPage{Kind: KindSame, Data: make([]byte, 7)}
	return pages, comp
}

// testPages are n pages of several kinds: zeros, same-filled, text, and
// bytes that do not compress.
func testPages(n int) []Page {
	pages := make([]Page, n)
	for i := range pages {
		switch i % 4 {
		case 1:
			for j := range pages[i] {
				pages[i][j] = byte(i)
			}
		case 2:
			for j := 0; j < PageSize; {
				j += copy(pages[i][j:], fmt.Sprintf("page %d line %d of the decode tests\n", i, j))
			}
		case 3:
			x := uint32(i*2654435761 + 1)
			for j := range pages[i] {
				x ^= x << 13
				x ^= x >> 17
				x ^= x << 5
				pages[i][j] = byte(x)
			}
		}
	}
	return pages
}

// Checks API-26, API-12, API-14: every backend decodes a batch to the
// same pages and the same *DecodeError, page for page, as DecompressBatch;
// a backend without a GPU, an unknown one, a short dst and a closed
// Compressor are errors.
func TestDecompressBatchOn(t *testing.T) {
	c, err := NewCompressor(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	pages, comp := decodeBatch(t, c, 300)
	want := make([]Page, len(comp))
	wantErr := c.DecompressBatch(comp, want)
	var de *DecodeError
	if !errors.As(wantErr, &de) || len(de.Pages) < 30 {
		t.Fatalf("the batch's damaged pages: %v", wantErr)
	}
	failed := map[int]bool{}
	for _, p := range de.Pages {
		failed[p.Index] = true
	}
	for i := range pages {
		if !failed[i] && want[i] != pages[i] {
			t.Fatalf("page %d decodes to another page", i)
		}
	}
	backends := []Backend{BackendScalar, BackendSIMD}
	if c.gpu != nil {
		backends = append(backends, BackendGPU)
	}
	for _, b := range backends {
		got := make([]Page, len(comp))
		err := c.DecompressBatchOn(b, comp, got)
		if err == nil || err.Error() != wantErr.Error() {
			t.Errorf("%v: %v, want %v", b, err, wantErr)
		}
		for i := range got {
			if !failed[i] && got[i] != want[i] {
				t.Errorf("%v: page %d differs", b, i)
			}
		}
	}
	if c.gpu == nil {
		if err := c.DecompressBatchOn(BackendGPU, comp, want); !errors.Is(err, ErrGPUNotAvailable) {
			t.Errorf("BackendGPU without a GPU: %v", err)
		}
	}
	if err := c.DecompressBatchOn(Backend(9), comp, want); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("an unknown backend: %v", err)
	}
	if err := c.DecompressBatchOn(BackendSIMD, comp, want[:1]); !errors.Is(err, ErrShortBuffer) {
		t.Errorf("a short dst: %v", err)
	}
	decoded := uint64(len(backends)+1) * uint64(len(comp)-len(de.Pages))
	if got := c.Stats().PagesDecompressed; got != decoded {
		t.Errorf("PagesDecompressed %d, want %d", got, decoded)
	}
	c.Close()
	if err := c.DecompressBatchOn(BackendSIMD, comp, want); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}

// Checks API-27: DecompressBuffer and DecompressBufferAsync decode into
// the buffer's pages what DecompressBatch decodes, with its error; the
// buffer takes no other batch until Wait.
func TestDecompressBuffer(t *testing.T) {
	c, err := NewCompressor(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, comp := decodeBatch(t, c, 200)
	want := make([]Page, len(comp))
	wantErr := c.DecompressBatch(comp, want)
	buf, err := c.NewPageBuffer(len(comp))
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	check := func(what string, err error) {
		t.Helper()
		if err == nil || err.Error() != wantErr.Error() {
			t.Errorf("%s: %v, want %v", what, err, wantErr)
		}
		failed := map[int]bool{}
		var de *DecodeError
		if errors.As(err, &de) {
			for _, p := range de.Pages {
				failed[p.Index] = true
			}
		}
		for i, p := range buf.Pages()[:len(comp)] {
			if !failed[i] && p != want[i] {
				t.Errorf("%s: page %d differs", what, i)
			}
		}
	}
	check("DecompressBuffer", c.DecompressBuffer(buf, comp))
	clear(buf.Pages())
	p, err := c.DecompressBufferAsync(buf, comp)
	if err != nil {
		t.Fatal(err)
	}
	if p.gpu != nil {
		if err := c.DecompressBuffer(buf, comp); !errors.Is(err, ErrBadBuffer) {
			t.Errorf("a second batch before Wait: %v", err)
		}
	}
	check("DecompressBufferAsync", p.Wait())
	check("Wait again", p.Wait())
	if err := c.DecompressBuffer(buf, append(comp, comp...)); !errors.Is(err, ErrBadBuffer) {
		t.Errorf("more pages than the buffer: %v", err)
	}
}

// Checks API-25 and GPU-11: a GPU batch's statuses give the errors the CPU
// gives the same pages: fastlz4's sentinels, its short-page error with the
// bytes decoded, and for a page of status DecodeBadPayload the CPU's own
// verdict, decoding it where it decodes.
func TestDecodeErrorsFromStatus(t *testing.T) {
	page := testPages(3)[2]
	block := make([]byte, reference.PageBound)
	kind, n := reference.EncodePage(block, &page)
	if kind != reference.KindLZ4 {
		t.Fatal("the test page is not an LZ4 page")
	}
	lz4 := block[:n]
	short := []byte{0x50, 1, 2, 3, 4, 5} // five literals, then the end
	pages := []CompressedPage{
		{KindLZ4, lz4},
		{KindLZ4, lz4[:n-1]},
		{KindLZ4, short},
		{KindLZ4, append(bytes.Clone(lz4), 0x10, 9, 1, 0)},
		{KindSame, make([]byte, 7)},
		{KindLZ4, make([]byte, 70000)},
		{KindLZ4, lz4}, // a status of DecodeBadPayload for a valid page: the CPU decodes it
	}
	status := []uint32{
		gpuimpl.DecodeOK,
		gpuimpl.DecodeCorrupt<<24 | 4000,
		gpuimpl.DecodeShortPage<<24 | 5,
		gpuimpl.DecodeShortBuffer<<24 | PageSize,
		gpuimpl.DecodeBadPayload << 24,
		gpuimpl.DecodeBadPayload << 24,
		gpuimpl.DecodeBadPayload << 24,
	}
	dst := make([]Page, len(pages))
	err := decodeErrors(pages, dst, status)
	want := make([]Page, len(pages))
	wantErr := decompressParallel(pages, want)
	if err == nil || wantErr == nil || err.Error() != wantErr.Error() {
		t.Fatalf("from the statuses: %v\nfrom the CPU: %v", err, wantErr)
	}
	var de *DecodeError
	errors.As(err, &de)
	for _, p := range de.Pages {
		var cpu [PageSize]byte
		cpuErr := fastlz4.DecodePage(&cpu, reference.Kind(pages[p.Index].Kind), pages[p.Index].Data)
		if !errors.Is(p.Err, errors.Unwrap(cpuErr)) && p.Err != cpuErr {
			t.Errorf("page %d: %v does not wrap the CPU's sentinel (%v)", p.Index, p.Err, cpuErr)
		}
	}
	if len(de.Pages) != 5 || dst[6] != page {
		t.Errorf("%d pages failed, want 5; the valid page of status DecodeBadPayload decoded: %v", len(de.Pages), dst[6] == page)
	}
}
