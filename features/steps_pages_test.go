package features

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cucumber/godog"
	"github.com/lz4warp/lz4warp"
	"github.com/lz4warp/lz4warp/reference"
	"github.com/pierrec/lz4/v4"
)

// Steps that compress and decompress real pages through a Compressor.

func (w *world) registerPageSteps(sc *godog.ScenarioContext) {
	sc.Step(`^a compressor with the default configuration$`, w.defaultCompressor)
	sc.Step(`^a GPU batch compressor with the default configuration$`, w.gpuCompressor)
	sc.Step(`^a GPU batch compressor is requested with the default configuration$`, w.requestGPUCompressor)
	sc.Step(`^the request fails with an error wrapping ErrGPUNotAvailable$`, w.requestFailedNoGPU)
	sc.Step(`^no CUDA device is listed as supported$`, noSupportedDevice)
	sc.Step(`^a GPU batch compressor that opens its GPU in the background$`, w.backgroundCompressor)
	sc.Step(`^waiting for the GPU gives an error wrapping ErrGPUNotAvailable$`, w.waitGPUFails)

	sc.Step(`^a batch of (\d+) ([\w-]+) pages?$`, w.batchOf)
	sc.Step(`^an empty batch$`, w.emptyBatch)
	sc.Step(`^a mixed batch of (\d+) pages$`, w.mixedBatch)
	sc.Step(`^a batch of (\d+) pages cycling through (.+)$`, w.batchCycling)
	sc.Step(`^a page whose 8-byte words all equal 0x([0-9a-f]{16})$`, w.pageOfWords64)
	sc.Step(`^a page whose 4-byte words all equal 0x([0-9a-f]{8}) except the last$`, w.pageOfWords32ButLast)
	sc.Step(`^a page of 16-byte period 0x([0-9a-f]{32})$`, w.pageOfPeriod16)
	sc.Step(`^a page of (\d+) random bytes followed by zeros$`, w.randomPrefixPage)
	sc.Step(`^its canonical LZ4 block is (\d+) bytes long$`, w.canonicalBlockLength)

	sc.Step(`^the batch is compressed$`, w.compress)
	sc.Step(`^it compresses a batch of (\d+) ([\w-]+) pages?$`, w.compressBatchOf)
	sc.Step(`^it decompresses the last batch$`, w.decompressLast)
	sc.Step(`^the batch is compressed in parts of (\d+) pages through (\d+) page buffers in turn, each part started without waiting$`, w.compressAsync)
	sc.Step(`^the batch was compressed by (scalar|simd|gpu)$`, w.compressedBy)
	sc.Step(`^page (\d+) is stored as (same|lz4|raw) with a payload of (less than )?(\d+) bytes$`, w.pageStoredAs)
	sc.Step(`^every same-filled payload is its page's first 8 bytes and every raw payload is its page$`, w.samePayloadsAndRawPayloads)
	sc.Step(`^every LZ4 page decodes with pierrec/lz4 to the original page$`, w.pierrecDecodes)
	sc.Step(`^the batch decompresses to the original pages$`, w.roundTrip)
	sc.Step(`^every page's kind and payload are those of reference\.EncodePage$`, w.matchesReference)
	sc.Step(`^the batch holds (\d+) pages of each of the kinds same, lz4 and raw at least$`, w.holdsEachKind)
	sc.Step(`^the same pages are compressed again 3 at a time, on the scalar backend$`, w.compressAgainInThrees)
	sc.Step(`^the same pages are compressed again shifted by one place in the batch$`, w.compressAgainShifted)
	sc.Step(`^the same pages are compressed again$`, w.compressAgain)
	sc.Step(`^both compressions give the same bytes$`, w.sameBytes)
	sc.Step(`^the GPU did not fall back to the CPU$`, w.noFallback)
	sc.Step(`^the documentation's status "([^"]+)"$`, w.documentedStatus)
	sc.Step(`^GPU compression was not blocked$`, w.gpuNotBlocked)

	// results and statistics of real batches
	sc.Step(`^the batch's throughput is its input bytes over its total time$`, w.batchThroughput)
	sc.Step(`^the batch's compression ratio is ([\d.]+)$`, w.batchRatioIs)
	sc.Step(`^the batch's compression ratio is the pages' 4096 bytes each over the sum of the payload lengths$`, w.batchRatioFormula)
	sc.Step(`^the batch's compression ratio is (above|below) the documented figure$`, w.batchRatioVsDocumented)
	sc.Step(`^the statistics count (\d+) pages compressed, (\d+) bytes in and (\d+) bytes out$`, w.statsCount)
	sc.Step(`^the statistics' total time is the sum of the batches' total times$`, w.statsTimeIsSum)
	sc.Step(`^the statistics' decompression time is more than 0$`, w.statsDecompressTimePositive)
	sc.Step(`^the statistics' throughput is its bytes in over its total time$`, w.statsThroughputFormula)
	sc.Step(`^the statistics count (\d+) pages decompressed$`, w.statsDecompressed)

	// corrupt input
	sc.Step(`^page (\d+) is corrupted by (.+)$`, w.corruptPage)
	sc.Step(`^the batch is decompressed$`, w.decompress)
	sc.Step(`^the batch is decompressed into (\d+) pages$`, w.decompressInto)
	sc.Step(`^the error names pages ([\d, ]+) and no other$`, w.errorNamesPages)
	sc.Step(`^the error matches (ErrCorrupt|ErrShortBuffer)$`, w.errorMatches)
	sc.Step(`^every other page is decoded to the original$`, w.othersDecoded)
	sc.Step(`^no destination page was written$`, w.noDestinationWritten)
	sc.Step(`^the batch decompressed without error$`, w.decompressedWithoutError)
	sc.Step(`^destination page (\d+) was not written$`, w.destinationNotWritten)
}

// --- compressors ---

func (w *world) defaultCompressor() error {
	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		return err
	}
	w.closeLater(c)
	w.comp = c
	return nil
}

func (w *world) gpuCompressor() error {
	c, err := lz4warp.NewGPUBatchCompressor(lz4warp.DefaultConfig())
	if err != nil {
		return fmt.Errorf("NewGPUBatchCompressor: %w", err)
	}
	w.closeLater(c)
	w.comp = c
	return nil
}

func (w *world) requestGPUCompressor() error {
	c, err := lz4warp.NewGPUBatchCompressor(lz4warp.DefaultConfig())
	if c != nil {
		w.closeLater(c)
	}
	w.gpuRequestErr = err
	return nil
}

func (w *world) backgroundCompressor() error {
	cfg := lz4warp.DefaultConfig()
	cfg.OpenInBackground = true
	c, err := lz4warp.NewGPUBatchCompressor(cfg)
	if err != nil {
		return fmt.Errorf("NewGPUBatchCompressor with OpenInBackground: %w, want it to return at once", err)
	}
	w.closeLater(c)
	w.comp = c
	return nil
}

func (w *world) waitGPUFails() error {
	if err := w.comp.WaitGPU(); !errors.Is(err, lz4warp.ErrGPUNotAvailable) {
		return fmt.Errorf("WaitGPU = %v, want an error wrapping ErrGPUNotAvailable", err)
	}
	return nil
}

func (w *world) requestFailedNoGPU() error {
	if !errors.Is(w.gpuRequestErr, lz4warp.ErrGPUNotAvailable) {
		return fmt.Errorf("NewGPUBatchCompressor error = %v, want one wrapping ErrGPUNotAvailable", w.gpuRequestErr)
	}
	return nil
}

func noSupportedDevice() error {
	devs, err := lz4warp.Devices()
	if err != nil {
		return nil // no device can be listed at all
	}
	for _, d := range devs {
		if d.IsSupported() {
			return fmt.Errorf("device %d (%s, %d.%d) is supported", d.Index, d.Name, d.ComputeCapability[0], d.ComputeCapability[1])
		}
	}
	if lz4warp.GPUAvailable() {
		return errors.New("GPUAvailable() = true with no supported device listed")
	}
	return nil
}

// --- batches ---

func (w *world) batchOf(n int, content string) error {
	pages, err := makeBatch(n, []string{content})
	w.pages = pages
	return err
}

func (w *world) emptyBatch() error {
	w.pages = []lz4warp.Page{}
	return nil
}

func (w *world) mixedBatch(n int) error {
	pages, err := makeBatch(n, mixedContents)
	w.pages = pages
	return err
}

func (w *world) batchCycling(n int, list string) error {
	var contents []string
	for _, c := range strings.Split(list, ",") {
		contents = append(contents, strings.TrimSpace(c))
	}
	pages, err := makeBatch(n, contents)
	w.pages = pages
	return err
}

func (w *world) pageOfWords64(word string) error {
	v, err := strconv.ParseUint(word, 16, 64)
	if err != nil {
		return err
	}
	var p lz4warp.Page
	for i := 0; i < len(p); i += 8 {
		binary.LittleEndian.PutUint64(p[i:], v)
	}
	w.pages = append(w.pages, p)
	return nil
}

func (w *world) pageOfWords32ButLast(word string) error {
	v, err := strconv.ParseUint(word, 16, 32)
	if err != nil {
		return err
	}
	var p lz4warp.Page
	for i := 0; i < len(p)-4; i += 4 {
		binary.LittleEndian.PutUint32(p[i:], uint32(v))
	}
	binary.LittleEndian.PutUint32(p[len(p)-4:], ^uint32(v))
	w.pages = append(w.pages, p)
	return nil
}

func (w *world) pageOfPeriod16(pattern string) error {
	b, err := hex.DecodeString(pattern)
	if err != nil {
		return err
	}
	var p lz4warp.Page
	for i := 0; i < len(p); i += len(b) {
		copy(p[i:], b)
	}
	w.pages = append(w.pages, p)
	return nil
}

func (w *world) randomPrefixPage(n int) error {
	p, err := makePage("random-prefix-"+strconv.Itoa(n), 0)
	w.pages = []lz4warp.Page{p}
	return err
}

func (w *world) canonicalBlockLength(want int) error {
	if len(w.pages) != 1 {
		return fmt.Errorf("want one page, have %d", len(w.pages))
	}
	dst := make([]byte, reference.CompressBlockBound(lz4warp.PageSize))
	n, err := reference.CompressBlock(dst, w.pages[0][:])
	if err != nil {
		return err
	}
	if n != want {
		return fmt.Errorf("canonical block of the page is %d bytes, want %d", n, want)
	}
	return nil
}

// --- compression ---

func (w *world) compress() error {
	if w.comp == nil {
		return errors.New("no compressor")
	}
	res, err := w.comp.CompressBatch(w.pages)
	if err != nil {
		return fmt.Errorf("CompressBatch(%d pages): %w", len(w.pages), err)
	}
	if len(res.Pages) != len(w.pages) {
		return fmt.Errorf("CompressBatch returned %d pages for %d", len(res.Pages), len(w.pages))
	}
	w.result = res
	w.batchTimes = append(w.batchTimes, res.TotalTime)
	w.lastBatch = res.Pages
	return nil
}

// compressAsync compresses w.pages part by part through buffers used in
// turn with CompressBufferAsync (API-19), a buffer's next part started once
// its last part's Wait has returned and its payloads are copied out, and
// keeps the parts' results, in order, as one batch's.
func (w *world) compressAsync(part, buffers int) error {
	if w.comp == nil {
		return errors.New("no compressor")
	}
	bufs := make([]*lz4warp.PageBuffer, buffers)
	for i := range bufs {
		b, err := w.comp.NewPageBuffer(part)
		if err != nil {
			return err
		}
		defer b.Close()
		bufs[i] = b
	}
	res := &lz4warp.BatchResult{}
	started := make([]*lz4warp.PendingBatch, buffers)
	take := func(p *lz4warp.PendingBatch) error {
		if p == nil {
			return nil
		}
		r, err := p.Wait()
		if err != nil {
			return err
		}
		res.Backend = r.Backend
		for _, c := range r.Pages { // the payloads live in the buffer: copied before its next part
			res.Pages = append(res.Pages, lz4warp.CompressedPage{Kind: c.Kind, Data: append([]byte(nil), c.Data...)})
		}
		return nil
	}
	for k, lo := 0, 0; lo < len(w.pages); k, lo = k+1, lo+part {
		b := bufs[k%buffers]
		if err := take(started[k%buffers]); err != nil {
			return err
		}
		n := copy(b.Pages(), w.pages[lo:min(lo+part, len(w.pages))])
		p, err := w.comp.CompressBufferAsync(b, n)
		if err != nil {
			return fmt.Errorf("CompressBufferAsync(%d pages): %w", n, err)
		}
		started[k%buffers] = p
	}
	// The parts still on their way, oldest first.
	first := (len(w.pages) + part - 1) / part
	for k := range buffers {
		if err := take(started[(first+k)%buffers]); err != nil {
			return err
		}
	}
	if len(res.Pages) != len(w.pages) {
		return fmt.Errorf("%d pages came back for %d", len(res.Pages), len(w.pages))
	}
	w.result, w.lastBatch = res, res.Pages
	return nil
}

func (w *world) compressBatchOf(n int, content string) error {
	if err := w.batchOf(n, content); err != nil {
		return err
	}
	return w.compress()
}

func (w *world) decompressLast() error {
	dst := make([]lz4warp.Page, len(w.lastBatch))
	if err := w.comp.DecompressBatch(w.lastBatch, dst); err != nil {
		return err
	}
	for i := range dst {
		if dst[i] != w.pages[i] {
			return fmt.Errorf("page %d decompressed differs from the original", i)
		}
	}
	return nil
}

func (w *world) compressedBy(want string) error {
	if got := w.result.Backend.String(); got != want {
		return fmt.Errorf("batch of %d pages compressed by %s, want %s", len(w.pages), got, want)
	}
	return nil
}

func (w *world) pageStoredAs(i int, kind, lessThan string, length int) error {
	if i >= len(w.result.Pages) {
		return fmt.Errorf("no page %d", i)
	}
	p := w.result.Pages[i]
	if p.Kind.String() != kind {
		return fmt.Errorf("page %d stored as %s (%d bytes), want %s", i, p.Kind, len(p.Data), kind)
	}
	if lessThan != "" {
		if len(p.Data) >= length || len(p.Data) == 0 {
			return fmt.Errorf("page %d payload is %d bytes, want fewer than %d", i, len(p.Data), length)
		}
	} else if len(p.Data) != length {
		return fmt.Errorf("page %d payload is %d bytes, want %d", i, len(p.Data), length)
	}
	return nil
}

func (w *world) samePayloadsAndRawPayloads() error {
	for i, p := range w.result.Pages {
		switch p.Kind {
		case lz4warp.KindSame:
			if !bytes.Equal(p.Data, w.pages[i][:8]) {
				return fmt.Errorf("page %d: same-filled payload %x, want the first 8 bytes %x", i, p.Data, w.pages[i][:8])
			}
		case lz4warp.KindRaw:
			if !bytes.Equal(p.Data, w.pages[i][:]) {
				return fmt.Errorf("page %d: raw payload is not the page", i)
			}
		}
	}
	return nil
}

func (w *world) pierrecDecodes() error {
	for i, p := range w.result.Pages {
		if p.Kind != lz4warp.KindLZ4 {
			continue
		}
		out := make([]byte, lz4warp.PageSize+64)
		n, err := lz4.UncompressBlock(p.Data, out)
		if err != nil {
			return fmt.Errorf("page %d: pierrec/lz4 UncompressBlock: %w", i, err)
		}
		if n != lz4warp.PageSize || !bytes.Equal(out[:n], w.pages[i][:]) {
			return fmt.Errorf("page %d: pierrec/lz4 decodes %d bytes that differ from the page", i, n)
		}
	}
	return nil
}

func (w *world) roundTrip() error {
	dst := make([]lz4warp.Page, len(w.result.Pages))
	if err := w.comp.DecompressBatch(w.result.Pages, dst); err != nil {
		return fmt.Errorf("DecompressBatch: %w", err)
	}
	for i := range dst {
		if dst[i] != w.pages[i] {
			return fmt.Errorf("page %d decompressed differs from the original", i)
		}
	}
	return nil
}

func (w *world) matchesReference() error {
	buf := make([]byte, reference.PageBound)
	for i := range w.pages {
		kind, n := reference.EncodePage(buf, &w.pages[i])
		got := w.result.Pages[i]
		if uint8(got.Kind) != uint8(kind) || !bytes.Equal(got.Data, buf[:n]) {
			return fmt.Errorf("page %d: %s payload of %d bytes, reference.EncodePage gives %s of %d bytes",
				i, got.Kind, len(got.Data), kind, n)
		}
	}
	w.checkedRef = true
	return nil
}

func (w *world) holdsEachKind(atLeast int) error {
	counts := map[lz4warp.PageKind]int{}
	for _, p := range w.result.Pages {
		counts[p.Kind]++
	}
	for _, k := range []lz4warp.PageKind{lz4warp.KindSame, lz4warp.KindLZ4, lz4warp.KindRaw} {
		if counts[k] < atLeast {
			return fmt.Errorf("%d %s pages, want at least %d", counts[k], k, atLeast)
		}
	}
	return nil
}

func (w *world) compressAgainInThrees() error {
	w.again = nil
	for lo := 0; lo < len(w.pages); lo += 3 {
		hi := min(lo+3, len(w.pages))
		res, err := w.comp.CompressBatchOn(lz4warp.BackendScalar, w.pages[lo:hi])
		if err != nil {
			return err
		}
		if res.Backend != lz4warp.BackendScalar {
			return fmt.Errorf("a batch of %d pages was compressed by %s, want scalar", hi-lo, res.Backend)
		}
		w.again = append(w.again, res.Pages...)
	}
	return nil
}

func (w *world) compressAgainShifted() error {
	first, err := makePage("text", 99)
	if err != nil {
		return err
	}
	res, err := w.comp.CompressBatch(append([]lz4warp.Page{first}, w.pages...))
	if err != nil {
		return err
	}
	w.again = res.Pages[1:]
	return nil
}

func (w *world) compressAgain() error {
	res, err := w.comp.CompressBatch(w.pages)
	if err != nil {
		return err
	}
	if res.Backend != w.result.Backend {
		return fmt.Errorf("compressed again by %s, first by %s", res.Backend, w.result.Backend)
	}
	w.again = res.Pages
	return nil
}

func (w *world) sameBytes() error {
	if len(w.again) != len(w.result.Pages) {
		return fmt.Errorf("%d pages, then %d", len(w.result.Pages), len(w.again))
	}
	for i, p := range w.result.Pages {
		q := w.again[i]
		if p.Kind != q.Kind || !bytes.Equal(p.Data, q.Data) {
			return fmt.Errorf("page %d: %s of %d bytes, then %s of %d bytes", i, p.Kind, len(p.Data), q.Kind, len(q.Data))
		}
	}
	return nil
}

func (w *world) noFallback() error {
	if n := w.comp.Stats().GPUFallbacks; n != 0 {
		return fmt.Errorf("%d GPU batch(es) fell back to the CPU", n)
	}
	return nil
}

func (w *world) documentedStatus(status string) error {
	w.gpuStatus = status
	return nil
}

func (w *world) gpuNotBlocked() error {
	if w.result.Backend != lz4warp.BackendGPU || !w.checkedRef || w.comp.Stats().GPUFallbacks != 0 {
		return fmt.Errorf("the batch was not compressed correctly on the GPU (backend %s, checked against the reference %v)",
			w.result.Backend, w.checkedRef)
	}
	godog.Logf(w.ctx, "documented: %q; measured: %d pages compressed on the GPU, byte-identical to the reference",
		w.gpuStatus, len(w.pages))
	return nil
}

// --- results and statistics ---

func (w *world) batchThroughput() error {
	in := len(w.pages) * lz4warp.PageSize
	got := w.result.ThroughputBytesPerSec(in)
	if w.result.TotalTime <= 0 {
		return fmt.Errorf("a batch of %d pages took %v", len(w.pages), w.result.TotalTime)
	}
	want := float64(in) / w.result.TotalTime.Seconds()
	if got != want {
		return fmt.Errorf("ThroughputBytesPerSec(%d) over %v = %v, want %v", in, w.result.TotalTime, got, want)
	}
	return nil
}

func (w *world) batchRatioIs(want string) error {
	if err := near(w.result.CompressionRatio(), want); err != nil {
		return fmt.Errorf("CompressionRatio() of %d pages: %w", len(w.result.Pages), err)
	}
	return nil
}

func (w *world) batchRatioFormula() error {
	stored := 0
	for _, p := range w.result.Pages {
		stored += len(p.Data)
	}
	if stored == 0 {
		return errors.New("nothing stored")
	}
	want := float64(len(w.result.Pages)*lz4warp.PageSize) / float64(stored)
	if got := w.result.CompressionRatio(); got != want {
		return fmt.Errorf("CompressionRatio() = %v, want %v", got, want)
	}
	return nil
}

func (w *world) batchRatioVsDocumented(relation string) error {
	got := w.result.CompressionRatio()
	godog.Logf(w.ctx, "documented CPU ratio %.2f; this batch %.4f", w.doc.ratio, got)
	if w.doc.ratio == 0 {
		return errors.New("no documented ratio")
	}
	if (relation == "above") != (got > w.doc.ratio) {
		return fmt.Errorf("ratio %.4f is not %s the documented %.2f", got, relation, w.doc.ratio)
	}
	return nil
}

func (w *world) statsCount(pages, in, out uint64) error {
	s := w.comp.Stats()
	if s.PagesCompressed != pages || s.TotalBytesIn != in || s.TotalBytesOut != out {
		return fmt.Errorf("Stats: %d pages, %d bytes in, %d out; want %d, %d, %d",
			s.PagesCompressed, s.TotalBytesIn, s.TotalBytesOut, pages, in, out)
	}
	return nil
}

func (w *world) sumOfBatchTimes() time.Duration {
	var sum time.Duration
	for _, d := range w.batchTimes {
		sum += d
	}
	return sum
}

func (w *world) statsTimeIsSum() error {
	if got, want := w.comp.Stats().TotalTime, w.sumOfBatchTimes(); got != want {
		return fmt.Errorf("Stats.TotalTime = %v, the batches' total times add up to %v", got, want)
	}
	return nil
}

func (w *world) statsDecompressTimePositive() error {
	if got := w.comp.Stats().DecompressTime; got <= 0 {
		return fmt.Errorf("Stats.DecompressTime = %v after a DecompressBatch", got)
	}
	return nil
}

func (w *world) statsThroughputFormula() error {
	s := w.comp.Stats()
	if s.TotalTime <= 0 {
		return fmt.Errorf("no time recorded")
	}
	want := float64(s.TotalBytesIn) / s.TotalTime.Seconds() / 1e9
	if got := s.ThroughputGBps(); got != want {
		return fmt.Errorf("ThroughputGBps() = %v, want %v", got, want)
	}
	return nil
}

func (w *world) statsDecompressed(n uint64) error {
	if got := w.comp.Stats().PagesDecompressed; got != n {
		return fmt.Errorf("PagesDecompressed = %d, want %d", got, n)
	}
	return nil
}

// --- corrupt input ---

func (w *world) corruptPage(i int, how string) error {
	if w.compressed == nil {
		w.compressed = make([]lz4warp.CompressedPage, len(w.result.Pages))
		for j, p := range w.result.Pages {
			w.compressed[j] = lz4warp.CompressedPage{Kind: p.Kind, Data: bytes.Clone(p.Data)}
		}
		w.corrupted = map[int]bool{}
	}
	if i >= len(w.compressed) {
		return fmt.Errorf("no page %d", i)
	}
	p := &w.compressed[i]
	w.corrupted[i] = true
	block := func(n int) ([]byte, error) {
		src := bytes.Repeat([]byte("corrupt "), n/8+1)[:n]
		dst := make([]byte, reference.CompressBlockBound(n))
		m, err := reference.CompressBlock(dst, src)
		return dst[:m], err
	}
	var err error
	switch how {
	case "dropping the last byte of its payload":
		p.Data = p.Data[:len(p.Data)-1]
	case "appending a byte to its payload":
		p.Data = append(p.Data, 0)
	case "emptying its payload":
		p.Data = nil
	case "setting its kind to same":
		p.Kind = lz4warp.KindSame
	case "setting its kind to lz4":
		p.Kind = lz4warp.KindLZ4
	case "setting its kind to raw":
		p.Kind = lz4warp.KindRaw
	case "replacing its payload with a valid LZ4 block of 100 bytes":
		p.Kind = lz4warp.KindLZ4
		p.Data, err = block(100)
	case "replacing its payload with a valid LZ4 block of 4097 bytes":
		p.Kind = lz4warp.KindLZ4
		p.Data, err = block(4097)
	case "replacing its payload with a match whose offset is 0":
		p.Kind, p.Data = lz4warp.KindLZ4, []byte{0x10, 'a', 0, 0, 0x50, 'b', 'c', 'd', 'e', 'f'}
	case "replacing its payload with a match reaching before the page":
		p.Kind, p.Data = lz4warp.KindLZ4, []byte{0x10, 'a', 2, 0, 0x50, 'b', 'c', 'd', 'e', 'f'}
	case "replacing its payload with a token promising 15 literals":
		p.Kind, p.Data = lz4warp.KindLZ4, []byte{0xf0, 0, 'a', 'b', 'c'}
	default:
		kind, ok := strings.CutPrefix(how, "setting its kind to ")
		if !ok {
			return godog.ErrUndefined
		}
		k, perr := strconv.ParseUint(kind, 10, 8)
		if perr != nil {
			return perr
		}
		p.Kind = lz4warp.PageKind(k)
	}
	return err
}

// sentinel fills destination pages so that a write to them shows.
const sentinel = 0xa5

func (w *world) decompressInto(n int) error {
	src := w.compressed
	if src == nil {
		src = w.result.Pages
	}
	w.dst = make([]lz4warp.Page, n)
	for i := range w.dst {
		for j := range w.dst[i] {
			w.dst[i][j] = sentinel
		}
	}
	w.decodeErr = w.comp.DecompressBatch(src, w.dst)
	return nil
}

func (w *world) decompress() error {
	n := len(w.result.Pages)
	return w.decompressInto(n)
}

func (w *world) errorNamesPages(list string) error {
	var want []int
	for _, s := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return err
		}
		want = append(want, n)
	}
	var de *lz4warp.DecodeError
	if !errors.As(w.decodeErr, &de) {
		return fmt.Errorf("DecompressBatch error = %v, want a *DecodeError", w.decodeErr)
	}
	var got []int
	for _, pe := range de.Pages {
		got = append(got, pe.Index)
		if !strings.Contains(de.Error(), fmt.Sprintf("page %d:", pe.Index)) {
			return fmt.Errorf("the error %q does not name page %d", de, pe.Index)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return fmt.Errorf("the error names pages %v, want %v (%v)", got, want, de)
	}
	var pe *lz4warp.PageError
	if !errors.As(w.decodeErr, &pe) || pe.Index != want[0] {
		return fmt.Errorf("errors.As finds no *PageError for page %d in %v", want[0], w.decodeErr)
	}
	godog.Logf(w.ctx, "%v", w.decodeErr)
	return nil
}

func (w *world) errorMatches(name string) error {
	target := map[string]error{"ErrCorrupt": lz4warp.ErrCorrupt, "ErrShortBuffer": lz4warp.ErrShortBuffer}[name]
	if !errors.Is(w.decodeErr, target) {
		return fmt.Errorf("error %v does not match %s", w.decodeErr, name)
	}
	return nil
}

func (w *world) othersDecoded() error {
	for i := range w.pages {
		if w.corrupted[i] {
			continue
		}
		if w.dst[i] != w.pages[i] {
			return fmt.Errorf("page %d was not decoded to the original", i)
		}
	}
	return nil
}

func (w *world) noDestinationWritten() error {
	for i := range w.dst {
		if err := w.destinationNotWritten(i); err != nil {
			return err
		}
	}
	return nil
}

func (w *world) destinationNotWritten(i int) error {
	for j, b := range w.dst[i] {
		if b != sentinel {
			return fmt.Errorf("destination page %d was written at byte %d", i, j)
		}
	}
	return nil
}

func (w *world) decompressedWithoutError() error {
	if w.decodeErr != nil {
		return fmt.Errorf("DecompressBatch: %w", w.decodeErr)
	}
	return nil
}
