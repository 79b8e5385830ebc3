package fastlz4_test

import (
	"bytes"
	"fmt"

	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/reference"
)

func ExampleEncodePage() {
	var page [fastlz4.PageSize]byte
	copy(page[:], bytes.Repeat([]byte("a page of memory, "), 100))

	var dst, want [fastlz4.PageBound]byte
	kind, n := fastlz4.EncodePage(dst[:], &page)
	refKind, m := reference.EncodePage(want[:], &page)
	fmt.Println(kind, n, "bytes; same as the reference:", kind == refKind && bytes.Equal(dst[:n], want[:m]))

	var back [fastlz4.PageSize]byte
	err := fastlz4.DecodePage(&back, kind, dst[:n])
	fmt.Println("round trip:", err == nil && back == page)
	// Output:
	// lz4 48 bytes; same as the reference: true
	// round trip: true
}
