package lz4warp

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp/internal/gputest"
)

// openLater makes the Compressors made by the test open fake devices, or
// fail with err, only once the returned function is called.
func openLater(t *testing.T, err error) (release func(), fakes []*fakeEngine) {
	p, fakes := fakePool(1, 1<<20)
	gate := make(chan struct{})
	saved := openGPUs
	openGPUs = func(Config) (*devicePool, error) {
		<-gate
		if err != nil {
			return nil, err
		}
		return p, nil
	}
	released := false
	release = func() {
		if !released {
			released = true
			close(gate)
		}
	}
	t.Cleanup(func() { release(); openGPUs = saved })
	return release, fakes
}

func backgroundConfig() Config {
	cfg := DefaultConfig()
	cfg.OpenInBackground = true
	return cfg
}

// Checks API-28: with OpenInBackground the constructors return before the
// GPU is open; until it is, batches SelectBackend gives the GPU run on the
// CPU with the same bytes, a call naming BackendGPU waits for it, and
// afterwards the GPU takes them; Close waits for the opening and closes
// the GPU it opened.
func TestOpenInBackground(t *testing.T) {
	release, fakes := openLater(t, nil)
	c, err := NewGPUBatchCompressor(backgroundConfig())
	if err != nil {
		t.Fatal(err)
	}
	pages := numberedPages(0, 2*GPUMinBatch)
	res, err := c.CompressBatch(pages)
	if err != nil {
		t.Fatal(err)
	}
	if res.Backend == BackendGPU || c.GPUError() != nil {
		t.Fatalf("while the GPU opens: backend %v, GPUError %v; want the CPU and no error", res.Backend, c.GPUError())
	}
	requireSameBytes(t, pages, res.Pages)
	onGPU := make(chan *BatchResult, 1)
	go func() {
		res, err := c.CompressBatchOn(BackendGPU, pages)
		if err != nil {
			t.Error(err)
		}
		onGPU <- res
	}()
	select {
	case <-onGPU:
		t.Fatal("CompressBatchOn(BackendGPU) returned before the GPU opened")
	case <-time.After(50 * time.Millisecond):
	}
	release()
	if res := <-onGPU; res == nil || res.Backend != BackendGPU {
		t.Fatalf("CompressBatchOn(BackendGPU) once the GPU opened: %+v", res)
	}
	if err := c.WaitGPU(); err != nil {
		t.Fatal(err)
	}
	res, err = c.CompressBatch(pages)
	if err != nil || res.Backend != BackendGPU {
		t.Fatalf("after WaitGPU: backend %v, %v; want the GPU", res.Backend, err)
	}
	requireSameBytes(t, pages, res.Pages)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if !fakes[0].closed {
		t.Fatal("Close left the GPU opened in the background open")
	}
}

// Checks API-28: a GPU that fails to open in the background is WaitGPU's
// and GPUError's error, batches stay on the CPU, calls naming BackendGPU
// fail with it, and a Compressor closed while its GPU opens waits for it.
func TestOpenInBackgroundFails(t *testing.T) {
	cause := errors.New("fake: no device")
	release, _ := openLater(t, cause)
	c, err := NewCompressor(backgroundConfig())
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- c.Close() }()
	select {
	case <-closed:
		t.Fatal("Close returned while the GPU was opening")
	case <-time.After(50 * time.Millisecond):
	}
	release()
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if err := c.WaitGPU(); !errors.Is(err, cause) {
		t.Fatalf("WaitGPU: %v, want %v", err, cause)
	}

	c, err = NewCompressor(backgroundConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.CompressBatchOn(BackendGPU, numberedPages(0, 10)); !errors.Is(err, cause) {
		t.Fatalf("CompressBatchOn(BackendGPU): %v, want %v", err, cause)
	}
	res, err := c.CompressBatch(numberedPages(0, 2*GPUMinBatch))
	if err != nil || res.Backend == BackendGPU {
		t.Fatalf("CompressBatch without a GPU: backend %v, %v", res.Backend, err)
	}
}

// Checks STREAM-6: a Writer on the GPU of a Compressor whose GPU opens in
// the background compresses on the CPU until it is open and on the GPU
// afterwards, and its frame is the CPU path's, byte for byte.
func TestWriterWhileGPUOpens(t *testing.T) {
	release, fakes := openLater(t, nil)
	c, err := NewGPUBatchCompressor(backgroundConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	data := streamData(t, (gpuBatchPages+3*cpuBatchPages)*PageSize+4321)
	var out bytes.Buffer
	zw, err := NewWriter(&out, c, WriterBackend(BackendGPU))
	if err != nil {
		t.Fatal(err)
	}
	half := 3*cpuBatchPages*PageSize + 100
	if _, err := zw.Write(data[:half]); err != nil {
		t.Fatal(err)
	}
	release()
	if err := c.WaitGPU(); err != nil {
		t.Fatal(err)
	}
	// The CPU batch being filled, and one byte more: the next batch
	// starts the making of the GPU's.
	next := 4*cpuBatchPages*PageSize + 1
	if _, err := zw.Write(data[half:next]); err != nil {
		t.Fatal(err)
	}
	if zw.making == nil {
		t.Fatal("the GPU is open and the Writer makes no GPU batches")
	}
	<-zw.making // the GPU's batches made, the GPU takes the rest
	if _, err := zw.ReadFrom(bytes.NewReader(data[next:])); err != nil {
		t.Fatal(err)
	}
	plain := zw.plain
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if plain == 0 || fakes[0].calls == 0 {
		t.Fatalf("%d CPU batches, %d GPU calls: want both", plain, fakes[0].calls)
	}
	if want := compressStream(t, data); !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("the frame (%d bytes) differs from the CPU's (%d bytes)", out.Len(), len(want))
	}
}

// Checks STREAM-6: a Writer on the GPU of a Compressor whose GPU fails to
// open in the background fails with the Compressor's error.
func TestWriterGPUFailsToOpen(t *testing.T) {
	cause := errors.New("fake: no device")
	release, _ := openLater(t, cause)
	c, err := NewGPUBatchCompressor(backgroundConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	zw, err := NewWriter(io.Discard, c, WriterBackend(BackendGPU))
	if err != nil {
		t.Fatal(err)
	}
	data := streamData(t, 4*cpuBatchPages*PageSize)
	if _, err := zw.Write(data[:PageSize]); err != nil {
		t.Fatal(err)
	}
	release()
	c.WaitGPU()
	_, werr := zw.Write(data)
	if err := zw.Close(); !errors.Is(err, cause) || !errors.Is(werr, cause) {
		t.Fatalf("Write: %v, Close: %v; want %v", werr, err, cause)
	}
	if _, err := NewWriter(io.Discard, c, WriterBackend(BackendGPU)); !errors.Is(err, cause) {
		t.Fatalf("NewWriter after the GPU failed to open: %v, want %v", err, cause)
	}
}

// Checks STREAM-2: ReadFrom of a file reads it in pieces at once from its
// offset, writes the frame Write would, and leaves the offset at the end;
// a read error in a piece is ReadFrom's.
func TestWriterReadFromFile(t *testing.T) {
	data := streamData(t, 5*cpuBatchPages*PageSize+777)
	f := tempFile(t, data)
	const skip = 1000
	if _, err := f.Seek(skip, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw, err := NewWriter(&out, nil)
	if err != nil {
		t.Fatal(err)
	}
	n, err := zw.ReadFrom(f)
	if err != nil || n != int64(len(data)-skip) {
		t.Fatalf("ReadFrom: %d, %v; want %d", n, err, len(data)-skip)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if off, _ := f.Seek(0, io.SeekCurrent); off != int64(len(data)) {
		t.Fatalf("offset %d after ReadFrom, want %d", off, len(data))
	}
	if want := compressStream(t, data[skip:]); !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("the frame of the file (%d bytes) differs from Write's (%d bytes)", out.Len(), len(want))
	}

	bad := &failingReaderAt{data: data, failAt: 3*readPiece + 5}
	zw, err = NewWriter(io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := zw.ReadFrom(bad); !errors.Is(err, errFailingRead) || n > int64(bad.failAt) {
		t.Fatalf("ReadFrom of a reader failing at %d: %d, %v", bad.failAt, n, err)
	}
	zw.Close()
}

// tempFile is a file holding data, open for reading until the test ends.
func tempFile(t *testing.T, data []byte) *os.File {
	path := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

var errFailingRead = errors.New("read failed")

// failingReaderAt reads data at any offset and fails every read that
// reaches failAt.
type failingReaderAt struct {
	data   []byte
	failAt int
}

func (r *failingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	end := int(off) + len(p)
	if end > r.failAt {
		return copy(p, r.data[off:max(off, int64(r.failAt))]), errFailingRead
	}
	return copy(p, r.data[off:end]), nil
}

func (r *failingReaderAt) Seek(int64, int) (int64, error) { return 0, nil }

func (r *failingReaderAt) Read([]byte) (int, error) {
	return 0, errors.New("Read called: ReadAt was expected")
}

// Checks STREAM-6, STREAM-2 on a GPU: a Writer started while the GPU
// opens in the background, reading a file in pieces at once, writes the
// CPU path's frame, and the GPU takes the batches once it is open and its
// batches are made; skipped without a GPU.
func TestWriterGPUOpensInBackground(t *testing.T) {
	gputest.Require(t)
	c, err := NewGPUBatchCompressor(backgroundConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	data := streamData(t, 3*gpuBatchPages*PageSize+1234)
	f := tempFile(t, data)
	var out bytes.Buffer
	zw, err := NewWriter(&out, c, WriterBackend(BackendGPU))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(data[:PageSize+5]); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitGPU(); err != nil {
		t.Fatal(err)
	}
	// CPU batches carry the stream until the GPU's are made: the CPU
	// batch being filled, and one byte more, whose batch starts their
	// making; wait for them here, so that the GPU takes the rest.
	next := int64(cpuBatchPages*PageSize + 1)
	if _, err := zw.Write(data[PageSize+5 : next]); err != nil {
		t.Fatal(err)
	}
	if zw.making == nil {
		t.Fatal("the GPU is open and the Writer makes no GPU batches")
	}
	<-zw.making
	if _, err := f.Seek(next, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if _, err := zw.ReadFrom(f); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if want := compressStream(t, data); !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("the frame (%d bytes) differs from the CPU's (%d bytes)", out.Len(), len(want))
	}
	if s := c.Stats(); s.PagesCompressed < 2*gpuBatchPages || s.GPUFallbacks != 0 {
		t.Fatalf("stats %+v: want the GPU's batches without fallback", s)
	}
}

// Checks STREAM-2: a Writer on the GPU whose batches cannot be made (its
// Compressor closed) fails with that error instead of waiting for them.
func TestWriterGPUBatchesFail(t *testing.T) {
	c, _, _ := fakeCompressor(1)
	zw, err := NewWriter(io.Discard, c, WriterBackend(BackendGPU))
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	zw.Write(make([]byte, PageSize)) // starts the maker, which fails, perhaps at once
	for deadline := time.Now().Add(10 * time.Second); zw.failed() == nil; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the Writer did not fail in 10 s")
		}
	}
	_, werr := zw.Write(make([]byte, (zw.mostPlain+1)*cpuBatchPages*PageSize))
	if err := zw.Close(); !errors.Is(err, ErrClosed) || !errors.Is(werr, ErrClosed) {
		t.Fatalf("Write: %v, Close: %v; want ErrClosed", werr, err)
	}
}
