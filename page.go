package lz4warp

import (
	"fmt"

	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/reference"
)

// CompressPage compresses one page with the fast codec on the calling
// goroutine, for callers that handle pages one at a time, such as a swap
// device's fault path (API-24). The result's kind and payload are those of
// every backend (API-16). Its Data is dst[:n] when cap(dst) >= PageSize,
// and newly allocated otherwise: with a large enough dst, CompressPage
// allocates nothing. It is safe for concurrent use.
func CompressPage(dst []byte, page *Page) CompressedPage {
	if cap(dst) < reference.PageBound {
		dst = make([]byte, reference.PageBound)
	}
	dst = dst[:reference.PageBound]
	kind, n := fastlz4.EncodePage(dst, page)
	return CompressedPage{Kind: PageKind(kind), Data: dst[:n]}
}

// DecompressPage restores one page into dst with the fast codec, accepting
// exactly the payloads DecompressBatch accepts (API-24). A payload that does
// not decode is an error matching ErrCorrupt; dst's content is then
// undefined. It allocates nothing but an error, and is safe for concurrent
// use.
func DecompressPage(cp CompressedPage, dst *Page) error {
	if err := fastlz4.DecodePage(dst, reference.Kind(cp.Kind), cp.Data); err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return nil
}
