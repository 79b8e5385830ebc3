package lz4warp

import (
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/lz4warp/lz4warp/gpuimpl"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Checks API-18: CompressBuffer gives the reference's bytes for any prefix
// of the buffer, with the backend SelectBackend picks, and counts it in
// the statistics like CompressBatch.
func TestCompressBuffer(t *testing.T) {
	pages, names := apiTestPages(t)
	c := newTestCompressor(t)
	buf, err := c.NewPageBuffer(len(pages) + 5)
	require.NoError(t, err)
	defer buf.Close()
	assert.Equal(t, c.gpu != nil, buf.Pinned(), "page-locked exactly with a GPU")
	require.Len(t, buf.Pages(), len(pages)+5)
	copy(buf.Pages(), pages)
	total := 0
	for _, n := range []int{0, 3, len(pages)} {
		res, err := c.CompressBuffer(buf, n)
		require.NoError(t, err)
		assert.Equal(t, SelectBackend(n, c.gpu != nil), res.Backend, "%d pages", n)
		require.Len(t, res.Pages, n)
		for i := range n {
			assert.Equal(t, referencePage(&pages[i]), res.Pages[i], "%d pages: page %d (%s)", n, i, names[i])
		}
		total += n
	}
	assert.Equal(t, uint64(total), c.Stats().PagesCompressed)
}

// Checks API-18: buffers of another Compressor, closed buffers, prefixes
// longer than the buffer and closed Compressors are errors, not panics.
func TestCompressBufferErrors(t *testing.T) {
	c := newTestCompressor(t)
	_, err := c.NewPageBuffer(0)
	assert.ErrorIs(t, err, ErrBadBuffer)
	buf, err := c.NewPageBuffer(8)
	require.NoError(t, err)
	for _, n := range []int{-1, 9} {
		_, err = c.CompressBuffer(buf, n)
		assert.ErrorIs(t, err, ErrBadBuffer, "%d pages", n)
	}
	_, err = newTestCompressor(t).CompressBuffer(buf, 1)
	assert.ErrorIs(t, err, ErrBadBuffer, "another Compressor's buffer")
	_, err = c.CompressBuffer(nil, 0)
	assert.ErrorIs(t, err, ErrBadBuffer, "no buffer")
	_, err = c.CompressBufferAsync(nil, 0)
	assert.ErrorIs(t, err, ErrBadBuffer, "no buffer")
	require.NoError(t, buf.Close())
	require.NoError(t, buf.Close(), "a second Close is harmless")
	assert.Nil(t, buf.Pages())
	_, err = c.CompressBuffer(buf, 1)
	assert.ErrorIs(t, err, ErrBadBuffer, "a closed buffer")

	buf, err = c.NewPageBuffer(8)
	require.NoError(t, err)
	require.NoError(t, c.Close())
	_, err = c.CompressBuffer(buf, 8)
	assert.ErrorIs(t, err, ErrClosed)
	_, err = c.NewPageBuffer(8)
	assert.ErrorIs(t, err, ErrClosed)
	assert.NoError(t, buf.Close(), "a buffer outlives its Compressor")
}

// Checks API-18: CompressedPage and the GPU's output have one layout, so
// that compressedPages may view one as the other.
func TestCompressedPageLayout(t *testing.T) {
	var c CompressedPage
	var o gpuimpl.Output
	assert.Equal(t, unsafe.Sizeof(o), unsafe.Sizeof(c))
	assert.Equal(t, unsafe.Alignof(o), unsafe.Alignof(c))
	assert.Equal(t, unsafe.Offsetof(o.Kind), unsafe.Offsetof(c.Kind))
	assert.Equal(t, unsafe.Offsetof(o.Data), unsafe.Offsetof(c.Data))
	assert.Equal(t, reflect.TypeOf(o.Kind).Kind(), reflect.TypeOf(c.Kind).Kind())
	out := []gpuimpl.Output{{Kind: 2, Data: []byte{1, 2}}, {Kind: 3, Data: []byte{3}}}
	assert.Equal(t, []CompressedPage{{Kind: KindLZ4, Data: []byte{1, 2}}, {Kind: KindRaw, Data: []byte{3}}}, compressedPages(out))
}

// Checks API-19: batches started on several buffers give, whatever order
// Wait takes them in, CompressBuffer's bytes with the backend
// SelectBackend picks, accounted for once; a buffer with a batch on its way
// takes no other; closing the buffer or the Compressor before Wait loses
// nothing.
func TestCompressBufferAsync(t *testing.T) {
	base, names := apiTestPages(t)
	pages := make([]Page, 2100) // a GPU batch and more, where there is a GPU
	for i := range pages {
		pages[i] = base[i%len(base)]
	}
	check := func(label string, n int, res *BatchResult) {
		t.Helper()
		require.Len(t, res.Pages, n, label)
		for i := range n {
			if !assert.Equal(t, referencePage(&pages[i]), res.Pages[i], "%s: page %d (%s)", label, i, names[i%len(base)]) {
				return
			}
		}
	}
	c := newTestCompressor(t)
	sizes := []int{len(pages), 3, 0, GPUMinBatch, len(pages) - 1}
	bufs := make([]*PageBuffer, len(sizes))
	started := make([]*PendingBatch, len(sizes))
	for i, n := range sizes {
		buf, err := c.NewPageBuffer(len(pages))
		require.NoError(t, err)
		t.Cleanup(func() { buf.Close() })
		copy(buf.Pages(), pages)
		bufs[i] = buf
		started[i], err = c.CompressBufferAsync(buf, n)
		require.NoError(t, err)
	}
	_, err := c.CompressBuffer(bufs[0], 1)
	assert.ErrorIs(t, err, ErrBadBuffer, "CompressBuffer on a buffer with a batch on its way")
	_, err = c.CompressBufferAsync(bufs[0], 1)
	assert.ErrorIs(t, err, ErrBadBuffer, "CompressBufferAsync on a buffer with a batch on its way")
	total := 0
	for i := len(sizes) - 1; i >= 0; i-- {
		n := sizes[i]
		res, err := started[i].Wait()
		require.NoError(t, err)
		assert.Equal(t, SelectBackend(n, c.gpu != nil), res.Backend, "%d pages", n)
		check("reverse order", n, res)
		again, err := started[i].Wait()
		require.NoError(t, err)
		assert.Same(t, res, again, "a second Wait")
		total += n
	}
	assert.Equal(t, uint64(total), c.Stats().PagesCompressed, "each batch accounted for once")

	p, err := c.CompressBufferAsync(bufs[0], GPUMinBatch)
	require.NoError(t, err, "the buffer is free after Wait")
	require.NoError(t, bufs[0].Close())
	res, err := p.Wait()
	require.NoError(t, err)
	check("buffer closed before Wait", GPUMinBatch, res)

	p, err = c.CompressBufferAsync(bufs[1], len(pages))
	require.NoError(t, err)
	require.NoError(t, c.Close())
	res, err = p.Wait()
	require.NoError(t, err)
	check("Compressor closed before Wait", len(pages), res)
	_, err = c.CompressBufferAsync(bufs[2], 1)
	assert.ErrorIs(t, err, ErrClosed)
}

// Checks API-19 for a batch that CompressBufferAsync compresses itself (the
// CPU's, or one too small for the GPU): it is accounted for in Wait, and
// its TotalTime runs from the start to Wait.
func TestCompressBufferAsyncAccountsInWait(t *testing.T) {
	c := newTestCompressor(t)
	buf, err := c.NewPageBuffer(3)
	require.NoError(t, err)
	t.Cleanup(func() { buf.Close() })
	p, err := c.CompressBufferAsync(buf, 3)
	require.NoError(t, err)
	assert.Zero(t, c.Stats().PagesCompressed, "accounted for before Wait")
	const pause = 20 * time.Millisecond
	time.Sleep(pause)
	res, err := p.Wait()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, res.TotalTime, pause, "TotalTime ends at Wait")
	assert.Equal(t, uint64(3), c.Stats().PagesCompressed)
	assert.Equal(t, res.TotalTime, c.Stats().TotalTime)
	_, err = p.Wait()
	require.NoError(t, err)
	assert.Equal(t, uint64(3), c.Stats().PagesCompressed, "a second Wait accounts for nothing")
}
