package lz4warp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/lz4warp/lz4warp/reference"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// xorshiftFill fills b with a fixed pseudo-random stream from seed.
func xorshiftFill(b []byte, seed uint32) {
	x := seed | 1
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x >> 7)
	}
}

// pageWithBlockLen returns a page whose canonical LZ4 block is exactly n
// bytes long: k pseudo-random bytes followed by zeros, k searched for.
func pageWithBlockLen(t testing.TB, n int) Page {
	t.Helper()
	var block [reference.PageSize + 64]byte
	for seed := uint32(1); seed < 50; seed++ {
		var noise Page
		xorshiftFill(noise[:], seed)
		for k := n - 40; k <= n+10; k++ {
			var p Page
			copy(p[:k], noise[:k])
			m, err := reference.CompressBlock(block[:], p[:])
			require.NoError(t, err)
			if m == n {
				return p
			}
		}
	}
	t.Fatalf("no page with a %d-byte block found", n)
	return Page{}
}

// apiTestPages holds a page of every kind and shape the API must handle.
func apiTestPages(t testing.TB) (pages []Page, names []string) {
	add := func(name string, p Page) {
		pages = append(pages, p)
		names = append(names, name)
	}
	add("zero", Page{})
	var p Page
	for i := 0; i < PageSize; i += 8 {
		binary.LittleEndian.PutUint64(p[i:], 0xdeadbeefcafef00d)
	}
	add("same word", p)
	p = Page{}
	copy(p[:], strings.Repeat("memory pages compress well when they hold text; ", 100))
	add("text", p)
	p = Page{}
	for i := 0; i < PageSize; i += 4 {
		binary.LittleEndian.PutUint32(p[i:], uint32(i/64)) // runs of 16 equal words
	}
	add("counters", p)
	p = Page{}
	xorshiftFill(p[:], 12345)
	add("random", p)
	p = Page{}
	xorshiftFill(p[:2048], 777)
	add("half random", p)
	add("block 3071", pageWithBlockLen(t, reference.RawThreshold-1))
	add("block 3072", pageWithBlockLen(t, reference.RawThreshold))
	p = Page{}
	xorshiftFill(p[:2048], 99)
	copy(p[PageSize-16:], p[100:106]) // a short match close to the end of a page that compresses
	add("late short match", p)
	return pages, names
}

func referencePage(p *Page) CompressedPage {
	var dst [reference.PageBound]byte
	kind, n := reference.EncodePage(dst[:], p)
	return CompressedPage{Kind: PageKind(kind), Data: bytes.Clone(dst[:n])}
}

func skipWithGPU(t *testing.T) {
	t.Helper()
	if GPUAvailable() {
		t.Skip("a GPU is present; this test is about the CPU-only case")
	}
}

func newTestCompressor(t *testing.T) *Compressor {
	t.Helper()
	c, err := NewCompressor(DefaultConfig())
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// Checks API-3, API-11: without a GPU, NewCompressor works and each batch
// gets the backend SelectBackend names.
func TestCompressorBackendPerBatch(t *testing.T) {
	skipWithGPU(t)
	c := newTestCompressor(t)
	assert.Equal(t, DefaultConfig(), c.Config())
	for _, n := range []int{0, 1, 3, 4, 5, 999, 1000, 1024} {
		res, err := c.CompressBatch(make([]Page, n))
		require.NoError(t, err)
		assert.Equal(t, SelectBackend(n, false), res.Backend, "%d pages", n)
		assert.Len(t, res.Pages, n)
		// CPU batches have no GPU timings (API-5's all-zero case).
		assert.Zero(t, res.H2DTime+res.KernelTime+res.D2HTime)
		assert.False(t, res.PCIeRuleSatisfied())
	}
	// GPUError says why no GPU is used, and asking for the GPU fails so.
	assert.ErrorIs(t, c.GPUError(), ErrGPUNotAvailable)
	_, err := c.CompressBatchOn(BackendGPU, make([]Page, 1))
	assert.ErrorIs(t, err, ErrGPUNotAvailable)
}

// Checks API-16, PARSE-8, PAGE-3, PAGE-4, PAGE-5: both CPU backends give
// the reference's kind and bytes for every page, deterministically.
func TestCompressBatchMatchesReference(t *testing.T) {
	pages, names := apiTestPages(t)
	c := newTestCompressor(t)
	for _, batch := range [][]Page{
		pages[:3], pages[3:6], pages[6:], // small batches: SIMD too
		pages, // SIMD
		append(append(append([]Page{}, pages...), pages...), pages...), // SIMD, more pages than cores
	} {
		for range 2 {
			res, err := c.CompressBatch(batch)
			require.NoError(t, err)
			require.Len(t, res.Pages, len(batch))
			for i := range batch {
				want := referencePage(&batch[i])
				assert.Equal(t, want.Kind, res.Pages[i].Kind, "%s page %d", res.Backend, i)
				assert.True(t, bytes.Equal(want.Data, res.Pages[i].Data), "%s page %d: payload differs from the reference", res.Backend, i)
			}
		}
	}
	// The expected kinds, page by page.
	res, err := c.CompressBatch(pages)
	require.NoError(t, err)
	kinds := map[string]PageKind{}
	for i, n := range names {
		kinds[n] = res.Pages[i].Kind
	}
	assert.Equal(t, map[string]PageKind{
		"zero": KindSame, "same word": KindSame, "text": KindLZ4, "counters": KindLZ4,
		"random": KindRaw, "half random": KindLZ4, "block 3071": KindLZ4, "block 3072": KindRaw,
		"late short match": KindLZ4,
	}, kinds)
}

// Checks PAGE-3: same-filled means every 8-byte word equals the first.
func TestSameFilledDetection(t *testing.T) {
	c := newTestCompressor(t)
	period := func(n int) Page {
		var p Page
		for i := range p {
			p[i] = byte(i%n + 1)
		}
		return p
	}
	lastWord := Page{}
	lastWord[PageSize-1] = 1
	firstByte := Page{}
	firstByte[0] = 1
	cases := []struct {
		name string
		page Page
		same bool
	}{
		{"zero", Page{}, true},
		{"period 1", period(1), true},
		{"period 2", period(2), true},
		{"period 4", period(4), true},
		{"period 8", period(8), true},
		{"period 16", period(16), false},
		{"period 3", period(3), false},
		{"last byte differs", lastWord, false},
		{"first byte differs", firstByte, false},
	}
	batch := make([]Page, len(cases))
	for i, c := range cases {
		batch[i] = c.page
	}
	res, err := c.CompressBatch(batch)
	require.NoError(t, err)
	for i, cs := range cases {
		got := res.Pages[i]
		if cs.same {
			assert.Equal(t, KindSame, got.Kind, cs.name)
			assert.Equal(t, cs.page[:8], got.Data, cs.name)
		} else {
			assert.NotEqual(t, KindSame, got.Kind, cs.name)
		}
	}
}

// Checks PAGE-5: a 3,071-byte block is kept, a 3,072-byte one is stored raw.
func TestRawThreshold(t *testing.T) {
	c := newTestCompressor(t)
	below, at := pageWithBlockLen(t, 3071), pageWithBlockLen(t, 3072)
	res, err := c.CompressBatch([]Page{below, at})
	require.NoError(t, err)
	assert.Equal(t, KindLZ4, res.Pages[0].Kind)
	assert.Len(t, res.Pages[0].Data, 3071)
	assert.Equal(t, KindRaw, res.Pages[1].Kind)
	assert.Equal(t, at[:], res.Pages[1].Data)
}

// Checks PAGE-4, PAGE-6, API-12: a batch round-trips; dst beyond the batch
// is left alone.
func TestDecompressBatchRoundTrip(t *testing.T) {
	pages, _ := apiTestPages(t)
	c := newTestCompressor(t)
	res, err := c.CompressBatch(pages)
	require.NoError(t, err)
	dst := make([]Page, len(pages)+2)
	for i := range dst {
		dst[i][0], dst[i][PageSize-1] = 0xa5, 0x5a
	}
	guard := dst[len(pages)]
	require.NoError(t, c.DecompressBatch(res.Pages, dst))
	for i := range pages {
		assert.True(t, pages[i] == dst[i], "page %d differs after the round trip", i)
	}
	assert.Equal(t, guard, dst[len(pages)])
	assert.Equal(t, guard, dst[len(pages)+1])
	require.NoError(t, c.DecompressBatch(nil, nil), "an empty batch decodes into nothing")
}

// corruptions returns payloads that PAGE-6 says are invalid, each with
// what was done to a valid page.
func corruptions(t *testing.T, lz4Page CompressedPage) map[string]CompressedPage {
	require.Equal(t, KindLZ4, lz4Page.Kind)
	d := lz4Page.Data
	oneLess := bytes.Clone(d)
	// The last sequence holds the final 5 literals; dropping one byte of
	// them makes the block 4,095 bytes long.
	oneLess = oneLess[:len(oneLess)-1]
	oneLess[len(oneLess)-5] -= 0x10            // fix the last token's literal count
	badOffset := []byte{0x10, 'a', 0x00, 0x00} // offset 0
	farOffset := []byte{0x10, 'a', 0x05, 0x00} // offset beyond the output
	return map[string]CompressedPage{
		"kind 0":            {Kind: 0, Data: make([]byte, 8)},
		"kind 4":            {Kind: 4, Data: make([]byte, PageSize)},
		"same 7 bytes":      {Kind: KindSame, Data: make([]byte, 7)},
		"same 9 bytes":      {Kind: KindSame, Data: make([]byte, 9)},
		"same empty":        {Kind: KindSame},
		"raw 4095 bytes":    {Kind: KindRaw, Data: make([]byte, PageSize-1)},
		"raw 4097 bytes":    {Kind: KindRaw, Data: make([]byte, PageSize+1)},
		"lz4 empty":         {Kind: KindLZ4},
		"lz4 truncated":     {Kind: KindLZ4, Data: d[:len(d)/2]},
		"lz4 one byte less": {Kind: KindLZ4, Data: oneLess},
		"lz4 too long":      {Kind: KindLZ4, Data: append(bytes.Clone(d), 0x10, 'x')},
		"lz4 offset 0":      {Kind: KindLZ4, Data: badOffset},
		"lz4 far offset":    {Kind: KindLZ4, Data: farOffset},
		"lz4 raw bytes":     {Kind: KindLZ4, Data: bytes.Repeat([]byte{0xff}, PageSize)},
	}
}

// Checks API-12, PAGE-6: every corrupt page is reported with its index,
// and every other page of the batch decodes.
func TestDecompressBatchCorruptPages(t *testing.T) {
	pages, _ := apiTestPages(t)
	c := newTestCompressor(t)
	res, err := c.CompressBatch(pages)
	require.NoError(t, err)
	bad := corruptions(t, res.Pages[2]) // the text page
	names := make([]string, 0, len(bad))
	for n := range bad {
		names = append(names, n)
	}
	// Interleave: good pages, then a corrupt one, in a fixed order.
	var batch []CompressedPage
	var want []Page
	wantBad := map[int]string{}
	for i, n := range sortedKeys(names) {
		g := res.Pages[i%len(res.Pages)]
		batch = append(batch, g)
		want = append(want, pages[i%len(pages)])
		wantBad[len(batch)] = n
		batch = append(batch, bad[n])
		want = append(want, Page{})
	}
	batch = append(batch, res.Pages...)
	want = append(want, pages...)

	// Each corruption alone is an error of the reference decoder too.
	for n, p := range bad {
		var page Page
		assert.Error(t, reference.DecodePage(&page, reference.Kind(p.Kind), p.Data), n)
	}

	dst := make([]Page, len(batch))
	err = c.DecompressBatch(batch, dst)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrCorrupt)
	var de *DecodeError
	require.True(t, errors.As(err, &de), "%T is not a *DecodeError", err)
	got := map[int]bool{}
	for k, pe := range de.Pages {
		got[pe.Index] = true
		assert.Contains(t, wantBad, pe.Index, "page %d reported corrupt", pe.Index)
		assert.ErrorIs(t, pe, ErrCorrupt)
		if k > 0 {
			assert.Less(t, de.Pages[k-1].Index, pe.Index, "page errors are in batch order")
		}
	}
	for i, n := range wantBad {
		assert.True(t, got[i], "corrupt page %d (%s) not reported", i, n)
	}
	for i := range batch {
		if _, isBad := wantBad[i]; !isBad {
			assert.True(t, want[i] == dst[i], "valid page %d was not decoded", i)
		}
	}
	var pe *PageError
	require.True(t, errors.As(err, &pe))
	assert.Equal(t, de.Pages[0].Index, pe.Index)
	assert.Contains(t, err.Error(), fmt.Sprintf("page %d", de.Pages[0].Index))
	// Checks API-14: only the pages that decoded are counted.
	assert.EqualValues(t, len(batch)-len(wantBad), c.Stats().PagesDecompressed)
}

func sortedKeys(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// Checks API-12: a short dst is refused before anything is decoded.
func TestDecompressBatchShortBuffer(t *testing.T) {
	pages, _ := apiTestPages(t)
	c := newTestCompressor(t)
	res, err := c.CompressBatch(pages)
	require.NoError(t, err)
	dst := make([]Page, len(pages)-1)
	err = c.DecompressBatch(res.Pages, dst)
	assert.ErrorIs(t, err, ErrShortBuffer)
	assert.NotErrorIs(t, err, ErrCorrupt)
	for i := range dst {
		assert.True(t, dst[i] == Page{}, "page %d written despite the short dst", i)
	}
	assert.ErrorIs(t, c.DecompressBatch(res.Pages[:1], nil), ErrShortBuffer)
	assert.Zero(t, c.Stats().PagesDecompressed)
}

// Checks API-11: without a GPU, insisting on one fails with
// ErrGPUNotAvailable, and Devices/GPUAvailable agree.
func TestGPUBatchCompressorWithoutGPU(t *testing.T) {
	skipWithGPU(t)
	c, err := NewGPUBatchCompressor(DefaultConfig())
	assert.Nil(t, c)
	assert.ErrorIs(t, err, ErrGPUNotAvailable)
	devs, err := Devices()
	if err != nil {
		assert.ErrorIs(t, err, ErrGPUNotAvailable, "Devices fails only where the driver cannot be used")
	}
	for _, d := range devs {
		assert.False(t, d.IsSupported(), "GPUAvailable is false, yet %s is supported", d.Name)
	}
}

// A closed Compressor refuses work with ErrClosed (documented on Close).
func TestClosedCompressor(t *testing.T) {
	c, err := NewCompressor(DefaultConfig())
	require.NoError(t, err)
	res, err := c.CompressBatch(make([]Page, 2))
	require.NoError(t, err)
	require.NoError(t, c.Close())
	require.NoError(t, c.Close(), "a second Close is harmless")
	_, err = c.CompressBatch(make([]Page, 2))
	assert.ErrorIs(t, err, ErrClosed)
	assert.ErrorIs(t, c.DecompressBatch(res.Pages, make([]Page, 2)), ErrClosed)
	assert.ErrorIs(t, c.DecompressBatch(res.Pages, nil), ErrClosed, "closed before a short dst")
	assert.Equal(t, uint64(2), c.Stats().PagesCompressed, "stats survive Close")
}

// Checks API-14, API-8: statistics add up over batches and calls.
func TestStatsAccumulate(t *testing.T) {
	pages, _ := apiTestPages(t)
	c := newTestCompressor(t)
	assert.Equal(t, Stats{}, c.Stats())
	var in, out uint64
	var compressTime int64
	var results []*BatchResult
	for _, batch := range [][]Page{pages[:2], pages, nil, pages[1:]} {
		res, err := c.CompressBatch(batch)
		require.NoError(t, err)
		results = append(results, res)
		in += uint64(len(batch)) * PageSize
		for _, p := range res.Pages {
			out += uint64(len(p.Data))
		}
		compressTime += int64(res.TotalTime)
		s := c.Stats()
		assert.Equal(t, in/PageSize, s.PagesCompressed)
		assert.Equal(t, in, s.TotalBytesIn)
		assert.Equal(t, out, s.TotalBytesOut)
		assert.EqualValues(t, compressTime, s.TotalTime)
	}
	decoded := 0
	for _, res := range results {
		require.NoError(t, c.DecompressBatch(res.Pages, make([]Page, len(res.Pages))))
		decoded += len(res.Pages)
	}
	s := c.Stats()
	assert.EqualValues(t, decoded, s.PagesDecompressed)
	assert.EqualValues(t, in/PageSize, s.PagesCompressed)
	assert.EqualValues(t, compressTime, s.TotalTime, "TotalTime is the compression calls' alone")
	assert.Positive(t, s.DecompressTime, "DecompressBatch's time")
	assert.Zero(t, s.GPUFallbacks)
	assert.InDelta(t, float64(in)/float64(out), s.CompressionRatio(), 1e-12)
}

// Checks API-16, PARSE-8: concurrent batches on one Compressor give the
// same bytes as sequential ones.
func TestCompressorConcurrentUse(t *testing.T) {
	pages, _ := apiTestPages(t)
	c := newTestCompressor(t)
	want, err := c.CompressBatch(pages)
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			res, err := c.CompressBatch(pages)
			if err != nil {
				errs <- err
				return
			}
			for i := range pages {
				if res.Pages[i].Kind != want.Pages[i].Kind || !bytes.Equal(res.Pages[i].Data, want.Pages[i].Data) {
					errs <- fmt.Errorf("page %d differs", i)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assert.EqualValues(t, 9*len(pages), c.Stats().PagesCompressed)
}

// Checks API-17: CompressBatchOn runs the named backend whatever the batch
// size, with CompressBatch's bytes and statistics, and refuses a GPU it does
// not have, an unknown backend and a closed Compressor.
func TestCompressBatchOn(t *testing.T) {
	pages, _ := apiTestPages(t)
	c := newTestCompressor(t)
	want, err := c.CompressBatch(pages)
	require.NoError(t, err)
	for _, b := range []Backend{BackendScalar, BackendSIMD} {
		for _, n := range []int{1, len(pages)} {
			res, err := c.CompressBatchOn(b, pages[:n])
			require.NoError(t, err)
			assert.Equal(t, b, res.Backend)
			assert.Equal(t, want.Pages[:n], res.Pages, "%v on %d pages", b, n)
		}
	}
	if c.gpu == nil {
		_, err = c.CompressBatchOn(BackendGPU, pages)
		assert.ErrorIs(t, err, ErrGPUNotAvailable)
	}
	_, err = c.CompressBatchOn(Backend(7), pages)
	assert.ErrorIs(t, err, ErrInvalidConfig)
	assert.Equal(t, 2*uint64(len(pages))+2, c.Stats().PagesCompressed-uint64(len(pages)), "each batch counted once")
	require.NoError(t, c.Close())
	_, err = c.CompressBatchOn(BackendScalar, pages)
	assert.ErrorIs(t, err, ErrClosed)
}
