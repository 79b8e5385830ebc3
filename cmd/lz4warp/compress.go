package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/lz4warp/lz4warp"
	"github.com/lz4warp/lz4warp/internal/lz4frame"
	"github.com/lz4warp/lz4warp/reference"
)

const suffix = ".lz4"

var errInterrupted = errors.New("interrupted")

type fileFlags struct {
	out     string
	force   bool
	quiet   bool
	verbose bool
}

func (f *fileFlags) register(fsFlags interface {
	StringVar(*string, string, string, string)
	BoolVar(*bool, string, bool, string)
}) {
	fsFlags.StringVar(&f.out, "o", "", "output file (- for stdout); default: stdout for stdin, else the input's name with .lz4 added or removed")
	fsFlags.BoolVar(&f.force, "f", false, "overwrite an existing output file")
	fsFlags.BoolVar(&f.quiet, "q", false, "no progress bar")
	fsFlags.BoolVar(&f.verbose, "v", false, "print a summary on stderr")
}

func runCompress(e *env, args []string) error {
	fs := newFlags(e, "compress", "[file|-]")
	var ff fileFlags
	ff.register(fs)
	backend := fs.String("backend", "auto", "backend: auto, scalar, simd or gpu")
	batch := fs.Int("batch", lz4warp.DefaultConfig().BatchSize, "pages per CompressBatch call")
	var devs deviceChoice
	fs.Var(&devs, "devices", "GPUs to use: all, or indexes such as 0,1 (default: device 0)")
	operand, err := singleOperand(fs, args)
	if err != nil {
		return err
	}
	outPath, err := outputPath(ff.out, operand, suffix, true)
	if err != nil {
		return err
	}
	if outPath == "-" && e.stdoutTTY {
		return usagef("refusing to write compressed data to a terminal (use -o or redirect stdout)")
	}
	pc, err := newPageCompressor(*backend, *batch, devs)
	if err != nil {
		return err
	}
	defer pc.Close()
	return withFiles(e, operand, outPath, ff, "compress", func(in *input, w io.Writer, prog *progress) (fileReport, error) {
		pages := *batch
		if in.size >= 0 { // a small file needs no batch-sized buffers
			pages = int(min(int64(pages), in.size/lz4warp.PageSize+1))
		}
		return compressStream(e, pc, pages, in.r, w, prog)
	})
}

// singleOperand parses the flags and returns the one optional file operand
// ("" for none).
func singleOperand(fs *flag.FlagSet, args []string) (string, error) {
	operands, err := parseInterspersed(fs, args)
	if err != nil {
		return "", err
	}
	if len(operands) > 1 {
		return "", usagef("one input at most, got %d", len(operands))
	}
	if len(operands) == 1 {
		return operands[0], nil
	}
	return "", nil
}

func runDecompress(e *env, args []string) error {
	fs := newFlags(e, "decompress", "[file|-]")
	var ff fileFlags
	ff.register(fs)
	operand, err := singleOperand(fs, args)
	if err != nil {
		return err
	}
	outPath, err := outputPath(ff.out, operand, suffix, false)
	if err != nil {
		return err
	}
	return withFiles(e, operand, outPath, ff, "decompress", func(in *input, w io.Writer, prog *progress) (fileReport, error) {
		return decompressStream(e, in.r, w, prog)
	})
}

// fileReport is what a compress or decompress did.
type fileReport struct {
	in, out  int64
	backends map[lz4warp.Backend]int // compress: pages per backend that ran
	kinds    [4]int                  // compress: pages per kind, by PAGE-2 code
	elapsed  time.Duration
}

// withFiles opens the input and output, runs work, and commits the output
// only when work succeeds: on error no file is left under the output's
// name (CLI-8).
func withFiles(e *env, operand, outPath string, ff fileFlags, verb string,
	work func(*input, io.Writer, *progress) (fileReport, error)) error {
	in, err := openInput(e, operand)
	if err != nil {
		return err
	}
	defer in.Close()
	if sameFile(in, outPath) {
		return usagef("input and output are the same file: %s", outPath)
	}
	out, err := createOutput(e, outPath, ff.force, in.mode)
	if err != nil {
		return err
	}
	defer out.abort()
	bw := bufio.NewWriterSize(out.w, 1<<20)
	prog := newProgress(e, verb, in.size, !ff.quiet && e.stderrTTY)
	start := time.Now()
	type result struct {
		rep fileReport
		err error
	}
	done := make(chan result, 1)
	toStdout := out.tmp == nil // read here: an interruption's abort clears it
	go func() {
		rep, err := work(in, bw, prog)
		// stdout gets what was done before a failure, as unbuffered
		// output would (CLI-10: the blocks before a faulty one); a file
		// output is removed instead (CLI-8).
		if err == nil || toStdout {
			if ferr := bw.Flush(); err == nil {
				err = ferr
			}
		}
		done <- result{rep, err}
	}()
	var res result
	select {
	case res = <-done:
	case <-e.ctx.Done():
		// The work may be blocked reading its input: leave it, and
		// remove the output (deferred abort).
		res.err = errInterrupted
	}
	prog.finish()
	rep, err := res.rep, res.err
	if err != nil {
		return fmt.Errorf("%s: %w", in.name, err)
	}
	if err := out.commit(); err != nil {
		return err
	}
	rep.elapsed = time.Since(start)
	if ff.verbose {
		printFileReport(e.stderr, verb, in.name, out.name, rep)
	}
	return nil
}

func printFileReport(w io.Writer, verb, from, to string, r fileReport) {
	secs := r.elapsed.Seconds()
	fmt.Fprintf(w, "%s %s -> %s: %d -> %d bytes", verb, from, to, r.in, r.out)
	if verb == "compress" && r.out > 0 {
		fmt.Fprintf(w, " (ratio %.3f)", float64(r.in)/float64(r.out))
	}
	if secs > 0 {
		fmt.Fprintf(w, ", %.1f MB/s", float64(r.in)/secs/1e6)
	}
	fmt.Fprintln(w)
	if verb == "compress" {
		fmt.Fprintf(w, "  pages: %d same, %d lz4, %d raw", r.kinds[lz4warp.KindSame], r.kinds[lz4warp.KindLZ4], r.kinds[lz4warp.KindRaw])
		for _, b := range []lz4warp.Backend{lz4warp.BackendGPU, lz4warp.BackendSIMD, lz4warp.BackendScalar} {
			if n := r.backends[b]; n > 0 {
				fmt.Fprintf(w, "; %d on %v", n, b)
			}
		}
		fmt.Fprintln(w)
	}
}

// batchBuf is one batch in flight between the reader and the writer.
type batchBuf struct {
	pages []lz4warp.Page
	full  int // whole pages read
	tail  int // bytes of a last, partial page (in pages[full])
	res   *lz4warp.BatchResult
	err   error
}

// compressStream reads r in batches of whole pages, compresses each batch
// through the public API and writes one frame (CLI-3). Reading and
// compressing one batch overlaps writing the previous one; memory holds
// three batches at most, whatever the input's length.
func compressStream(e *env, pc *pageCompressor, batch int, r io.Reader, w io.Writer, prog *progress) (fileReport, error) {
	rep := fileReport{backends: map[lz4warp.Backend]int{}}
	// Buffers are made as the pipeline needs them, three at most.
	free := make(chan *batchBuf, 3)
	made := 0
	ready := make(chan *batchBuf, 1)
	// stop ends the reader when the writer returns early (an error, an
	// interruption); the reader may then still be blocked in a read, and
	// is left to finish on its own.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(ready)
		for {
			var b *batchBuf
			select {
			case b = <-free:
			case <-stop:
				return
			default:
				if made < cap(free) {
					made++
					b = &batchBuf{pages: make([]lz4warp.Page, batch)}
					break
				}
				select {
				case b = <-free:
				case <-stop:
					return
				}
			}
			b.res = nil
			b.full, b.tail, b.err = readPages(r, b.pages)
			if b.err == nil && b.full > 0 {
				b.res, b.err = pc.compress(b.pages[:b.full])
				if b.err == nil && len(b.res.Pages) != b.full {
					b.err = fmt.Errorf("CompressBatch returned %d pages for %d", len(b.res.Pages), b.full)
				}
			}
			select {
			case ready <- b:
			case <-stop:
				return
			}
			if b.err != nil || b.full < len(b.pages) {
				return
			}
		}
	}()

	fw := lz4frame.NewWriter(w, lz4frame.WriterOptions{})
	var same sameBlocks
	for b := range ready {
		if b.err != nil {
			return rep, b.err
		}
		if b.res != nil {
			rep.backends[b.res.Backend] += b.full
			for i, p := range b.res.Pages {
				data := b.pages[i][:]
				var block []byte
				switch p.Kind {
				case lz4warp.KindLZ4:
					block = p.Data
				case lz4warp.KindSame:
					block = same.block(data)
				case lz4warp.KindRaw:
				default:
					return rep, fmt.Errorf("page %d of a batch has kind %v", i, p.Kind)
				}
				rep.kinds[p.Kind]++
				if err := fw.WriteBlock(data, block); err != nil {
					return rep, err
				}
			}
		}
		if b.tail > 0 {
			data := b.pages[b.full][:b.tail]
			if err := fw.WriteBlock(data, shortBlock(data)); err != nil {
				return rep, err
			}
		}
		n := int64(b.full)*lz4warp.PageSize + int64(b.tail)
		rep.in += n
		prog.add(n)
		free <- b
	}
	if err := fw.Close(); err != nil {
		return rep, err
	}
	rep.out = fw.Written()
	return rep, nil
}

// readPages fills pages from r: the number of whole pages, and the length of
// a last partial page when r ends inside one.
func readPages(r io.Reader, pages []lz4warp.Page) (full, tail int, err error) {
	for full < len(pages) {
		n, err := io.ReadFull(r, pages[full][:])
		if err == io.EOF {
			return full, 0, nil
		}
		if err == io.ErrUnexpectedEOF {
			return full, n, nil
		}
		if err != nil {
			return full, 0, err
		}
		full++
	}
	return full, 0, nil
}

// sameBlocks caches the LZ4 block of the latest same-filled pages: a frame
// has no same-filled kind, so such a page is written as its canonical LZ4
// block (CLI-3), and most of them share one fill word (zero).
type sameBlocks struct {
	words  [4]uint64
	blocks [4][]byte
	next   int
}

func (s *sameBlocks) block(page []byte) []byte {
	word := binary.LittleEndian.Uint64(page)
	for i, w := range s.words {
		if w == word && s.blocks[i] != nil {
			return s.blocks[i]
		}
	}
	dst := make([]byte, reference.CompressBlockBound(len(page)))
	n, err := reference.CompressBlock(dst, page)
	if err != nil {
		return nil // cannot happen with a bound-sized dst; store the page
	}
	i := s.next
	s.next = (s.next + 1) % len(s.words)
	s.words[i], s.blocks[i] = word, dst[:n]
	return s.blocks[i]
}

// shortBlock compresses a last page shorter than 4 KiB with the canonical
// parse and the raw rule of PAGE-5 scaled to its length: nil (store it)
// unless the block is shorter than three quarters of the data (CLI-3).
func shortBlock(data []byte) []byte {
	// The longest block kept: the largest n with n < 3L/4, that is
	// 4n < 3L, n = floor((3L-1)/4); floor(3L/4)-1 is one short whenever
	// 3L/4 is not whole.
	limit := (3*len(data) - 1) / 4
	if limit < 1 {
		return nil
	}
	dst := make([]byte, limit)
	n, err := reference.CompressBlock(dst, data)
	if err != nil {
		return nil
	}
	return dst[:n]
}

// decompressStream writes the content of every frame of r to w (CLI-5).
func decompressStream(e *env, r io.Reader, w io.Writer, prog *progress) (fileReport, error) {
	var rep fileReport
	zr := lz4frame.NewReader(r)
	cw := &countingWriter{w: w, ctx: e, onWrite: func() { prog.set(zr.Offset()) }}
	_, err := zr.WriteTo(cw)
	rep.in, rep.out = zr.Offset(), cw.n
	prog.set(zr.Offset())
	if err != nil {
		var fe *lz4frame.Error
		if errors.As(err, &fe) {
			return rep, err
		}
		if cw.err != nil {
			return rep, cw.err
		}
		return rep, fmt.Errorf("at byte offset %d: %w", zr.Offset(), err)
	}
	return rep, nil
}

// countingWriter counts what is written and stops at cancellation.
type countingWriter struct {
	w       io.Writer
	ctx     *env
	n       int64
	err     error
	onWrite func()
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if err := c.ctx.ctx.Err(); err != nil {
		c.err = err
		return 0, err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil {
		c.err = err
	}
	c.onWrite()
	return n, err
}
