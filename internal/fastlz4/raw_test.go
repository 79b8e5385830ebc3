package fastlz4

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/reference"
)

// Checks PAGE-5, PARSE-8: EncodePage stores a page raw without parsing it
// only where the reference stores it raw too, on pages of noise with
// copies of earlier stretches of any length and runs of one byte (which
// bring the block near RawThreshold from either side); and where the
// proof holds, the page's stored bytes are the reference's.
func TestCertainlyRawOnlyWhereRaw(t *testing.T) {
	var s seenKeys
	proved := 0
	rapid.Check(t, func(t *rapid.T) {
		var page [PageSize]byte
		noise(page[:], rapid.Uint64().Draw(t, "seed"))
		for range rapid.IntRange(0, 8).Draw(t, "copies") {
			n := rapid.IntRange(1, 1200).Draw(t, "len")
			to := rapid.IntRange(1, PageSize-n).Draw(t, "to")
			if rapid.Bool().Draw(t, "run") {
				b := rapid.Byte().Draw(t, "byte")
				for i := to; i < to+n; i++ {
					page[i] = b
				}
				continue
			}
			from := rapid.IntRange(0, to-1).Draw(t, "from")
			for i := range n { // overlapping copies repeat a pattern, as LZ4 does
				page[to+i] = page[from+i]
			}
		}
		if !s.certainlyRaw(&page) {
			return
		}
		proved++
		if kind, _ := reference.EncodePage(make([]byte, PageBound), &page); kind != KindRaw {
			t.Fatalf("proved raw, but the reference stores a %v page", kind)
		}
		encodeBoth(t, "proved raw", &page)
	})
	if proved == 0 {
		t.Fatal("no page proved raw: the check above checked nothing")
	}
}

// Checks PAGE-5: the bound the raw-page proof rests on (raw.go), the
// canonical block of a page at least PageSize+1-2R bytes long, R the
// positions whose two bytes occur at an earlier even position (counted
// exactly here, with no keys), on pages of noise with copies of earlier
// stretches at odd and even offsets, short ones (4 to 8 bytes, where the
// bound is tightest) and long ones, and runs of one byte.
func TestRawBoundHolds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var page [PageSize]byte
		noise(page[:], rapid.Uint64().Draw(t, "seed"))
		for range rapid.IntRange(0, 400).Draw(t, "copies") {
			n := rapid.IntRange(1, 8).Draw(t, "len")
			if rapid.IntRange(0, 9).Draw(t, "long") == 0 {
				n = rapid.IntRange(9, 600).Draw(t, "longLen")
			}
			to := rapid.IntRange(1, PageSize-n).Draw(t, "to")
			if rapid.IntRange(0, 9).Draw(t, "run") == 0 {
				b := rapid.Byte().Draw(t, "byte")
				for i := to; i < to+n; i++ {
					page[i] = b
				}
				continue
			}
			from := rapid.IntRange(max(0, to-300), to-1).Draw(t, "from")
			for i := range n {
				page[to+i] = page[from+i]
			}
		}
		var atEven [1 << 16]bool
		repeats := 0
		for x := range PageSize - 1 {
			w := uint16(page[x]) | uint16(page[x+1])<<8
			if atEven[w] {
				repeats++
			}
			if x%2 == 0 {
				atEven[w] = true
			}
		}
		n, err := reference.CompressBlock(make([]byte, reference.CompressBlockBound(PageSize)), page[:])
		if err != nil {
			t.Fatal(err)
		}
		if n < PageSize+1-2*repeats {
			t.Fatalf("block of %d bytes with %d repeats: below the bound %d", n, repeats, PageSize+1-2*repeats)
		}
	})
}

// Checks PAGE-5: on the data sets (and the corpora where LZ4WARP_CORPUS
// names them), every page proved raw is raw for the reference, and the
// proof holds for nearly every random page, which it is there for.
func TestCertainlyRawOnDatasets(t *testing.T) {
	names, _ := dataset.Corpora()
	for _, name := range append(dataset.Names(), names...) {
		pages, err := dataset.Load(name, 512)
		if err != nil {
			t.Logf("%s: %v", name, err)
			continue
		}
		var s seenKeys
		proved := 0
		for i := range pages {
			if IsSameFilled(&pages[i]) || !s.certainlyRaw(&pages[i]) {
				continue
			}
			proved++
			if kind, _ := reference.EncodePage(make([]byte, PageBound), &pages[i]); kind != KindRaw {
				t.Fatalf("%s page %d: proved raw, but the reference stores a %v page", name, i, kind)
			}
		}
		t.Logf("%s: %d of %d pages proved raw", name, proved, len(pages))
		if name == "random" && proved < len(pages)*99/100 {
			t.Errorf("random: only %d of %d pages proved raw", proved, len(pages))
		}
	}
}

// Checks PAGE-5: the proof's marks start afresh with each page, also when
// their generation wraps around: over 1,200 pages (four wraps), the fresh
// positions counted with the marks that the pages before left are those
// counted with no marks at all, for a page of noise (proved raw every time) and
// for one whose first 128 bytes of noise repeat, which passes the first
// look and the probe and is LZ4 (never proved raw).
func TestCertainlyRawGenerations(t *testing.T) {
	var noisy, periodic [PageSize]byte
	noise(noisy[:], 1)
	noise(periodic[:128], 2)
	for i := 128; i < PageSize; i++ {
		periodic[i] = periodic[i-128]
	}
	if kind, _ := reference.EncodePage(make([]byte, PageBound), &periodic); kind != KindLZ4 {
		t.Fatalf("the periodic page is %v for the reference", kind)
	}
	var s seenKeys
	for i := range 600 {
		for _, page := range []*[PageSize]byte{&noisy, &periodic} {
			want := new(seenKeys).freshPositions(page)
			if got := s.freshPositions(page); got != want || want < 0 {
				t.Fatalf("page %d (generation %d): %d fresh positions, %d with no marks left", i, s.gen, got, want)
			}
			if proved := s.certainlyRaw(page); proved != (page == &noisy) {
				t.Fatalf("page %d (generation %d): proved raw %v", i, s.gen, proved)
			}
		}
	}
}
