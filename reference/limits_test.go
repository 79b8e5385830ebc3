package reference

import (
	"bytes"
	"encoding/hex"
	"errors"
	"path/filepath"
	"testing"

	"github.com/lz4warp/lz4warp/internal/golden"
	"github.com/pierrec/lz4/v4"
)

// The reference takes inputs of 0 to 65,535 bytes (spec/parse.md), which
// keeps offsets and table entries in 16 bits (PARSE-1, PARSE-4); one byte
// more is ErrTooLarge, with nothing written.
func TestCompressBlockSizeLimit(t *testing.T) {
	src := make([]byte, 65536)
	fillNoise(src, 9)
	dst := make([]byte, CompressBlockBound(len(src)))
	if n, err := CompressBlock(dst, src); !errors.Is(err, ErrTooLarge) || n != 0 {
		t.Fatalf("%d bytes: %d, %v; want 0, ErrTooLarge", len(src), n, err)
	}
	if !bytes.Equal(dst, make([]byte, len(dst))) {
		t.Error("ErrTooLarge with bytes written to dst")
	}
	n, err := CompressBlock(dst, src[:65535])
	if err != nil {
		t.Fatalf("65,535 bytes: %v", err)
	}
	back := make([]byte, 65535)
	if m, err := DecompressBlock(back, dst[:n]); err != nil || m != 65535 || !bytes.Equal(back, src[:65535]) {
		t.Fatalf("round trip of 65,535 bytes: %d, %v", m, err)
	}
}

// thresholdPages are the pages whose canonical blocks take RawThreshold-1
// and RawThreshold bytes: noise, then zeros. The first is the largest LZ4
// page, the second the smallest raw page for its block's size.
func thresholdPages(t *testing.T) (lz4Page, rawPage *[PageSize]byte) {
	t.Helper()
	for k := 2900; k < 3200 && (lz4Page == nil || rawPage == nil); k++ {
		p := new([PageSize]byte)
		fillNoise(p[:k], 17)
		switch len(mustCompress(t, p[:])) {
		case RawThreshold - 1:
			lz4Page = p
		case RawThreshold:
			rawPage = p
		}
	}
	if lz4Page == nil || rawPage == nil {
		t.Fatal("no page with a block of 3,071 or 3,072 bytes")
	}
	return lz4Page, rawPage
}

// Checks PAGE-5: a block of 3,071 bytes is an LZ4 page, one of 3,072 bytes
// makes the page raw; both payloads are pinned by golden files.
func TestGoldenPagesAtRawThreshold(t *testing.T) {
	lz4Page, rawPage := thresholdPages(t)
	for _, c := range []struct {
		name string
		page *[PageSize]byte
		kind Kind
		n    int
	}{
		{"threshold-lz4", lz4Page, KindLZ4, RawThreshold - 1},
		{"threshold-raw", rawPage, KindRaw, PageSize},
	} {
		var dst [PageBound]byte
		kind, n := EncodePage(dst[:], c.page)
		if kind != c.kind || n != c.n {
			t.Errorf("%s: %s page of %d bytes, want %s of %d", c.name, kind, n, c.kind, c.n)
		}
		var back [PageSize]byte
		if err := DecodePage(&back, kind, dst[:n]); err != nil || back != *c.page {
			t.Errorf("%s: round trip: %v", c.name, err)
		}
		got := append([]byte(kind.String()+"\n"), hex.EncodeToString(dst[:n])...)
		golden.Check(t, filepath.Join("testdata", "golden", c.name+".hex"), got)
	}
}

// EncodePage needs a destination of PageBound bytes: one byte less panics,
// whatever the page (an incompressible one would fit but for its last byte).
func TestEncodePageShortDestination(t *testing.T) {
	page := new([PageSize]byte)
	fillNoise(page[:], 23)
	defer func() {
		if recover() == nil {
			t.Error("EncodePage into PageBound-1 bytes did not panic")
		}
	}()
	EncodePage(make([]byte, PageBound-1), page)
}

// Checks PAGE-6: DecodePage's errors name what is wrong: a block longer
// than a page is the decoder's ErrShortBuffer, one shorter ErrCorrupt, a
// payload whose length does not fit its kind, or an unknown kind,
// ErrBadKind.
func TestDecodePageErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		kind Kind
		data []byte
		want error
	}{
		{"block of a page and a byte", KindLZ4, mustCompress(t, make([]byte, PageSize+1)), ErrShortBuffer},
		{"block of a page less a byte", KindLZ4, mustCompress(t, make([]byte, PageSize-1)), ErrCorrupt},
		{"corrupt block", KindLZ4, []byte{0x10, 'a', 0, 0}, ErrCorrupt},
		{"same-filled, 7 bytes", KindSame, make([]byte, 7), ErrBadKind},
		{"raw, a byte short", KindRaw, make([]byte, PageSize-1), ErrBadKind},
		{"kind 0", 0, make([]byte, 8), ErrBadKind},
		{"kind 4", 4, make([]byte, 8), ErrBadKind},
	} {
		var page [PageSize]byte
		if err := DecodePage(&page, c.kind, c.data); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// CompressBlock fits its block into a destination of exactly its length,
// and reports ErrShortBuffer, writing nothing it returns, for one byte less:
// for blocks that end with literals after matches of every length class.
func TestCompressBlockExactDestination(t *testing.T) {
	for _, src := range fuzzSeedInputs() {
		if len(src) > 8192 {
			continue
		}
		block := mustCompress(t, src)
		dst := make([]byte, len(block))
		if n, err := CompressBlock(dst, src); err != nil || n != len(block) || !bytes.Equal(dst, block) {
			t.Errorf("%d bytes into exactly %d: %d, %v", len(src), len(block), n, err)
		}
		if n, err := CompressBlock(dst[:len(block)-1], src); !errors.Is(err, ErrShortBuffer) || n != 0 {
			t.Errorf("%d bytes into %d: %d, %v; want ErrShortBuffer", len(src), len(block)-1, n, err)
		}
	}
}

// CompressBlockBound is liblz4's LZ4_COMPRESSBOUND (n + n/255 + 16), as
// pierrec/lz4 has it, so that buffers sized for either fit the other.
func TestCompressBlockBoundIsLZ4s(t *testing.T) {
	for _, n := range []int{0, 1, 254, 255, 256, 4096, 65535} {
		if got, want := CompressBlockBound(n), lz4.CompressBlockBound(n); got != want {
			t.Errorf("CompressBlockBound(%d) = %d, pierrec's %d", n, got, want)
		}
	}
}
