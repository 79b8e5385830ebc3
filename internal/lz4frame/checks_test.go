package lz4frame

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/lz4warp/lz4warp/internal/xxh32"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/lz4warp/lz4warp/reference"
)

// wantError requires err to be an *Error wrapping sentinel at offset.
func wantError(t *testing.T, what string, err, sentinel error, offset int64) {
	t.Helper()
	var fe *Error
	if !errors.As(err, &fe) || !errors.Is(err, sentinel) || fe.Offset != offset {
		t.Errorf("%s: %v; want %v at byte offset %d", what, err, sentinel, offset)
	}
}

// Checks CLI-6: in a frame with block checksums, a changed byte of a
// block's data or of its checksum is ErrChecksum at the checksum, before
// the block is decoded; the sequential and concurrent readers agree.
func TestBlockChecksumMismatch(t *testing.T) {
	data := sample(9000, 31)
	frame := encode(t, data, WriterOptions{BlockChecksum: true})
	size := int(binary.LittleEndian.Uint32(frame[7:]) &^ uncompressedBit)
	sumAt := 11 + size
	if got, want := binary.LittleEndian.Uint32(frame[sumAt:]), xxh32.Checksum(frame[11:sumAt]); got != want {
		t.Fatalf("the first block's checksum is %#08x, want %#08x", got, want)
	}
	for _, at := range []int{11, 11 + size/2, sumAt - 1, sumAt, sumAt + 3} {
		bad := bytes.Clone(frame)
		bad[at] ^= 0x40
		got, err := decode(bytes.NewReader(bad))
		wantError(t, fmt.Sprintf("byte %d changed", at), err, ErrChecksum, int64(sumAt))
		if len(got) != 0 {
			t.Errorf("byte %d changed: %d bytes served before the checksum's error", at, len(got))
		}
	}
}

// descriptor is a frame header with FLG and BD and a valid header checksum.
func descriptor(flg, bd byte) []byte {
	h := binary.LittleEndian.AppendUint32(nil, Magic)
	h = append(h, flg, bd)
	return append(h, headerChecksum(h[4:]))
}

// Checks CLI-6: descriptors that pass their header checksum but set a
// reserved bit, name a block maximum size code below 4, or another
// version, are refused at the byte at fault; codes 4 to 7 are read.
func TestDescriptorFields(t *testing.T) {
	const flg = flagVersion | flagIndependent
	end := []byte{0, 0, 0, 0} // the end mark: an empty frame
	for _, c := range []struct {
		flg, bd  byte
		sentinel error
		offset   int64
	}{
		{flg | flagReserved, 0x40, ErrCorrupt, 4},
		{flg, 0x40 | 0x80, ErrCorrupt, 4},
		{flg, 0x40 | 0x01, ErrCorrupt, 4},
		{flg, 0x40 | 0x08, ErrCorrupt, 4},
		{flg, 0x00, ErrCorrupt, 5},
		{flg, 0x10, ErrCorrupt, 5},
		{flg, 0x20, ErrCorrupt, 5},
		{flg, 0x30, ErrCorrupt, 5},
		{flg&^flagVersion | 0x80, 0x40, ErrUnsupported, 4},
		{flg &^ flagVersion, 0x40, ErrUnsupported, 4},
	} {
		_, err := decode(bytes.NewReader(append(descriptor(c.flg, c.bd), end...)))
		wantError(t, fmt.Sprintf("FLG %#02x BD %#02x", c.flg, c.bd), err, c.sentinel, c.offset)
		if version := fmt.Sprintf("frame version %d,", c.flg>>6); c.sentinel == ErrUnsupported && !strings.Contains(fmt.Sprint(err), version) {
			t.Errorf("FLG %#02x: %v does not say %q", c.flg, err, version)
		}
	}
	for code := byte(4); code <= 7; code++ {
		// A block of the largest size the code allows, stored.
		data := sample(blockMaxSize(code), uint64(code))
		frame := descriptor(flg, code<<4)
		frame = binary.LittleEndian.AppendUint32(frame, uint32(len(data))|uncompressedBit)
		frame = append(append(frame, data...), end...)
		if got, err := decode(bytes.NewReader(frame)); err != nil || !bytes.Equal(got, data) {
			t.Errorf("code %d: %d bytes, %v", code, len(got), err)
		}
		// One byte more is corrupt.
		frame = descriptor(flg, code<<4)
		frame = binary.LittleEndian.AppendUint32(frame, uint32(len(data)+1)|uncompressedBit)
		_, err := decode(bytes.NewReader(frame))
		wantError(t, fmt.Sprintf("code %d, a block one byte too long", code), err, ErrCorrupt, 7)
	}
}

// Checks CLI-5: the content size a frame declares is its own: after a
// first frame, a second frame that declares its size is read, and one that
// declares a wrong size is ErrCorrupt at its end mark.
func TestConcatenatedContentSize(t *testing.T) {
	a, b := sample(9000, 41), sample(30000, 42)
	first := encode(t, a, WriterOptions{})
	for _, c := range []struct {
		name string
		size uint64
		ok   bool
	}{
		{"right size", uint64(len(b)), true},
		{"size of both", uint64(len(a) + len(b)), false},
		{"one byte less", uint64(len(b) - 1), false},
	} {
		second := withContentSize(encode(t, b, WriterOptions{}), c.size)
		stream := append(bytes.Clone(first), second...)
		got, err := decode(bytes.NewReader(stream))
		if c.ok {
			if err != nil || !bytes.Equal(got, append(bytes.Clone(a), b...)) {
				t.Errorf("%s: %d bytes, %v", c.name, len(got), err)
			}
			continue
		}
		wantError(t, c.name, err, ErrCorrupt, int64(len(stream)-8)) // the end mark, before the content checksum
	}
}

// withContentSize gives a frame of the Writer's with a content size in its
// descriptor.
func withContentSize(frame []byte, size uint64) []byte {
	desc := []byte{frame[4] | flagContentSize, frame[5]}
	desc = binary.LittleEndian.AppendUint64(desc, size)
	h := append(binary.LittleEndian.AppendUint32(nil, Magic), desc...)
	h = append(h, headerChecksum(desc))
	return append(h, frame[7:]...)
}

// failingWriter takes up to n bytes, then fails.
type failingWriter struct {
	bytes.Buffer
	n int
}

var errFull = errors.New("full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if room := w.n - w.Len(); len(p) > room {
		w.Buffer.Write(p[:max(room, 0)])
		return max(room, 0), errFull
	}
	return w.Buffer.Write(p)
}

// Checks CLI-5: WriteTo returns the number of bytes it wrote, all of the
// stream's or, when the destination fails, those written before, with the
// destination's error; a second WriteTo goes on where the first stopped.
func TestWriteToCount(t *testing.T) {
	data := sample(50000, 51)
	frame := encode(t, data, WriterOptions{})
	var out bytes.Buffer
	n, err := NewReader(bytes.NewReader(frame)).WriteTo(&out)
	if err != nil || n != int64(len(data)) || !bytes.Equal(out.Bytes(), data) {
		t.Fatalf("WriteTo: %d, %v; want %d, nil", n, err, len(data))
	}
	for _, limit := range []int{0, 1, 4095, 4096, 4097, 30000} {
		r := NewReader(bytes.NewReader(frame))
		w := &failingWriter{n: limit}
		n, err := r.WriteTo(w)
		if !errors.Is(err, errFull) || n != int64(limit) || !bytes.Equal(w.Bytes(), data[:limit]) {
			t.Errorf("limit %d: %d, %v; want %d, %v", limit, n, err, limit, errFull)
			continue
		}
		var rest bytes.Buffer
		m, err := r.WriteTo(&rest)
		if err != nil || n+m != int64(len(data)) || !bytes.Equal(rest.Bytes(), data[limit:]) {
			t.Errorf("limit %d: the second WriteTo: %d, %v", limit, m, err)
		}
	}
	// A corrupt stream: the bytes before the fault, and the error.
	bad := append(bytes.Clone(frame[:len(frame)-1]), frame[len(frame)-1]^1)
	out.Reset()
	n, err = NewReader(bytes.NewReader(bad)).WriteTo(&out)
	if !errors.Is(err, ErrChecksum) || n != int64(len(data)) || out.Len() != len(data) {
		t.Errorf("corrupt content checksum: %d, %v; want %d, ErrChecksum", n, err, len(data))
	}
}

// flakyWriter fails its call number fail (from 1) and takes every other.
type flakyWriter struct {
	bytes.Buffer
	calls, fail int
}

func (w *flakyWriter) Write(p []byte) (int, error) {
	if w.calls++; w.calls == w.fail {
		return 0, errFull
	}
	return w.Buffer.Write(p)
}

// writeFrame writes blocks of data (4 KiB each, the second stored, the
// others LZ4) to w and closes the frame twice. It returns every call's
// error and the index of the call during which fw's failing write came
// (-1 if none did).
func writeFrame(t *testing.T, w *Writer, fw *flakyWriter, data []byte) (errs []error, failedIn int) {
	failedIn = -1
	call := func(err error) {
		if failedIn < 0 && fw != nil && fw.calls >= fw.fail {
			failedIn = len(errs)
		}
		errs = append(errs, err)
	}
	for off := 0; off < len(data); off += 4096 {
		chunk := data[off:min(off+4096, len(data))]
		var block []byte
		if off != 4096 {
			block = make([]byte, reference.CompressBlockBound(len(chunk)))
			n, err := reference.CompressBlock(block, chunk)
			if err != nil {
				t.Fatal(err)
			}
			block = block[:n]
		}
		call(w.WriteBlock(chunk, block))
	}
	call(w.Close())
	call(w.Close())
	return errs, failedIn
}

// Checks CLI-3: a failed write of the underlying writer, wherever it falls
// (header, block size, block, block checksum, end mark), is returned by the
// call that made it and by every later call, and nothing more is written:
// a frame with a piece missing would be corrupt. Closing twice writes the
// end once.
func TestWriterErrorsStick(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		opts WriterOptions
	}{
		{"block checksums", sample(3*4096+100, 61), WriterOptions{BlockChecksum: true}},
		{"no block checksums", sample(3*4096+100, 61), WriterOptions{}},
		{"empty frame", nil, WriterOptions{}},
	} {
		var all bytes.Buffer
		w := NewWriter(&all, c.opts)
		if errs, _ := writeFrame(t, w, nil, c.data); slices.ContainsFunc(errs, func(err error) bool { return err != nil }) ||
			w.Written() != int64(all.Len()) {
			t.Fatalf("%s: %v, Written %d of %d bytes", c.name, errs, w.Written(), all.Len())
		}
		if got, err := decode(bytes.NewReader(all.Bytes())); err != nil || !bytes.Equal(got, c.data) {
			t.Fatalf("%s: the frame decodes to %d bytes, %v", c.name, len(got), err)
		}
		for fail := 1; ; fail++ {
			fw := &flakyWriter{fail: fail}
			w := NewWriter(fw, c.opts)
			errs, failedIn := writeFrame(t, w, fw, c.data)
			if failedIn < 0 {
				break // every write done: all of them have failed once
			}
			for i, err := range errs {
				if (i >= failedIn) != errors.Is(err, errFull) {
					t.Errorf("%s, write %d failing in call %d: call %d returned %v", c.name, fail, failedIn, i, err)
				}
			}
			if fw.calls != fail || w.Written() != int64(fw.Len()) || !bytes.HasPrefix(all.Bytes(), fw.Bytes()) {
				t.Errorf("%s, write %d failing: %d writes, %d bytes (Written %d)", c.name, fail, fw.calls, fw.Len(), w.Written())
			}
		}
	}
	var buf bytes.Buffer
	w := NewWriter(&buf, WriterOptions{})
	w.Close()
	if err := w.WriteBlock([]byte("late"), nil); !errors.Is(err, ErrClosed) || w.Written() != int64(buf.Len()) {
		t.Errorf("WriteBlock after Close: %v", err)
	}
}

// Checks CLI-3: blocks of up to 64 KiB are taken, one byte more is
// ErrBlockSize; an empty block writes nothing (a block size of 0 would end
// the frame); a block not shorter than its data is stored.
func TestWriteBlockSizes(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, WriterOptions{})
	if err := w.WriteBlock(nil, nil); err != nil || w.Written() != 0 {
		t.Fatalf("an empty block: %v, %d bytes written", err, w.Written())
	}
	if err := w.WriteBlock(make([]byte, MaxBlockSize64K+1), nil); !errors.Is(err, ErrBlockSize) || w.Written() != 0 {
		t.Fatalf("a block of 64 KiB + 1: %v, %d bytes written", err, w.Written())
	}
	data := sample(MaxBlockSize64K, 62)
	same := bytes.Repeat([]byte{0xff}, len(data)) // as long as data: stored instead
	if err := w.WriteBlock(data, same); err != nil {
		t.Fatalf("a block of 64 KiB: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	frame := buf.Bytes()
	if size := binary.LittleEndian.Uint32(frame[7:]); size != uint32(len(data))|uncompressedBit {
		t.Errorf("block size word %#x, want the data stored (%#x)", size, uint32(len(data))|uncompressedBit)
	}
	if got, err := decode(bytes.NewReader(frame)); err != nil || !bytes.Equal(got, data) {
		t.Errorf("decoded %d bytes, %v", len(got), err)
	}
}

// Checks CLI-6: a skippable frame cut short is ErrTruncated at its start,
// like any other element; a whole one is skipped.
func TestSkippableTruncated(t *testing.T) {
	data := sample(5000, 71)
	stream := append(encode(t, data, WriterOptions{}), skippable(100)...)
	if got, err := decode(bytes.NewReader(stream)); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("whole: %d bytes, %v", len(got), err)
	}
	start := int64(len(stream) - 108)
	for _, cut := range []int{1, 50, 99} {
		_, err := decode(bytes.NewReader(stream[:len(stream)-cut]))
		wantError(t, fmt.Sprintf("skippable frame less %d bytes", cut), err, ErrTruncated, start)
	}
}

// Checks CLI-6: after an error, Read returns it again, with no data, and
// WriteTo too: the Reader does not go on past a fault.
func TestReadErrorSticks(t *testing.T) {
	data := sample(20000, 72)
	frame := encode(t, data, WriterOptions{BlockChecksum: true})
	bad := bytes.Clone(frame)
	bad[13] ^= 0x40 // in the first block: its checksum fails
	for _, workers := range []int{1, 4} {
		r := NewReader(bytes.NewReader(bad))
		r.SetConcurrency(workers)
		buf := make([]byte, 1<<16)
		n, err := r.Read(buf)
		if !errors.Is(err, ErrChecksum) || n != 0 {
			t.Fatalf("workers %d: first Read %d, %v", workers, n, err)
		}
		for range 3 {
			if n, again := r.Read(buf); n != 0 || again != err {
				t.Fatalf("workers %d: Read after the error: %d, %v; want 0, %v", workers, n, again, err)
			}
		}
		if m, again := r.WriteTo(io.Discard); m != 0 || again != err {
			t.Fatalf("workers %d: WriteTo after the error: %d, %v", workers, m, again)
		}
	}
}

// Checks CLI-6: a source that fails partway through a frame of independent
// blocks gives its own error, not a truncation, with the sequential reader
// and the read-ahead alike, wherever it fails: in a block's size word, in a
// block, in its checksum.
func TestSourceErrorInBlocks(t *testing.T) {
	boom := errors.New("the source failed")
	frame := encode(t, sample(1<<20, 73), WriterOptions{BlockChecksum: true})
	for _, cut := range []int{20, 100, 70000, len(frame) / 2, len(frame) - 10} {
		for _, workers := range []int{1, 4} {
			r := NewReader(io.MultiReader(bytes.NewReader(frame[:cut]), iotest.ErrReader(boom)))
			r.SetConcurrency(workers)
			if _, err := io.Copy(io.Discard, r); !errors.Is(err, boom) {
				t.Errorf("cut at %d, workers %d: %v; want the source's error", cut, workers, err)
			}
		}
	}
}

// legacyFrame is a legacy frame of one block.
func legacyFrame(block []byte) []byte {
	f := binary.LittleEndian.AppendUint32(nil, LegacyMagic)
	f = binary.LittleEndian.AppendUint32(f, uint32(len(block)))
	return append(f, block...)
}

// Checks CLI-6: in a legacy frame, a block size above LZ4_compressBound of
// 8 MiB is ErrCorrupt at the size, and a corrupt block is ErrCorrupt at the
// same place within the block as in an LZ4 frame; a failing source's error
// comes back as it is, with the frame counted once.
func TestLegacyErrors(t *testing.T) {
	const bound = 8<<20 + 8<<20/255 + 16 // LZ4_COMPRESSBOUND(8 MiB), as liblz4 computes it
	legacySize := func(n uint32) []byte {
		return binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, LegacyMagic), n)
	}
	_, err := decode(bytes.NewReader(legacySize(bound + 1)))
	wantError(t, "a block one byte above the bound", err, ErrCorrupt, 4)
	_, err = decode(bytes.NewReader(legacySize(bound)))
	wantError(t, "a block of the bound, cut short", err, ErrTruncated, 4)

	bad := []byte{0x40, 'a', 'b', 'c', 'd', 0x09, 0x00} // offset 9 before the start
	var lz bytes.Buffer
	w := NewWriter(&lz, WriterOptions{})
	w.WriteBlock(make([]byte, 100), bad)
	w.Close()
	_, ferr := decode(bytes.NewReader(lz.Bytes()))
	var fe *Error
	if !errors.As(ferr, &fe) || !errors.Is(ferr, ErrCorrupt) {
		t.Fatalf("the corrupt block in an LZ4 frame: %v", ferr)
	}
	_, err = decode(bytes.NewReader(legacyFrame(bad)))
	wantError(t, "the corrupt block in a legacy frame", err, ErrCorrupt, fe.Offset-3) // its size word at 4, not 7

	errSource := errors.New("source failed")
	r := NewReader(io.MultiReader(bytes.NewReader(binary.LittleEndian.AppendUint32(nil, LegacyMagic)), iotest.ErrReader(errSource)))
	if _, err := io.ReadAll(r); !errors.Is(err, errSource) || r.Frames() != 1 || r.Offset() != 4 {
		t.Errorf("a source failing after the magic: %v, %d frames, offset %d", err, r.Frames(), r.Offset())
	}
}
