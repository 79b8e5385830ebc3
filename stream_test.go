package lz4warp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/pierrec/lz4/v4"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/gputest"
	"github.com/lz4warp/lz4warp/internal/lz4cmd"
	"github.com/lz4warp/lz4warp/internal/lz4frame"
	"github.com/lz4warp/lz4warp/internal/xxh32"
	"github.com/lz4warp/lz4warp/reference"
)

// streamData is n bytes of the mixed data set's pages: same-filled, LZ4
// and raw pages.
func streamData(t testing.TB, n int) []byte {
	pages, err := dataset.Load(dataset.Mixed, n/PageSize+1)
	if err != nil {
		t.Fatal(err)
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&pages[0][0])), len(pages)*PageSize)[:n]
}

func compressStream(t testing.TB, data []byte, opts ...WriterOption) []byte {
	t.Helper()
	var out bytes.Buffer
	zw, err := NewWriter(&out, nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	// Odd-sized writes cross pages and batches.
	for p := data; len(p) > 0; {
		k := min(len(p), 10007)
		if _, err := zw.Write(p[:k]); err != nil {
			t.Fatal(err)
		}
		p = p[k:]
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if zw.Written() != int64(out.Len()) {
		t.Fatalf("Written %d, wrote %d", zw.Written(), out.Len())
	}
	return out.Bytes()
}

// sequentialFrame is the frame STREAM-1 specifies, built one page at a time
// with the reference codec and the frame package's sequential writer.
func sequentialFrame(t testing.TB, data []byte, opts lz4frame.WriterOptions) []byte {
	var out bytes.Buffer
	fw := lz4frame.NewWriter(&out, opts)
	for off := 0; off < len(data); off += PageSize {
		chunk := data[off:min(off+PageSize, len(data))]
		var block []byte
		if len(chunk) == PageSize {
			var payload [reference.PageBound]byte
			kind, n := reference.EncodePage(payload[:], (*Page)(chunk))
			switch kind {
			case reference.KindLZ4:
				block = payload[:n]
			case reference.KindSame:
				dst := make([]byte, reference.CompressBlockBound(PageSize))
				k, _ := reference.CompressBlock(dst, chunk)
				block = dst[:k]
			}
		} else {
			block = shortBlock(chunk)
		}
		if err := fw.WriteBlock(chunk, block); err != nil {
			t.Fatal(err)
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// Checks STREAM-1: the Writer's frame is, byte for byte, the frame of
// canonical page blocks built one page at a time, on both CPU backends, for
// lengths around pages and batches, with every option.
func TestWriterCanonicalFrame(t *testing.T) {
	data := streamData(t, 3*cpuBatchPages*PageSize+5000)
	for _, n := range []int{0, 1, 100, PageSize - 1, PageSize, PageSize + 1, cpuBatchPages * PageSize, len(data)} {
		for _, o := range []struct {
			name  string
			opts  []WriterOption
			frame lz4frame.WriterOptions
		}{
			{"default", nil, lz4frame.WriterOptions{}},
			{"block checksums, no content checksum", []WriterOption{WriterBlockChecksum(true), WriterContentChecksum(false)},
				lz4frame.WriterOptions{BlockChecksum: true, NoContentChecksum: true}},
			{"content size", []WriterOption{WriterContentSize(int64(n))}, lz4frame.WriterOptions{ContentSize: int64(n)}},
		} {
			want := sequentialFrame(t, data[:n], o.frame)
			for _, b := range []Backend{BackendSIMD, BackendScalar} {
				got := compressStream(t, data[:n], append(o.opts, WriterBackend(b))...)
				if !bytes.Equal(got, want) {
					t.Fatalf("%d bytes, %s, %v: frame of %d bytes differs from the canonical one of %d", n, o.name, b, len(got), len(want))
				}
			}
		}
	}
}

// Checks STREAM-1, STREAM-3: what the Writer writes, the Reader, pierrec's
// reader and the lz4 command restore, and ReadFrom writes what Write does.
func TestStreamRoundTrip(t *testing.T) {
	data := streamData(t, 2<<20+123)
	frame := compressStream(t, data, WriterBlockChecksum(true))
	var viaReadFrom bytes.Buffer
	zw, _ := NewWriter(&viaReadFrom, nil, WriterBlockChecksum(true))
	if n, err := zw.ReadFrom(bytes.NewReader(data)); err != nil || n != int64(len(data)) {
		t.Fatalf("ReadFrom: %d, %v", n, err)
	}
	if err := zw.Close(); err != nil || !bytes.Equal(viaReadFrom.Bytes(), frame) {
		t.Fatalf("ReadFrom's frame differs from Write's (close: %v)", err)
	}
	var got bytes.Buffer
	if _, err := NewReader(bytes.NewReader(frame)).WriteTo(&got); err != nil || !bytes.Equal(got.Bytes(), data) {
		t.Fatalf("Reader.WriteTo: %v, equal %v", err, bytes.Equal(got.Bytes(), data))
	}
	read, err := io.ReadAll(NewReader(bytes.NewReader(frame)))
	if err != nil || !bytes.Equal(read, data) {
		t.Fatalf("Reader.Read: %v", err)
	}
	pr, err := io.ReadAll(lz4.NewReader(bytes.NewReader(frame)))
	if err != nil || !bytes.Equal(pr, data) {
		t.Fatalf("pierrec: %v", err)
	}
	if out := lz4cmd.Run(t, frame, "-d", "-c", "-q"); !bytes.Equal(out, data) {
		t.Fatal("lz4 -d restored other bytes")
	}
}

// Checks STREAM-3: the Reader restores what the lz4 command writes with
// each of its frame options, and several frames one after the other.
func TestReaderLZ4Frames(t *testing.T) {
	data := streamData(t, 3<<20+77)
	var stream, want []byte
	for _, args := range [][]string{
		{"-1"}, {"-9"}, {"-B4", "-BD"}, {"-B7"}, {"-B5", "-BX", "--content-size"},
		{"--no-frame-crc", "-B6"}, {"-l"},
	} {
		frame := lz4cmd.Run(t, data, append([]string{"-c", "-q"}, args...)...)
		got, err := io.ReadAll(NewReader(bytes.NewReader(frame)))
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("lz4 %v: %v", args, err)
		}
		stream, want = append(stream, frame...), append(want, data...)
	}
	var got bytes.Buffer
	if _, err := NewReader(bytes.NewReader(stream)).WriteTo(&got); err != nil || !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("concatenated frames: %v", err)
	}
}

// Checks STREAM-1: a declared content size that differs from the bytes
// written fails Close.
func TestWriterContentSize(t *testing.T) {
	zw, _ := NewWriter(io.Discard, nil, WriterContentSize(10))
	zw.Write(make([]byte, 9))
	if err := zw.Close(); !errors.Is(err, ErrContentSize) {
		t.Fatalf("9 bytes for 10 declared: %v", err)
	}
	if _, err := NewWriter(io.Discard, nil, WriterContentSize(-1)); !errors.Is(err, ErrInvalidConfig) {
		t.Fatalf("negative size: %v", err)
	}
	if _, err := zw.Write([]byte("x")); !errors.Is(err, ErrWriterClosed) {
		t.Fatalf("write after Close: %v", err)
	}
}

// Checks STREAM-1: a Compressor without a GPU refuses BackendGPU.
func TestWriterGPUBackendNeedsGPU(t *testing.T) {
	if GPUAvailable() {
		t.Skip("a GPU is present")
	}
	c, err := NewCompressor(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := NewWriter(io.Discard, c, WriterBackend(BackendGPU)); !errors.Is(err, ErrGPUNotAvailable) {
		t.Fatalf("BackendGPU without a GPU: %v", err)
	}
}

type failingWriter struct{ after int }

var errSink = errors.New("sink failed")

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.after <= 0 {
		return 0, errSink
	}
	f.after--
	return len(p), nil
}

// Checks STREAM-2: an error of the underlying writer reaches Write or
// Close, and nothing blocks.
func TestWriterSinkError(t *testing.T) {
	zw, _ := NewWriter(&failingWriter{after: 2}, nil)
	data := streamData(t, 4<<20)
	var err error
	for i := 0; i < 20 && err == nil; i++ {
		_, err = zw.Write(data)
	}
	if cerr := zw.Close(); !errors.Is(err, errSink) && !errors.Is(cerr, errSink) {
		t.Fatalf("Write %v, Close %v: want the sink's error", err, cerr)
	}
}

// pageSource is an endless stream of varied pages, generated as read.
type pageSource struct {
	n, left int64
	page    Page
	rng     *rand.Rand
}

func (s *pageSource) Read(p []byte) (int, error) {
	if s.left == 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), s.left)]
	for i := 0; i < len(p); {
		off := int((s.n - s.left + int64(i)) % PageSize)
		if off == 0 {
			switch s.rng.IntN(3) {
			case 0:
				clear(s.page[:])
			case 1:
				for j := range s.page {
					s.page[j] = byte(s.rng.Uint32())
				}
			default:
				for j := range s.page {
					s.page[j] = byte(j / (1 + s.rng.IntN(40)))
				}
			}
		}
		i += copy(p[i:], s.page[off:])
	}
	s.left -= int64(len(p))
	return len(p), nil
}

// peakHeap samples the heap in use until stop is called, and returns its
// peak.
func peakHeap() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	})
	return func() uint64 { close(done); wg.Wait(); return peak.Load() }
}

// Checks STREAM-2, STREAM-4: compressing and decompressing a 512 MiB stream
// holds a few batches, not the stream: the heap in use stays under 48 MiB
// and 4 MiB per core (the Writer's two batches of 1 MiB per core, with
// their frames).
func TestStreamMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("512 MiB through both streams")
	}
	const size = 512 << 20
	runtime.GC()
	stop := peakHeap()
	pr, pw := io.Pipe()
	go func() {
		zw, _ := NewWriter(pw, nil)
		_, err := zw.ReadFrom(&pageSource{n: size, left: size, rng: rand.New(rand.NewPCG(1, 2))})
		if err == nil {
			err = zw.Close()
		}
		pw.CloseWithError(err)
	}()
	n, err := NewReader(pr).WriteTo(io.Discard)
	peak := stop()
	if err != nil || n != size {
		t.Fatalf("%d bytes, %v", n, err)
	}
	t.Logf("peak heap in use: %.1f MiB for a %d MiB stream", float64(peak)/(1<<20), size>>20)
	if limit := uint64(48<<20 + runtime.GOMAXPROCS(0)*4<<20); peak > limit {
		t.Errorf("peak heap in use %.1f MiB, want under %d MiB", float64(peak)/(1<<20), limit>>20)
	}
}

// Checks STREAM-4: a frame that claims 4 MiB blocks and an exabyte of
// content allocates for the blocks it holds, not for its claims, and fails
// with the offset of the element at fault.
func TestReaderHostileClaims(t *testing.T) {
	desc := []byte{0x68, 0x70} // independent blocks, content size; 4 MiB blocks
	desc = binary.LittleEndian.AppendUint64(desc, 1<<60)
	frame := binary.LittleEndian.AppendUint32(nil, lz4frame.Magic)
	frame = append(frame, desc...)
	frame = append(frame, hc(desc))
	frame = binary.LittleEndian.AppendUint32(frame, 0x00400000) // a 4 MiB block, then nothing
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := io.ReadAll(NewReader(bytes.NewReader(frame)))
	runtime.ReadMemStats(&after)
	var fe *FrameError
	if !errors.As(err, &fe) || !errors.Is(err, ErrTruncated) || fe.Offset != int64(len(frame)-4) {
		t.Fatalf("%v: want ErrTruncated at offset %d", err, len(frame)-4)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("allocated %d MiB for a frame of %d bytes", grew>>20, len(frame))
	}
}

// hc is the header checksum of a frame descriptor.
func hc(desc []byte) byte { return byte(xxh32.Checksum(desc) >> 8) }

// Checks STREAM-1: a short last page of every length L from 1 to 4,095 is its
// canonical block exactly when the block's length n has 4n < 3L, stored
// otherwise. The data sit at the threshold: r random bytes then a run.
func TestShortBlockEveryLength(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	noise := make([]byte, 4096)
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	blk := make([]byte, reference.CompressBlockBound(4096))
	fractional := 0 // kept blocks of floor(3L/4) bytes, L·3/4 not whole
	for L := 1; L < 4096; L++ {
		// A block is about r bytes, plus a few and r/255 for lengths.
		for r := max(0, 3*L/4-12-L/255); r <= min(L, 3*L/4+1); r++ {
			data := append(bytes.Clone(noise[:r]), bytes.Repeat([]byte{0}, L-r)...)
			n, err := reference.CompressBlock(blk, data)
			if err != nil {
				t.Fatal(err)
			}
			got := shortBlock(data)
			if keep := 4*n < 3*L; keep != (got != nil) || keep && !bytes.Equal(got, blk[:n]) {
				t.Fatalf("L=%d, r=%d: canonical block of %d bytes, shortBlock gives %d bytes (nil: %v)", L, r, n, len(got), got == nil)
			}
			if got != nil && n == 3*L/4 && 3*L%4 != 0 {
				fractional++
			}
		}
	}
	if fractional == 0 {
		t.Fatal("no case of a kept block of floor(3L/4) bytes: the test misses the boundary")
	}
}

// Checks STREAM-1, STREAM-2, STREAM-5 on a GPU: the Writer's GPU path
// (PageBuffers through CompressBufferAsync, several batches on their way)
// writes the bytes of the CPU path, for a stream of many batches ending in
// a partial page, with every option, and for frames one after the other
// through Reset, which keeps the page-locked buffers; skipped without a
// GPU.
func TestWriterGPUSameBytes(t *testing.T) {
	gputest.Require(t)
	c, err := NewGPUBatchCompressor(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	requireGPUFramesSame(t, c, streamData(t, 5*gpuBatchPages*PageSize+1234))
	if s := c.Stats(); s.GPUFallbacks != 0 || s.PagesCompressed == 0 {
		t.Fatalf("stats %+v: want GPU batches without fallback", s)
	}
}

// requireGPUFramesSame writes data through one Writer on c's GPU path, as
// frames one after the other (Reset between them, STREAM-5) with and
// without the content checksum and block checksums, and requires each to
// be the CPU path's frame.
func requireGPUFramesSame(t *testing.T, c *Compressor, data []byte) {
	t.Helper()
	frames := [][]byte{data, data[:PageSize+7], data}
	got := make([]bytes.Buffer, len(frames))
	zw, err := NewWriter(&got[0], c, WriterBackend(BackendGPU))
	if err != nil {
		t.Fatal(err)
	}
	for i, frame := range frames {
		if _, err := zw.ReadFrom(bytes.NewReader(frame)); err != nil {
			t.Fatal(err)
		}
		var end error
		if i+1 < len(frames) {
			end = zw.Reset(&got[i+1])
		} else {
			end = zw.Close()
		}
		if end != nil {
			t.Fatal(end)
		}
		if want := compressStream(t, frame, WriterBackend(BackendSIMD)); !bytes.Equal(got[i].Bytes(), want) {
			t.Fatalf("frame %d: the GPU path's frame (%d bytes) differs from the CPU's (%d bytes)", i, got[i].Len(), len(want))
		}
	}
	var one bytes.Buffer
	opts := []WriterOption{WriterBlockChecksum(true), WriterContentChecksum(false), WriterBackend(BackendGPU)}
	zw, err = NewWriter(&one, c, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.ReadFrom(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if want := compressStream(t, data, append(opts[:2:2], WriterBackend(BackendSIMD))...); !bytes.Equal(one.Bytes(), want) {
		t.Fatalf("block checksums: the GPU path's frame (%d bytes) differs from the CPU's (%d bytes)", one.Len(), len(want))
	}
}

// Checks STREAM-2, STREAM-5 without a GPU: the Writer's GPU pipeline
// (CompressBufferAsync, the hash beside it, the framing of each batch
// while the next is waited for, Reset keeping the batches) on a pool of
// fake devices, whose buffers are not page-locked, gives the CPU path's
// frames.
func TestWriterGPUPathOnFakeDevices(t *testing.T) {
	c, _, _ := fakeCompressor(1)
	requireGPUFramesSame(t, c, streamData(t, 2*gpuBatchPages*PageSize+3*PageSize+99))
}

// Checks STREAM-5: Reset ends the frame as Close does and returns its
// error, and the Writer then writes a new frame, the bytes a new Writer
// writes, to the new writer; Reset after Close starts one too.
func TestWriterReset(t *testing.T) {
	data := streamData(t, 3*cpuBatchPages*PageSize+5000)
	var a, b, c bytes.Buffer
	zw, err := NewWriter(&a, nil, WriterContentSize(int64(len(data))))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(data[:100]); err != nil {
		t.Fatal(err)
	}
	if err := zw.Reset(&b); !errors.Is(err, ErrContentSize) {
		t.Fatalf("Reset after 100 of %d declared bytes: %v, want ErrContentSize", len(data), err)
	}
	if _, err := zw.ReadFrom(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if want := compressStream(t, data, WriterContentSize(int64(len(data)))); !bytes.Equal(b.Bytes(), want) {
		t.Fatalf("the frame after Reset (%d bytes) differs from a new Writer's (%d bytes)", b.Len(), len(want))
	}
	if zw.Written() != int64(b.Len()) {
		t.Fatalf("Written %d after Reset, wrote %d", zw.Written(), b.Len())
	}
	if err := zw.Reset(&c); err != nil {
		t.Fatalf("Reset after Close: %v", err)
	}
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(c.Bytes(), b.Bytes()) {
		t.Fatalf("the frame after Close and Reset (%d bytes) differs (%d bytes)", c.Len(), b.Len())
	}
}

// Checks STREAM-2: the Writer compresses on every core by default, also
// for a Compressor with a GPU (its CPU path measured faster), and on the
// GPU only when WriterBackend asks for it.
func TestWriterDefaultsToTheCPU(t *testing.T) {
	c, _, _ := fakeCompressor(1)
	zw, err := NewWriter(io.Discard, c)
	if err != nil {
		t.Fatal(err)
	}
	if zw.opts.backend != BackendSIMD {
		t.Errorf("a Compressor with a GPU: the Writer's backend is %v, want simd", zw.opts.backend)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := NewWriter(io.Discard, nil, WriterBackend(BackendGPU)); !errors.Is(err, ErrGPUNotAvailable) {
		t.Errorf("WriterBackend(BackendGPU) without a Compressor: %v, want ErrGPUNotAvailable", err)
	}
}
