package lz4warp

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp/gpuimpl"
)

// Checks API-29: the first shared batch gives the GPU half of its pages;
// each batch moves the share halfway towards the one with which both sides
// would have ended together, bounded by minDecodeShare on either side; a
// batch one side did not take part in leaves it as it is.
func TestDecodeShare(t *testing.T) {
	var s decodeShare
	if g := s.split(1000); g != 500 {
		t.Fatalf("first split: %d of 1000 pages to the GPU, want 500", g)
	}
	// 500 pages each; the GPU took 1 ms, the CPU 3 ms: the GPU is three
	// times as fast, and would have ended with the CPU at a share of 3/4.
	s.update(500, 1000, time.Millisecond, 3*time.Millisecond)
	if want := (0.5 + 0.75) / 2; math.Abs(s.gpu-want) > 1e-12 {
		t.Fatalf("share %v after one batch, want %v", s.gpu, want)
	}
	if g := s.split(1000); g != 625 {
		t.Fatalf("split: %d of 1000 pages to the GPU, want 625", g)
	}
	for range 20 {
		g := s.split(1000)
		// the CPU decodes 1 page a microsecond, the GPU 3
		s.update(g, 1000, time.Duration(float64(g)/3*1e3), time.Duration(1000-g)*time.Microsecond)
	}
	if math.Abs(s.gpu-0.75) > 0.002 {
		t.Errorf("share %v after 20 batches at 3:1, want 0.75", s.gpu)
	}
	for range 20 {
		g := s.split(1000)
		s.update(g, 1000, time.Second, time.Duration(1000-g)*time.Microsecond) // a GPU that crawls
	}
	if s.gpu != minDecodeShare {
		t.Errorf("share %v with a crawling GPU, want the bound %v", s.gpu, minDecodeShare)
	}
	for range 20 {
		g := s.split(1000)
		s.update(g, 1000, time.Duration(g)*time.Nanosecond, time.Second) // a CPU that crawls
	}
	if s.gpu != 1-minDecodeShare {
		t.Errorf("share %v with a crawling CPU, want the bound %v", s.gpu, 1-minDecodeShare)
	}
	before := s.gpu
	for _, b := range []struct {
		g, n     int
		gpu, cpu time.Duration
	}{{0, 100, time.Millisecond, time.Millisecond}, {100, 100, time.Millisecond, 0}, {50, 100, 0, time.Millisecond}} {
		s.update(b.g, b.n, b.gpu, b.cpu)
	}
	if s.gpu != before {
		t.Errorf("batches without both sides moved the share from %v to %v", before, s.gpu)
	}
}

// Checks API-29: a shared batch's *DecodeError holds the GPU's pages and
// the CPU's, these counted from the batch's start, in increasing Index.
func TestJoinDecodeErrors(t *testing.T) {
	bad := errors.New("bad")
	low := &DecodeError{Pages: []*PageError{{Index: 2, Err: bad}, {Index: 7, Err: bad}}}
	high := &DecodeError{Pages: []*PageError{{Index: 0, Err: bad}, {Index: 4, Err: bad}}}
	var de *DecodeError
	if !errors.As(joinDecodeErrors(low, high, 10), &de) {
		t.Fatal("no *DecodeError")
	}
	var got []int
	for _, p := range de.Pages {
		got = append(got, p.Index)
	}
	if want := []int{2, 7, 10, 14}; !slices.Equal(got, want) {
		t.Errorf("pages %v, want %v", got, want)
	}
	if err := joinDecodeErrors(nil, nil, 5); err != nil {
		t.Errorf("no failed page: %v", err)
	}
	if !errors.As(joinDecodeErrors(nil, &DecodeError{Pages: []*PageError{{Index: 1, Err: bad}}}, 5), &de) || de.Pages[0].Index != 6 {
		t.Errorf("the CPU's page 1 of a batch shared at 5: %v", de)
	}
}

// Checks API-29, API-15 without a GPU: on a Compressor whose device pool
// has a fake engine, a shared batch gives the devices its first pages, the
// share's, and the workers the others, with the CPU's pages and
// *DecodeError whatever the share; after a fault the CPU decodes the
// devices' pages too, counted in GPUFallbacks.
func TestDecompressSharedFake(t *testing.T) {
	c, p, fakes := fakeCompressor(1)
	n := 4000
	_, comp := decodeBatch(t, c, n)
	want, wantErr := decodeOnCPUBackend(comp)
	got := make([]Page, n)
	for round := range 3 {
		g := c.share.split(n)
		before := c.Stats().Devices[0].PagesDecoded
		clear(got)
		sameDecode(t, fmt.Sprintf("round %d", round), got, want, c.decompressShared(p, comp, got, nil), wantErr)
		if d := c.Stats().Devices[0].PagesDecoded - before; d != uint64(g) || g <= 0 || g >= n {
			t.Errorf("round %d: the device decoded %d pages, the share %d of %d", round, d, g, n)
		}
	}
	fakes[0].mu.Lock()
	fakes[0].fault = gpuimpl.ErrFault
	fakes[0].mu.Unlock()
	clear(got)
	sameDecode(t, "a fault", got, want, c.decompressShared(p, comp, got, nil), wantErr)
	if s := c.Stats(); s.GPUFallbacks != 1 {
		t.Errorf("GPUFallbacks %d after a fault, want 1", s.GPUFallbacks)
	}
}
