package lz4warp

import (
	"bytes"
	"fmt"
	"io"
	"testing"
	"unsafe"

	"github.com/lz4warp/lz4warp/internal/dataset"
)

// The stream benchmarks: BenchmarkWriter/<backend>/<dataset>/crc=<bool>
// compresses 64 MiB of a data set through a Writer into io.Discard (the
// gpu rows run where a GPU is present), BenchmarkStreamReader/<dataset>
// decompresses the Writer's frame of it; b.SetBytes of the uncompressed
// bytes. For example:
//
//	go test -run '^$' -bench 'Writer/simd/mixed' .

// streamBenchData is 64 MiB of the named set's pages as one stream.
func streamBenchData(b *testing.B, name string) []byte {
	pages, err := dataset.Load(name, 16384)
	if err != nil {
		b.Skip(err)
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&pages[0][0])), len(pages)*PageSize)
}

var streamBenchSets = []string{dataset.Text, dataset.Binaries, dataset.Mixed}

func BenchmarkWriter(b *testing.B) {
	var gpu *Compressor
	if GPUAvailable() {
		c, err := NewGPUBatchCompressor(DefaultConfig())
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		gpu = c
	}
	for _, backend := range []Backend{BackendSIMD, BackendGPU} {
		if backend == BackendGPU && gpu == nil {
			continue
		}
		for _, set := range streamBenchSets {
			data := streamBenchData(b, set)
			for _, crc := range []bool{true, false} {
				b.Run(fmt.Sprintf("%v/%s/crc=%v", backend, set, crc), func(b *testing.B) {
					b.SetBytes(int64(len(data)))
					for b.Loop() {
						zw, err := NewWriter(io.Discard, gpu, WriterBackend(backend), WriterContentChecksum(crc))
						if err != nil {
							b.Fatal(err)
						}
						if _, err := zw.ReadFrom(bytes.NewReader(data)); err != nil {
							b.Fatal(err)
						}
						if err := zw.Close(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

func BenchmarkStreamReader(b *testing.B) {
	for _, set := range streamBenchSets {
		data := streamBenchData(b, set)
		frame := compressStream(b, data)
		b.Run(set, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if n, err := NewReader(bytes.NewReader(frame)).WriteTo(io.Discard); err != nil || n != int64(len(data)) {
					b.Fatal(n, err)
				}
			}
		})
	}
}
