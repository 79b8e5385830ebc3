package reference

import (
	"bytes"
	"errors"
	"testing"

	"github.com/pierrec/lz4/v4"
)

// guardLen bytes after every fuzzed destination catch writes past its end.
const guardLen = 64

const guardByte = 0xa7

// fuzzSeedInputs are plain inputs whose canonical blocks seed the corpora:
// every sequence shape the encoder produces.
func fuzzSeedInputs() [][]byte {
	seeds := [][]byte{
		nil,
		[]byte("a"),
		[]byte("aaaaaaaaaaaa"),
		[]byte("aaaaaaaaaaaaa"),
		[]byte("abcdabcdabcdabcdabcd"),
		[]byte("0123456789abcde"),
		bytes.Repeat([]byte("x"), 300),
		bytes.Repeat([]byte("the quick brown fox "), 40),
		make([]byte, 4096),
	}
	for _, p := range goldenPages() {
		seeds = append(seeds, p[:])
	}
	// A match at the largest offset a block allows.
	far := make([]byte, MaxBlockSize)
	fillNoise(far, 5)
	copy(far[MaxBlockSize-40:], far[:30])
	seeds = append(seeds, far)
	return seeds
}

func fillNoise(b []byte, seed uint32) {
	x := seed | 1
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
}

func mustCompress(tb testing.TB, src []byte) []byte {
	dst := make([]byte, CompressBlockBound(len(src)))
	n, err := CompressBlock(dst, src)
	if err != nil {
		tb.Fatalf("CompressBlock(%d bytes): %v", len(src), err)
	}
	return dst[:n]
}

// checkEndOfBlock walks the sequences of a canonical block of an n-byte
// input and checks PARSE-6: no match starts after n-12, the last 5 bytes
// are literals, and the block ends with a literals-only sequence.
func checkEndOfBlock(block []byte, n int) error {
	in, out := 0, 0
	for {
		token := block[in]
		in++
		lit, next, err := readLength(block, in, int(token>>4))
		if err != nil {
			return err
		}
		in = next + lit
		out += lit
		if in == len(block) {
			if n >= MFLimit+1 && lit < LastLiterals {
				return errors.New("fewer than 5 final literals")
			}
			if out != n {
				return errors.New("block does not cover the input")
			}
			return nil
		}
		in += 2
		ml, next, err := readLength(block, in, int(token&15))
		if err != nil {
			return err
		}
		in = next
		if out > n-MFLimit {
			return errors.New("a match starts after n-12")
		}
		out += ml + MinMatch
		if out > n-LastLiterals {
			return errors.New("a match reaches into the last 5 bytes")
		}
	}
}

// FuzzDecompressBlock: any block and any destination size give an error or
// an output inside dst, never a panic; the reference agrees with
// pierrec/lz4 on what both accept; and the fuzz input, taken as data,
// round-trips through CompressBlock.
func FuzzDecompressBlock(f *testing.F) { // Checks PAGE-6, PARSE-6.
	for _, s := range fuzzSeedInputs() {
		if len(s) <= 8192 {
			f.Add(mustCompress(f, s), uint16(len(s)))
		}
		f.Add(s, uint16(4096))
	}
	f.Add([]byte{0x10, 'a', 0x00, 0x00}, uint16(16))               // offset 0
	f.Add([]byte{0x10, 'a', 0x02, 0x00}, uint16(16))               // offset before the start
	f.Add([]byte{0xf0, 0xff, 0xff, 0xff}, uint16(65535))           // literal length runs off the end
	f.Add([]byte{0x1f, 'a', 0x01, 0x00, 0xff, 0xff}, uint16(1000)) // match length runs off the end
	f.Add([]byte{0x00}, uint16(0))
	f.Add([]byte{}, uint16(0))

	f.Fuzz(func(t *testing.T, src []byte, size uint16) {
		orig := bytes.Clone(src)
		buf := make([]byte, int(size)+guardLen)
		for i := range buf {
			buf[i] = guardByte
		}
		dst := buf[:size:size]
		n, err := DecompressBlock(dst, src)
		if err != nil && n != 0 {
			t.Fatalf("error %v with %d bytes reported", err, n)
		}
		if n < 0 || n > int(size) {
			t.Fatalf("%d bytes reported for a %d-byte dst", n, size)
		}
		for i := int(size); i < len(buf); i++ {
			if buf[i] != guardByte {
				t.Fatalf("write past dst at offset %d", i)
			}
		}
		if !bytes.Equal(src, orig) {
			t.Fatal("src modified")
		}
		// Both ways against pierrec/lz4: a block the reference accepts,
		// pierrec decodes to the same bytes, and a block pierrec accepts,
		// the reference accepts too. Where the format leaves a decoder
		// free they differ, and only there: pierrec refuses a zero-length
		// destination and a last token whose match length is not 0 (the
		// reference, like liblz4, ignores it: no offset follows), and
		// accepts a block that ends with a match (the reference holds the
		// format's rule that the last sequence is literals only).
		other := make([]byte, size)
		m, perr := lz4.UncompressBlock(src, other)
		end := blockEnd(src)
		switch {
		case err == nil && perr != nil && size != 0 && end != endMatchNibble:
			t.Fatalf("the reference decodes %d bytes, pierrec fails: %v", n, perr)
		case err == nil && perr == nil && (m != n || !bytes.Equal(other[:m], dst[:n])):
			t.Fatalf("pierrec decodes %d bytes, reference %d, contents differ: %v", m, n, !bytes.Equal(other[:min(m, n)], dst[:min(m, n)]))
		case err != nil && perr == nil && end != endMatch:
			t.Fatalf("pierrec decodes %d bytes, the reference fails: %v", m, err)
		}

		// The input as data: the canonical block round-trips, obeys the
		// end-of-block rules and decodes with pierrec/lz4.
		if len(src) > MaxBlockSize {
			return
		}
		block := mustCompress(t, src)
		if err := checkEndOfBlock(block, len(src)); err != nil {
			t.Fatalf("canonical block of %d bytes: %v", len(src), err)
		}
		back := make([]byte, len(src)+guardLen)
		n, err = DecompressBlock(back[:len(src)], block)
		if err != nil || n != len(src) || !bytes.Equal(back[:n], src) {
			t.Fatalf("round trip: %d of %d bytes, %v", n, len(src), err)
		}
		if len(src) > 0 { // pierrec rejects a zero-length destination
			m, err := lz4.UncompressBlock(block, back[:len(src)])
			if err != nil || m != len(src) || !bytes.Equal(back[:m], src) {
				t.Fatalf("pierrec round trip: %d of %d bytes, %v", m, len(src), err)
			}
		}
	})
}

// FuzzDecodePage: any kind and payload give an error or a valid page,
// never a panic; a page that decodes is what its kind says; and the fuzz
// input, made into a page, round-trips through EncodePage.
func FuzzDecodePage(f *testing.F) { // Checks PAGE-3, PAGE-5, PAGE-6.
	for _, p := range goldenPages() {
		var payload [PageBound]byte
		kind, n := EncodePage(payload[:], p)
		f.Add(uint8(kind), bytes.Clone(payload[:n]))
		f.Add(uint8(KindLZ4), mustCompress(f, p[:]))
	}
	f.Add(uint8(KindSame), []byte("12345678"))
	f.Add(uint8(KindSame), []byte("1234567"))
	f.Add(uint8(KindRaw), make([]byte, PageSize))
	f.Add(uint8(KindRaw), make([]byte, PageSize-1))
	f.Add(uint8(KindLZ4), mustCompress(f, make([]byte, PageSize-1)))
	f.Add(uint8(KindLZ4), mustCompress(f, make([]byte, PageSize+1)))
	f.Add(uint8(0), []byte{})
	f.Add(uint8(4), make([]byte, 8))

	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		var page [PageSize]byte
		for i := range page {
			page[i] = guardByte
		}
		err := DecodePage(&page, Kind(kind), data)
		if err == nil {
			switch Kind(kind) {
			case KindSame:
				if len(data) != SameWordSize || !IsSameFilled(&page) || !bytes.Equal(page[:8], data) {
					t.Fatalf("same-filled page from %d bytes is not filled with them", len(data))
				}
			case KindRaw:
				if !bytes.Equal(page[:], data) {
					t.Fatal("raw page differs from its payload")
				}
			case KindLZ4:
				buf := make([]byte, PageSize+guardLen)
				n, err := DecompressBlock(buf, data)
				if err != nil || n != PageSize || !bytes.Equal(buf[:n], page[:]) {
					t.Fatalf("accepted LZ4 page: block decodes to %d bytes, %v", n, err)
				}
			default:
				t.Fatalf("kind %d accepted", kind)
			}
		}

		// The input as a page: tiled to fill it, so that short inputs
		// give compressible pages.
		if len(data) == 0 {
			return
		}
		var in [PageSize]byte
		for i := 0; i < PageSize; i += len(data) {
			copy(in[i:], data)
		}
		var payload [PageBound]byte
		k, n := EncodePage(payload[:], &in)
		switch {
		case k == KindSame && (!IsSameFilled(&in) || n != SameWordSize):
			t.Fatal("same-filled payload for a page that is not")
		case k != KindSame && IsSameFilled(&in):
			t.Fatal("same-filled page stored as", k)
		case k == KindLZ4 && n >= RawThreshold:
			t.Fatalf("LZ4 payload of %d bytes", n)
		case k == KindRaw && len(mustCompress(t, in[:])) < RawThreshold:
			t.Fatal("page stored raw although its block is below the threshold")
		}
		var out [PageSize]byte
		if err := DecodePage(&out, k, payload[:n]); err != nil || out != in {
			t.Fatalf("page round trip (%s, %d bytes): %v", k, n, err)
		}
		if k == KindLZ4 {
			m, err := lz4.UncompressBlock(payload[:n], out[:])
			if err != nil || m != PageSize || out != in {
				t.Fatalf("pierrec decodes the page to %d bytes: %v", m, err)
			}
		}
	})
}

// How the sequences of a block end, read without any check but their
// lengths.
const (
	endUnreadable  = iota
	endLiterals    // a last token with literals only
	endMatchNibble // a last token with literals and a match length, no offset
	endMatch       // a match right at the end
)

func blockEnd(block []byte) int {
	in := 0
	for in < len(block) {
		token := block[in]
		lit, next, err := readLength(block, in+1, int(token>>4))
		if err != nil || lit > len(block)-next {
			return endUnreadable
		}
		in = next + lit
		if in == len(block) {
			if token&15 != 0 {
				return endMatchNibble
			}
			return endLiterals
		}
		if len(block)-in < 2 {
			return endUnreadable
		}
		_, next, err = readLength(block, in+2, int(token&15))
		if err != nil {
			return endUnreadable
		}
		in = next
	}
	return endMatch
}
