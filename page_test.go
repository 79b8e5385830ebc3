package lz4warp

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Checks API-24, API-16, PAGE-3, PAGE-4, PAGE-5: CompressPage gives every
// page the reference's kind and payload, in dst when it is large enough and
// in new memory otherwise, and DecompressPage restores it.
func TestCompressPageMatchesReference(t *testing.T) {
	pages, names := apiTestPages(t)
	for i := range pages {
		want := referencePage(&pages[i])
		dst := make([]byte, 0, PageSize)
		got := CompressPage(dst, &pages[i])
		assert.Equal(t, want.Kind, got.Kind, names[i])
		assert.Equal(t, want.Data, got.Data, names[i])
		assert.Same(t, &dst[:1][0], &got.Data[0], "%s: Data is dst[:n]", names[i])
		for _, short := range [][]byte{nil, make([]byte, 100, PageSize-1)} {
			fresh := CompressPage(short, &pages[i])
			assert.Equal(t, want, CompressedPage{Kind: fresh.Kind, Data: bytes.Clone(fresh.Data)}, names[i])
			if cap(short) > 0 {
				assert.NotSame(t, &short[:1][0], &fresh.Data[0], "%s: a short dst is not used", names[i])
			}
		}
		var back Page
		require.NoError(t, DecompressPage(got, &back), names[i])
		assert.Equal(t, pages[i], back, names[i])
	}
}

// Checks API-24: with dst large enough, neither call allocates.
func TestPageCallsAllocateNothing(t *testing.T) {
	pages := loadMixed(t, 64)
	dst := make([]byte, PageSize)
	comp := make([]CompressedPage, len(pages))
	for i := range pages {
		comp[i] = CompressPage(make([]byte, PageSize), &pages[i])
	}
	var back Page
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		k := i % len(pages)
		CompressPage(dst, &pages[k])
		if err := DecompressPage(comp[k], &back); err != nil {
			t.Fatal(err)
		}
		i++
	})
	assert.Zero(t, allocs)
}

// Checks API-24, API-12: a payload that does not decode is an error that
// matches ErrCorrupt, whatever its kind.
func TestDecompressPageErrors(t *testing.T) {
	pages, _ := apiTestPages(t)
	var back Page
	text := CompressPage(nil, &pages[2])
	require.Equal(t, KindLZ4, text.Kind)
	for name, cp := range map[string]CompressedPage{
		"truncated block": {Kind: KindLZ4, Data: text.Data[:len(text.Data)-1]},
		"empty block":     {Kind: KindLZ4},
		"short same word": {Kind: KindSame, Data: []byte{1, 2, 3}},
		"short raw page":  {Kind: KindRaw, Data: make([]byte, PageSize-1)},
		"unknown kind":    {Kind: 9, Data: make([]byte, 8)},
		"kind zero":       {},
	} {
		err := DecompressPage(cp, &back)
		assert.ErrorIs(t, err, ErrCorrupt, name)
	}
}
