package lz4frame_test

import (
	"bytes"
	"fmt"
	"io"

	"github.com/lz4warp/lz4warp/internal/lz4frame"
	"github.com/lz4warp/lz4warp/reference"
)

// A frame of two blocks: one compressed with the canonical parse, one
// stored; any LZ4 reader restores the data.
func Example() {
	text := bytes.Repeat([]byte("lz4warp "), 512) // 4,096 bytes
	var frame bytes.Buffer
	w := lz4frame.NewWriter(&frame, lz4frame.WriterOptions{})
	block := make([]byte, reference.CompressBlockBound(len(text)))
	n, _ := reference.CompressBlock(block, text)
	w.WriteBlock(text, block[:n])
	w.WriteBlock([]byte("stored as is"), nil)
	w.Close()

	out, err := io.ReadAll(lz4frame.NewReader(&frame))
	fmt.Println(len(out), err, bytes.Equal(out[:4096], text), string(out[4096:]))
	// Output: 4108 <nil> true stored as is
}

// Errors give the byte offset of the faulty element.
func ExampleError() {
	var frame bytes.Buffer
	w := lz4frame.NewWriter(&frame, lz4frame.WriterOptions{})
	w.WriteBlock([]byte("some data"), nil)
	w.Close()
	_, err := io.ReadAll(lz4frame.NewReader(bytes.NewReader(frame.Bytes()[:12])))
	fmt.Println(err)
	// Output: lz4warp: truncated input at byte offset 7: block of 9 bytes cut short: the input ends at byte 12
}
