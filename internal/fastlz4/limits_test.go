package fastlz4

import (
	"bytes"
	"errors"
	"testing"
)

// Blocks take 0 to 65,535 bytes, as the reference's do: one byte more is
// ErrTooLarge with nothing written, from the package-level call and from
// an Encoder.
func TestCompressBlockSizeLimit(t *testing.T) {
	src := make([]byte, MaxBlockSize+1)
	noise(src, 3)
	dst := make([]byte, CompressBlockBound(len(src)))
	for name, compress := range map[string]func(dst, src []byte) (int, error){
		"CompressBlock": CompressBlock, "Encoder": new(Encoder).CompressBlock,
	} {
		clear(dst)
		if n, err := compress(dst, src); !errors.Is(err, ErrTooLarge) || n != 0 {
			t.Errorf("%s of %d bytes: %d, %v; want 0, ErrTooLarge", name, len(src), n, err)
		}
		if !bytes.Equal(dst, make([]byte, len(dst))) {
			t.Fatalf("%s: ErrTooLarge with bytes written", name)
		}
		n, err := compress(dst, src[:MaxBlockSize])
		back := make([]byte, MaxBlockSize)
		if m, derr := DecompressBlock(back, dst[:n]); err != nil || derr != nil || m != MaxBlockSize || !bytes.Equal(back, src[:MaxBlockSize]) {
			t.Errorf("%s: round trip of %d bytes: %v, %v", name, MaxBlockSize, err, derr)
		}
	}
}
