package reference_test

import (
	"bytes"
	"fmt"

	"github.com/lz4warp/lz4warp/reference"
)

func ExampleCompressBlock() {
	src := []byte("abcdabcdabcdabcdabcd")
	dst := make([]byte, reference.CompressBlockBound(len(src)))
	n, err := reference.CompressBlock(dst, src)
	if err != nil {
		panic(err)
	}
	// One sequence: 4 literals, a match of 11 at offset 4; then 5 literals.
	fmt.Printf("%d bytes: % x\n", n, dst[:n])
	// Output:
	// 13 bytes: 47 61 62 63 64 04 00 50 64 61 62 63 64
}

func ExampleDecompressBlock() {
	block := []byte{0x47, 'a', 'b', 'c', 'd', 0x04, 0x00, 0x50, 'd', 'a', 'b', 'c', 'd'}
	dst := make([]byte, 64)
	n, err := reference.DecompressBlock(dst, block)
	fmt.Printf("%q %v\n", dst[:n], err)

	// A corrupt block is an error, never a panic: offset 9 points before
	// the start of the output.
	_, err = reference.DecompressBlock(dst, []byte{0x10, 'a', 0x09, 0x00})
	fmt.Println(err)
	// Output:
	// "abcdabcdabcdabcdabcd" <nil>
	// reference: corrupt LZ4 block
}

func ExampleParse() {
	for _, s := range reference.Parse([]byte("abcdabcdabcdabcdabcd")) {
		fmt.Printf("%+v\n", s)
	}
	// Output:
	// {LiteralLen:4 Offset:4 MatchLen:11}
	// {LiteralLen:5 Offset:0 MatchLen:0}
}

func ExampleEncodePage() {
	var page [reference.PageSize]byte
	dst := make([]byte, reference.PageBound)

	kind, n := reference.EncodePage(dst, &page) // all zero
	fmt.Println(kind, n)

	copy(page[:], bytes.Repeat([]byte("text that repeats "), 200)) // 3,600 bytes, then zeros
	kind, n = reference.EncodePage(dst, &page)
	fmt.Println(kind, n)
	// Output:
	// same 8
	// lz4 48
}

func ExampleDecodePage() {
	var page [reference.PageSize]byte
	copy(page[:], bytes.Repeat([]byte("text that repeats "), 200)) // 3,600 bytes, then zeros
	payload := make([]byte, reference.PageBound)
	kind, n := reference.EncodePage(payload, &page)

	var restored [reference.PageSize]byte
	err := reference.DecodePage(&restored, kind, payload[:n])
	fmt.Println(err, restored == page)

	err = reference.DecodePage(&restored, reference.KindRaw, payload[:n])
	fmt.Println(err)
	// Output:
	// <nil> true
	// reference: invalid compressed page: raw payload of 48 bytes, want 4096
}
