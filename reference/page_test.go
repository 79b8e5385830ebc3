package reference

import (
	"bytes"
	"testing"
)

// Checks PAGE-2: the kinds' codes are part of the format (every backend and
// the GPU kernels share them), so a page is decoded by its numeric code.
func TestKindCodes(t *testing.T) {
	page := make([]byte, PageSize)
	fillNoise(page, 3)
	word := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	block := mustCompress(t, make([]byte, PageSize))
	for _, c := range []struct {
		code uint8
		name string
		data []byte
		want []byte
	}{
		{1, "same", word, bytes.Repeat(word, PageSize/len(word))},
		{2, "lz4", block, make([]byte, PageSize)},
		{3, "raw", page, page},
	} {
		if got := Kind(c.code).String(); got != c.name {
			t.Errorf("Kind(%d) is %q, want %q", c.code, got, c.name)
		}
		var out [PageSize]byte
		if err := DecodePage(&out, Kind(c.code), c.data); err != nil || !bytes.Equal(out[:], c.want) {
			t.Errorf("code %d (%s): %v, or the page differs", c.code, c.name, err)
		}
	}
	if got := Kind(0).String(); got != "Kind(0)" {
		t.Errorf("Kind(0) is %q", got)
	}
}
