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

// compressData compresses data as compress does, on the backend so names.
func compressData(b *testing.B, data []byte, w io.Writer, so streamOptions) {
	zw, c, err := openWriter(w, so, int64(len(data)))
	if err != nil {
		b.Fatal(err)
	}
	if c != nil {
		defer c.Close()
	}
	if _, err := zw.ReadFrom(bytes.NewReader(data)); err != nil {
		b.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkCompressStream is compress's whole pipeline (read, compress,
// frame, checksum) into io.Discard: backend/dataset/checksum.
func BenchmarkCompressStream(b *testing.B) {
	for _, backend := range []string{"scalar", "simd"} {
		for _, name := range []string{dataset.Text, dataset.Binaries, dataset.Zeros} {
			data := benchData(b, name)
			for _, crc := range []bool{true, false} {
				b.Run(fmt.Sprintf("%s/%s/crc=%v", backend, name, crc), func(b *testing.B) {
					so := streamOptions{backend: backend, batch: 1000, noContentChecksum: !crc}
					b.SetBytes(int64(len(data)))
					for b.Loop() {
						compressData(b, data, io.Discard, so)
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
	for _, name := range []string{dataset.Text, dataset.Binaries, dataset.Zeros} {
		data := benchData(b, name)
		var frame bytes.Buffer
		compressData(b, data, &frame, streamOptions{backend: "simd", batch: 1000})
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
