package lz4warp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/lz4warp/lz4warp/reference"
)

// encodeFuzzBatch writes a batch as the fuzz input format decodeFuzzBatch
// reads: per page a kind byte, a 16-bit little-endian length, the payload.
func encodeFuzzBatch(pages []CompressedPage) []byte {
	var b []byte
	for _, p := range pages {
		b = append(b, byte(p.Kind))
		b = binary.LittleEndian.AppendUint16(b, uint16(len(p.Data)))
		b = append(b, p.Data...)
	}
	return b
}

func decodeFuzzBatch(b []byte) []CompressedPage {
	var pages []CompressedPage
	for len(b) >= 3 && len(pages) < 64 {
		kind, n := PageKind(b[0]), int(binary.LittleEndian.Uint16(b[1:]))
		b = b[3:]
		n = min(n, len(b))
		pages = append(pages, CompressedPage{Kind: kind, Data: b[:n:n]})
		b = b[n:]
	}
	return pages
}

// FuzzDecompressBatch: any batch gives nil or a *DecodeError that lists
// exactly the pages the reference decoder rejects; every other page is
// decoded as the reference decodes it; nothing past the batch in dst is
// touched; nothing panics. DecompressPage accepts and rejects each page as
// the batch does.
func FuzzDecompressBatch(f *testing.F) { // Checks API-12, API-24, PAGE-6.
	pages, _ := apiTestPages(f)
	c, err := NewCompressor(DefaultConfig())
	if err != nil {
		f.Fatal(err)
	}
	defer c.Close()
	res, err := c.CompressBatch(pages)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(encodeFuzzBatch(res.Pages))
	f.Add(encodeFuzzBatch(res.Pages[:5])) // SIMD-sized
	f.Add(encodeFuzzBatch(res.Pages[2:4]))
	broken := append([]CompressedPage(nil), res.Pages...)
	broken[1] = CompressedPage{Kind: KindSame, Data: []byte{1, 2, 3}}
	broken[2].Data = broken[2].Data[:10]
	broken[4] = CompressedPage{Kind: 0, Data: nil}
	f.Add(encodeFuzzBatch(broken))
	f.Add([]byte{})

	f.Fuzz(func(t *testing.T, data []byte) {
		batch := decodeFuzzBatch(data)
		dst := make([]Page, len(batch)+1)
		for i := range dst {
			for j := range dst[i] {
				dst[i][j] = 0xa7
			}
		}
		guard := dst[len(batch)]
		err := c.DecompressBatch(batch, dst)

		bad := map[int]bool{}
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) || !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v is not a *DecodeError", err)
			}
			for _, pe := range de.Pages {
				if pe.Index < 0 || pe.Index >= len(batch) || bad[pe.Index] {
					t.Fatalf("page index %d reported (batch of %d, reported before: %v)", pe.Index, len(batch), bad[pe.Index])
				}
				bad[pe.Index] = true
			}
		}
		for i, p := range batch {
			var want Page
			rerr := reference.DecodePage(&want, reference.Kind(p.Kind), p.Data)
			if (rerr != nil) != bad[i] {
				t.Fatalf("page %d: reference error %v, batch reported it: %v", i, rerr, bad[i])
			}
			if rerr == nil && !bytes.Equal(want[:], dst[i][:]) {
				t.Fatalf("page %d decoded differently from the reference", i)
			}
			var one Page
			if perr := DecompressPage(p, &one); (perr != nil) != bad[i] || perr != nil && !errors.Is(perr, ErrCorrupt) {
				t.Fatalf("page %d: DecompressPage error %v, batch reported it: %v", i, perr, bad[i])
			} else if perr == nil && one != want {
				t.Fatalf("page %d: DecompressPage decoded differently from the reference", i)
			}
		}
		if dst[len(batch)] != guard {
			t.Fatal("page past the batch written")
		}
	})
}
