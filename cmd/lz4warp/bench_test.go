package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/lz4warp/lz4warp/internal/dataset"
)

// benchData is 2,048 pages (8 MiB) of a dataset as one stream.
func benchData(b *testing.B, name string) []byte {
	pages, err := dataset.Load(name, 2048)
	if err != nil {
		b.Skip(err)
	}
	var buf bytes.Buffer
	for i := range pages {
		buf.Write(pages[i][:])
	}
	return buf.Bytes()
}

// BenchmarkCompressStream is compress's whole pipeline (read, CompressBatch,
// frame, checksum) into io.Discard: backend/dataset/batch.
func BenchmarkCompressStream(b *testing.B) {
	e := &env{ctx: context.Background(), stderr: io.Discard}
	for _, backend := range []string{"scalar", "simd"} {
		for _, name := range []string{dataset.Text, dataset.Binaries, dataset.Zeros} {
			data := benchData(b, name)
			for _, batch := range []int{64, 1000} {
				b.Run(fmt.Sprintf("%s/%s/%d", backend, name, batch), func(b *testing.B) {
					pc, err := newPageCompressor(backend, batch, deviceChoice{})
					if err != nil {
						b.Fatal(err)
					}
					defer pc.Close()
					b.SetBytes(int64(len(data)))
					for b.Loop() {
						prog := newProgress(e, "", -1, false)
						if _, err := compressStream(e, pc, batch, bytes.NewReader(data), io.Discard, prog); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkDecompressStream is decompress's whole pipeline on the frames
// compress writes: dataset.
func BenchmarkDecompressStream(b *testing.B) {
	e := &env{ctx: context.Background(), stderr: io.Discard}
	pc, err := newPageCompressor("auto", 1000, deviceChoice{})
	if err != nil {
		b.Fatal(err)
	}
	defer pc.Close()
	for _, name := range []string{dataset.Text, dataset.Binaries, dataset.Zeros} {
		data := benchData(b, name)
		var frame bytes.Buffer
		if _, err := compressStream(e, pc, 1000, bytes.NewReader(data), &frame, newProgress(e, "", -1, false)); err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := decompressStream(e, bytes.NewReader(frame.Bytes()), io.Discard, newProgress(e, "", -1, false)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
