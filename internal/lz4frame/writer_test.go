package lz4frame

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/lz4warp/lz4warp/internal/xxh32"
)

// Checks STREAM-1: a content size above 0 is stored in the header (the FLG
// bit and 8 bytes), which the Reader holds the frame to; 0 and -1 store
// none. A 1-byte content is the smallest size stored.
func TestAppendHeaderContentSize(t *testing.T) {
	data := []byte("x")
	for _, c := range []struct {
		size      int64
		headerLen int  // magic, FLG, BD, size, checksum
		wantErr   bool // the frame holds 1 byte
	}{
		{-1, 7, false},
		{0, 7, false},
		{1, 15, false},
		{2, 15, true},
		{1 << 40, 15, true},
	} {
		opts := WriterOptions{ContentSize: c.size}
		header := AppendHeader(nil, opts)
		if len(header) != c.headerLen || header[4]&flagContentSize != 0 != (c.headerLen == 15) {
			t.Errorf("content size %d: header % x, want %d bytes", c.size, header, c.headerLen)
			continue
		}
		frame := AppendEnd(AppendBlock(header, data, nil, false), opts, xxh32.Checksum(data))
		got, err := io.ReadAll(NewReader(bytes.NewReader(frame)))
		if c.wantErr != (err != nil) || (err != nil && !errors.Is(err, ErrCorrupt)) || (err == nil && !bytes.Equal(got, data)) {
			t.Errorf("content size %d over 1 byte: %q, %v; want an error: %t", c.size, got, err, c.wantErr)
		}
	}
}

// Checks STREAM-1: BlockBound is what AppendBlock appends at most: a block stored as it is,
// its size word and its checksum.
func TestBlockBound(t *testing.T) {
	for _, n := range []int{1, 100, MaxBlockSize64K} {
		data := bytes.Repeat([]byte{0xa5}, n)
		if got := len(AppendBlock(nil, data, nil, true)); BlockBound(n) != got || got != 4+n+4 {
			t.Errorf("%d bytes: AppendBlock appended %d, BlockBound says %d", n, got, BlockBound(n))
		}
	}
}

// Checks STREAM-1: a write that fails fails WriteBlock at once, and every call after it.
func TestWriteBlockReturnsWriteError(t *testing.T) {
	w := NewWriter(&failingWriter{n: 5}, WriterOptions{})
	if err := w.WriteBlock([]byte("abc"), nil); !errors.Is(err, errFull) {
		t.Fatalf("WriteBlock: %v, want the writer's error", err)
	}
	if err := w.Close(); !errors.Is(err, errFull) {
		t.Fatalf("Close: %v, want the writer's error", err)
	}
}
