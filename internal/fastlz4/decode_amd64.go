//go:build amd64 && gc && !purego

package fastlz4

// useFast says whether DecompressBlock runs decodeFast, whose copies of
// matches at offsets below 16 need SSSE3's PSHUFB. Tests clear it to run
// the Go path alone.
var useFast = hasSSSE3()

// decodeFast decodes the sequences of src from in, writing dst from out,
// and returns the start of the first sequence it did not decode, or the
// end of the block and last = true when it decoded the last sequence. It
// needs fastSrcRoom bytes of src and fastDstRoom bytes of dst left to
// start. decode_amd64.s states what it reads and writes.
//
//go:noescape
func decodeFast(dst, src []byte, in, out int) (nin, nout int, last bool)

func hasSSSE3() bool
