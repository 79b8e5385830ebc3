//go:build amd64 && gc && !purego

package fastlz4

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/lz4warp/lz4warp/reference"
)

// Checks PAGE-3: the AVX2 same-filled check agrees with the portable one
// and the reference on pages that repeat a word, with one byte changed at
// any place or none, and on pages of any bytes.
func TestSameFilledAVX2MatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	rapid.Check(t, func(t *rapid.T) {
		var page [PageSize]byte
		if rapid.Bool().Draw(t, "repeat") {
			word := rapid.SliceOfN(rapid.Byte(), 8, 8).Draw(t, "word")
			for i := range page {
				page[i] = word[i%8]
			}
			if rapid.Bool().Draw(t, "change") {
				page[rapid.IntRange(0, PageSize-1).Draw(t, "at")] ^= rapid.ByteRange(1, 255).Draw(t, "bits")
			}
		} else {
			copy(page[:], rapid.SliceOfN(rapid.Byte(), PageSize, PageSize).Draw(t, "page"))
		}
		got, want := sameFilledAVX2(&page), sameFilledGo(&page)
		if got != want || want != reference.IsSameFilled(&page) {
			t.Fatalf("AVX2 %v, Go %v, reference %v", got, want, reference.IsSameFilled(&page))
		}
	})
}

// Checks PARSE-2: the AVX2 clear leaves every entry of the table 0, the
// state each block starts from, where no position has a candidate yet.
func TestClearTableAVX2(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	var e Encoder
	table, link := e.tables(PageSize)
	for i := range table {
		table[i] = uint16(i) | 1
	}
	link[0] = 7
	clearTableAVX2(table)
	for i, v := range table {
		if v != 0 {
			t.Fatalf("table[%d] = %d after the clear", i, v)
		}
	}
	if link[0] != 7 {
		t.Fatal("the clear wrote past the table")
	}
}

// Checks PAGE-3: the AVX2 fill of a same-filled page gives the portable
// fill's bytes, for the zero word and any other, and writes nothing
// outside the page.
func TestFillPageAVX2MatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	rapid.Check(t, func(t *rapid.T) {
		word := rapid.OneOf(rapid.Just(uint64(0)), rapid.Uint64()).Draw(t, "word")
		var got struct {
			before [64]byte
			page   [PageSize]byte
			after  [64]byte
		}
		for i := range got.before {
			got.before[i], got.after[i] = guard, guard
		}
		var want [PageSize]byte
		fillPageAVX2(&got.page, word)
		fillPageGo(&want, word)
		if got.page != want {
			t.Fatalf("word %#x: AVX2 and Go fills differ", word)
		}
		for i := range got.before {
			if got.before[i] != guard || got.after[i] != guard {
				t.Fatalf("word %#x: the fill wrote outside the page", word)
			}
		}
	})
}
