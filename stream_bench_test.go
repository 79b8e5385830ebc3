package lz4warp

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/xxh32"
)

// The stream benchmarks: BenchmarkWriter/<backend>/<dataset>/crc=<bool>
// compresses 64 MiB of a data set through a Writer into io.Discard (the
// gpu rows run where a GPU is present), one frame per iteration through
// one Writer (Reset between frames, so that the GPU's buffers are
// page-locked once); it reports where the time goes as a percentage of
// the wall time per stage (writerStages: fill-%, freewait-%, hash-%,
// start-%, gpuwait-%, frame-% summed over the goroutines, write-%): a
// serial stage near 100 holds the others back. BenchmarkStreamReader/<dataset>
// decompresses the Writer's frame of it into /dev/null, as the command's
// measured runs do (every Write a system call). b.SetBytes of the
// uncompressed bytes. For example:
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
					zw, err := NewWriter(io.Discard, gpu, WriterBackend(backend), WriterContentChecksum(crc))
					if err != nil {
						b.Fatal(err)
					}
					b.SetBytes(int64(len(data)))
					for b.Loop() {
						if _, err := zw.ReadFrom(bytes.NewReader(data)); err != nil {
							b.Fatal(err)
						}
						if err := zw.Reset(io.Discard); err != nil {
							b.Fatal(err)
						}
					}
					reportStages(b, &zw.stages)
					if err := zw.Close(); err != nil {
						b.Fatal(err)
					}
				})
			}
		}
	}
}

// stage is one of writerStages' times, with its metric's name.
type stage struct {
	name string
	ns   *atomic.Int64
}

// stages lists s's times in the order the benchmarks report them.
func (s *writerStages) stages() []stage {
	return []stage{
		{"fill", &s.fill}, {"freewait", &s.freeWait}, {"hash", &s.hash}, {"start", &s.start},
		{"gpuwait", &s.gpuWait}, {"frame", &s.frame}, {"write", &s.write},
	}
}

// reportStages reports a Writer's stages as percentages of the wall time.
func reportStages(b *testing.B, s *writerStages) {
	wall := float64(b.Elapsed())
	for _, st := range s.stages() {
		b.ReportMetric(100*float64(st.ns.Load())/wall, st.name+"-%")
	}
}

func BenchmarkStreamReader(b *testing.B) {
	var out io.Writer = io.Discard
	if f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		defer f.Close()
		out = f
	}
	for _, set := range streamBenchSets {
		data := streamBenchData(b, set)
		frame := compressStream(b, data)
		b.Run(set, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if n, err := NewReader(bytes.NewReader(frame)).WriteTo(out); err != nil || n != int64(len(data)) {
					b.Fatal(n, err)
				}
			}
		})
	}
}

// BenchmarkWriterHostStages measures, in ordinary memory, the host's work
// on one batch of the Writer's GPU path (gpuBatchPages pages of the mixed
// set, 32 MiB): fill reads it from a file in the page cache, as ReadFrom
// does from the command's input (one goroutine); hash is its content
// checksum (one goroutine); frame is frameGPU on its pages' compressed
// results (every core). The GPU's own work is not in it: with the GPU at
// 40 to 50 GB/s, these rates bound the GPU path's.
func BenchmarkWriterHostStages(b *testing.B) {
	pages, err := dataset.Load(dataset.Mixed, gpuBatchPages)
	if err != nil {
		b.Skip(err)
	}
	batch := &streamBatch{pages: pages, n: len(pages) * PageSize}
	data := batch.bytes()
	b.Run("fill", func(b *testing.B) {
		path := b.TempDir() + "/pages"
		if err := os.WriteFile(path, data, 0o600); err != nil {
			b.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		buf := make([]byte, len(data))
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				b.Fatal(err)
			}
			if _, err := io.ReadFull(f, buf); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hash", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var d xxh32.Digest
			d.Write(data)
		}
	})
	b.Run("frame", func(b *testing.B) {
		res := &BatchResult{Pages: compressParallel(pages)}
		zw := &Writer{}
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			batch.framed = make(chan struct{})
			zw.frameGPU(batch, res)
		}
	})
}

var writerFileMiB = flag.Int("writerfile.mib", 1024, "BenchmarkWriterFile's file size in MiB")

// BenchmarkWriterFile is the command's compress of a file in the page
// cache (writerfile.mib MiB of the mixed set) into io.Discard, each
// iteration from a new Writer: simd on every core; gpu on a Compressor
// opened before; gpu-open on a new Compressor per iteration that opens the
// GPU in the background (API-28, STREAM-6) and is closed at the end, as
// the command does (the driver's own start, once per process, is not in
// it). Besides the stages (BenchmarkWriter's), it reports in ms per
// iteration: open (until the GPU was open), close (Writer.Close, which
// frees the page-locked batches) and cclose (Compressor.Close).
func BenchmarkWriterFile(b *testing.B) {
	data := streamBenchData(b, dataset.Mixed)
	path := b.TempDir() + "/pages"
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	for n := 0; n < *writerFileMiB<<20; n += len(data) {
		if _, err := f.Write(data[:min(len(data), *writerFileMiB<<20-n)]); err != nil {
			b.Fatal(err)
		}
	}
	f.Close()
	size := int64(*writerFileMiB) << 20
	var gpu *Compressor
	if GPUAvailable() {
		if gpu, err = NewGPUBatchCompressor(DefaultConfig()); err != nil {
			b.Fatal(err)
		}
		defer gpu.Close()
	}
	for _, way := range []string{"simd", "gpu", "gpu-open"} {
		if way != "simd" && gpu == nil {
			continue
		}
		for _, crc := range []bool{true, false} {
			b.Run(fmt.Sprintf("%s/mixed/crc=%v", way, crc), func(b *testing.B) {
				b.SetBytes(size)
				var stages writerStages
				var open, closing, cclose time.Duration
				opened := make(chan time.Duration, 1)
				for b.Loop() {
					start := time.Now()
					c, backend := gpu, BackendGPU
					switch way {
					case "simd":
						c, backend = nil, BackendSIMD
					case "gpu-open":
						cfg := DefaultConfig()
						cfg.OpenInBackground = true
						if c, err = NewGPUBatchCompressor(cfg); err != nil {
							b.Fatal(err)
						}
						go func() { c.WaitGPU(); opened <- time.Since(start) }()
					}
					in, err := os.Open(path)
					if err != nil {
						b.Fatal(err)
					}
					zw, err := NewWriter(io.Discard, c, WriterBackend(backend), WriterContentChecksum(crc))
					if err != nil {
						b.Fatal(err)
					}
					if _, err := zw.ReadFrom(in); err != nil {
						b.Fatal(err)
					}
					t := time.Now()
					if err := zw.Close(); err != nil {
						b.Fatal(err)
					}
					closing += time.Since(t)
					in.Close()
					addStages(&stages, &zw.stages)
					if way == "gpu-open" {
						t = time.Now()
						c.Close()
						cclose += time.Since(t)
						open += <-opened
					}
				}
				reportStages(b, &stages)
				n := float64(b.N)
				b.ReportMetric(float64(open.Milliseconds())/n, "open-ms")
				b.ReportMetric(float64(closing.Milliseconds())/n, "close-ms")
				b.ReportMetric(float64(cclose.Milliseconds())/n, "cclose-ms")
			})
		}
	}
}

// addStages adds s's times to sum.
func addStages(sum, s *writerStages) {
	from := s.stages()
	for i, st := range sum.stages() {
		st.ns.Add(from[i].ns.Load())
	}
}
