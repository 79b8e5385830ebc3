package fastlz4

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/reference"
)

// noise fills b with xorshift bytes from seed, which have no 4-byte repeat
// in practice.
func noise(b []byte, seed uint64) {
	x := seed | 1
	for i := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[i] = byte(x >> 32)
	}
}

// Checks PAGE-5, PARSE-8: pages whose block lands on either side of the raw
// threshold. A page of noise with a run of zeros of every length from 1,000
// to 1,100 bytes compresses to about 3,072 bytes: the encoder must give up
// exactly when the reference's block would reach RawThreshold, whether the
// run comes first, last or in the middle.
func TestEncodePageAtRawThreshold(t *testing.T) {
	kinds := map[Kind]int{}
	for runLen := 1000; runLen <= 1100; runLen++ {
		for _, at := range []int{0, 1500, PageSize - runLen, PageSize - runLen - 5} {
			var page [PageSize]byte
			noise(page[:], uint64(runLen*7+at))
			clear(page[at : at+runLen])
			kind, _ := encodeBoth(t, fmt.Sprintf("run of %d at %d", runLen, at), &page)
			kinds[kind]++
		}
	}
	if kinds[KindLZ4] == 0 || kinds[KindRaw] == 0 {
		t.Fatalf("kinds %v: the pages do not straddle the threshold", kinds)
	}
}

// Checks PARSE-4, PARSE-6, PARSE-8: a repeat that ends at every distance from
// the end of the block, so that matches stop at the last-literals bound and
// the last visited position falls anywhere in a chunk of 64 positions.
func TestCompressBlockMatchesNearTheEnd(t *testing.T) {
	var e Encoder
	for n := 12; n <= 300; n++ {
		for _, from := range []int{0, 3, n / 3} {
			src := make([]byte, n)
			noise(src, uint64(n))
			// Copy the start of src to its end, overlapping when short.
			for i := max(from, n-40); i < n; i++ {
				src[i] = src[i-max(from, n-40)]
			}
			checkBlock(t, &e, src, fmt.Sprintf("n %d from %d", n, from))
		}
	}
}

// Checks PARSE-2, PARSE-6: a word that repeats the block's first word just
// past the last visited position (n - MFLimit) takes no match, whatever the
// length of the block, so that it falls at every place of a chunk of 64
// positions, the last of a whole chunk included; one at the last visited
// position does.
func TestCompressBlockStopsAtTheLastPosition(t *testing.T) {
	var e Encoder
	for n := mfLimit + 4; n <= 400; n++ {
		for _, past := range []int{0, 1, 2} {
			src := make([]byte, n)
			noise(src, uint64(n*3+past))
			at := n - mfLimit + past
			copy(src[at:at+4], src[:4])
			checkBlock(t, &e, src, fmt.Sprintf("n %d, repeat at last+%d", n, past))
		}
	}
}

// Checks PARSE-2, PARSE-4, PARSE-5, PARSE-8: runs with every period from 1
// to 80 bytes and lengths that cross chunks of 64 positions, whose inner
// positions enter the table only in part, followed by data that looks
// candidates up in the table those runs left.
func TestCompressBlockPeriodicRuns(t *testing.T) {
	var e Encoder
	for period := 1; period <= 80; period++ {
		for _, runLen := range []int{period + 3, 63, 64, 65, 130, 700} {
			src := make([]byte, 1200)
			noise(src, uint64(period*1000+runLen))
			start := 17 + period
			for i := start; i < start+runLen; i++ {
				src[i] = src[i-period]
			}
			// After the run: pieces of it again, at offsets the skipped
			// positions would have given.
			copy(src[start+runLen+9:], src[start+1:start+1+period+7])
			copy(src[900:], src[start+runLen-period-3:start+runLen+4])
			checkBlock(t, &e, src, fmt.Sprintf("period %d run %d", period, runLen))
			var page [PageSize]byte
			copy(page[:], src)
			copy(page[2500:], src)
			encodeBoth(t, fmt.Sprintf("page: period %d run %d", period, runLen), &page)
		}
	}
}

// Checks PARSE-5, PARSE-8, PAGE-5: incompressible stretches, where the
// encoder switches to its branchy scan, alternating with compressible ones,
// where it hashes chunks, at every phase relative to the chunks.
func TestEncodePageSparseAndDense(t *testing.T) {
	text := bytes.Repeat([]byte("the page compresses the memory; "), 200)
	for _, noiseLen := range []int{1, 63, 64, 65, 127, 200, 640, 2000, 3100} {
		for _, textLen := range []int{4, 12, 60, 64, 200, 1000} {
			var page [PageSize]byte
			for at, i := 0, 0; at < PageSize; i++ {
				k := min(noiseLen, PageSize-at)
				noise(page[at:at+k], uint64(at+noiseLen))
				at += k
				at += copy(page[at:min(at+textLen, PageSize)], text[i%7:])
			}
			encodeBoth(t, fmt.Sprintf("noise %d text %d", noiseLen, textLen), &page)
		}
	}
}

// checkBlock compresses src with e and with the reference, into a
// destination of the bound and of every size near the block's length, and
// fails on any difference.
func checkBlock(t *testing.T, e *Encoder, src []byte, what string) {
	t.Helper()
	want := make([]byte, CompressBlockBound(len(src)))
	wn, err := reference.CompressBlock(want, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{len(want), wn + 1, wn, wn - 1, wn - 2} {
		if size < 0 {
			continue
		}
		got := make([]byte, size)
		gn, gerr := e.CompressBlock(got, src)
		switch {
		case size >= wn && (gerr != nil || !bytes.Equal(got[:gn], want[:wn])):
			t.Fatalf("%s, dst %d: %d bytes, %v; want the reference's %d bytes", what, size, gn, gerr, wn)
		case size < wn && (!errors.Is(gerr, ErrShortBuffer) || gn != 0):
			t.Fatalf("%s, dst %d: %d, %v; want 0, ErrShortBuffer for a block of %d bytes", what, size, gn, gerr, wn)
		}
	}
}

// Checks PARSE-8: CompressBlock gives the reference's block, or
// ErrShortBuffer exactly when the reference does, for pages of the
// compressible data sets and every destination size from 0 to the bound.
// The block stops fitting at every point of the parse in turn, so the
// assembly loop hands its state to the Go loop at each of them, often
// with the chunk past the current one hashed already.
func TestCompressBlockEveryDstLen(t *testing.T) {
	var e Encoder
	for _, name := range []string{dataset.Text, dataset.Binaries, dataset.Mixed} {
		pages, err := dataset.Load(name, 8)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := range pages {
			compareDstLens(t, &e, fmt.Sprintf("%s page %d", name, i), pages[i][:])
		}
	}
}

// compareDstLens compares e.CompressBlock with the reference on src for
// every destination size from 0 to the bound.
func compareDstLens(t *testing.T, e *Encoder, what string, src []byte) {
	t.Helper()
	bound := CompressBlockBound(len(src))
	want := make([]byte, bound)
	got := make([]byte, bound)
	wn, werr := reference.CompressBlock(want, src)
	if werr != nil {
		t.Fatalf("%s: %v", what, werr)
	}
	for size := 0; size <= bound; size++ {
		gn, gerr := e.CompressBlock(got[:size], src)
		switch {
		case size < wn && (!errors.Is(gerr, ErrShortBuffer) || gn != 0):
			t.Fatalf("%s, dst %d: %d, %v; want 0, ErrShortBuffer: the block needs %d", what, size, gn, gerr, wn)
		case size >= wn && (gerr != nil || !bytes.Equal(got[:gn], want[:wn])):
			t.Fatalf("%s, dst %d: %d bytes, %v; want the reference's %d", what, size, gn, gerr, wn)
		}
	}
}
