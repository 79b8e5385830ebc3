package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/lz4warp/lz4warp"
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
	var so streamOptions
	fs.StringVar(&so.backend, "backend", "auto", "backend: auto, scalar, simd or gpu")
	fs.IntVar(&so.batch, "batch", lz4warp.DefaultConfig().BatchSize, "pages per GPU launch")
	fs.BoolVar(&so.blockChecksum, "block-checksum", false, "follow each block with its checksum")
	fs.BoolVar(&so.noContentChecksum, "no-frame-crc", false, "no content checksum")
	fs.BoolVar(&so.contentSize, "content-size", false, "store the input's size in the frame header (files only)")
	fs.Var(&so.devices, "devices", "GPUs to use: all, or indexes such as 0,1 (default: device 0)")
	operand, err := singleOperand(fs, args)
	if err != nil {
		return err
	}
	outPath, err := outputPath(ff.out, operand, suffix, true)
	if err != nil {
		return err
	}
	ff.out = outPath
	return compressFile(e, operand, ff, so)
}

// streamOptions are a compress's frame options and backend (CLI-3, CLI-9).
type streamOptions struct {
	backend           string
	batch             int
	blockChecksum     bool
	noContentChecksum bool
	contentSize       bool
	devices           deviceChoice // the GPUs (MD-8)
}

// openWriter returns a Writer into w on the backend so names, and the
// Compressor to close after it (nil for the CPU backends, which need none).
func openWriter(w io.Writer, so streamOptions, size int64) (*lz4warp.Writer, *lz4warp.Compressor, error) {
	opts := []lz4warp.WriterOption{
		lz4warp.WriterBlockChecksum(so.blockChecksum), lz4warp.WriterContentChecksum(!so.noContentChecksum),
	}
	if so.contentSize && size > 0 {
		opts = append(opts, lz4warp.WriterContentSize(size))
	}
	if err := checkBackend(so); err != nil {
		return nil, nil, err
	}
	cfg := lz4warp.DefaultConfig()
	cfg.BatchSize = so.batch
	so.devices.apply(&cfg)
	var c *lz4warp.Compressor
	var err error
	switch so.backend {
	case "auto": // the Writer's default, every core (STREAM-2): no Compressor
	case "gpu":
		// Every core compresses while the GPU opens (STREAM-6): in a
		// new process that takes 0.2 to 1 s.
		cfg.OpenInBackground = true
		c, err = lz4warp.NewGPUBatchCompressor(cfg)
		opts = append(opts, lz4warp.WriterBackend(lz4warp.BackendGPU))
	case "simd":
		opts = append(opts, lz4warp.WriterBackend(lz4warp.BackendSIMD))
	case "scalar":
		opts = append(opts, lz4warp.WriterBackend(lz4warp.BackendScalar))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("backend %s: %w", so.backend, err)
	}
	zw, err := lz4warp.NewWriter(w, c, opts...)
	if err != nil {
		if c != nil {
			c.Close()
			err = fmt.Errorf("backend %s: %w", so.backend, err)
		}
		return nil, nil, err
	}
	return zw, c, nil
}

// compressFile compresses the input operand into ff.out (CLI-3).
func compressFile(e *env, operand string, ff fileFlags, so streamOptions) error {
	if ff.out == "-" && e.stdoutTTY {
		return usagef("refusing to write compressed data to a terminal (name an output, or redirect stdout)")
	}
	if err := checkBackend(so); err != nil {
		return err
	}
	return withFiles(e, operand, ff.out, ff, "compress", func(in *input, w io.Writer, prog *progress) (fileReport, error) {
		zw, c, err := openWriter(w, so, in.size)
		if err != nil {
			return fileReport{}, err
		}
		if c != nil {
			defer c.Close()
		}
		n, err := zw.ReadFrom(&progressReader{r: in.r, e: e, prog: prog})
		if cerr := zw.Close(); err == nil {
			err = cerr
		}
		if c != nil {
			// -backend gpu insists on the GPU, even where the input
			// ended before it opened; a GPU that did not open is the
			// cause of the Writer's error, if any.
			if gerr := c.WaitGPU(); gerr != nil {
				err = fmt.Errorf("backend %s: %w", so.backend, gerr)
			}
		}
		return fileReport{in: n, out: zw.Written()}, err
	})
}

// checkBackend reports a bad -backend or -batch as a usage error before any
// file is opened.
func checkBackend(so streamOptions) error {
	switch so.backend {
	case "auto", "gpu", "simd", "scalar":
	default:
		return usagef("-backend %q: want one of auto, scalar, simd, gpu", so.backend)
	}
	return checkBatch(so.batch)
}

// progressReader counts what is read for the progress bar and stops at an
// interruption.
type progressReader struct {
	r    io.Reader
	e    *env
	prog *progress
}

func (p *progressReader) Read(b []byte) (int, error) {
	if err := p.e.ctx.Err(); err != nil {
		return 0, errInterrupted
	}
	n, err := p.r.Read(b)
	p.prog.add(int64(n))
	return n, err
}

// ReadAt and Seek let the Writer read a regular file in pieces at once
// (STREAM-2); Seek fails where the input cannot do both, and the Writer
// then reads it in order.
func (p *progressReader) ReadAt(b []byte, off int64) (int, error) {
	if err := p.e.ctx.Err(); err != nil {
		return 0, errInterrupted
	}
	r, ok := p.r.(io.ReaderAt)
	if !ok {
		return 0, errors.ErrUnsupported
	}
	n, err := r.ReadAt(b, off)
	p.prog.add(int64(n))
	return n, err
}

func (p *progressReader) Seek(offset int64, whence int) (int64, error) {
	r, ok := p.r.(interface {
		io.ReaderAt
		io.Seeker
	})
	if !ok {
		return 0, errors.ErrUnsupported
	}
	return r.Seek(offset, whence)
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
	ff.out = outPath
	return decompressFile(e, operand, ff)
}

// decompressFile decompresses the input operand into ff.out (CLI-5).
func decompressFile(e *env, operand string, ff fileFlags) error {
	if (operand == "" || operand == "-") && e.stdinTTY {
		return usagef("refusing to read compressed data from a terminal")
	}
	return withFiles(e, operand, ff.out, ff, "decompress", func(in *input, w io.Writer, prog *progress) (fileReport, error) {
		return decompressStream(e, in.r, w, prog)
	})
}

// directWriter gathers small writes in a buffer and passes large ones
// straight to w, after what the buffer holds: the streams write tens of
// KiB to MiB at a time (a Reader's batch of blocks, a Writer's framed
// batch), and a buffer would only copy them, on the decompressing
// goroutine, whose work bounds the command's speed.
type directWriter struct {
	*bufio.Writer
	w io.Writer
}

// directWrites is the size from which a write goes straight through.
const directWrites = 16 << 10

func newDirectWriter(w io.Writer) directWriter {
	return directWriter{Writer: bufio.NewWriterSize(w, 64<<10), w: w}
}

func (d directWriter) Write(p []byte) (int, error) {
	if len(p) < directWrites {
		return d.Writer.Write(p)
	}
	if err := d.Flush(); err != nil {
		return 0, err
	}
	return d.w.Write(p)
}

// fileReport is what a compress or decompress did.
type fileReport struct {
	in, out int64
	elapsed time.Duration
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
	bw := newDirectWriter(out.w)
	prog := newProgress(e, verb, in.size, !ff.quiet && e.stderrTTY)
	start := time.Now()
	type result struct {
		rep fileReport
		err error
	}
	done := make(chan result, 1)
	toStdout := out.final == "" // read here: an interruption's abort clears it
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
	if err := out.commit(in.mtime); err != nil {
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
}

// decompressStream writes the content of every frame of r to w (CLI-5).
func decompressStream(e *env, r io.Reader, w io.Writer, prog *progress) (fileReport, error) {
	var rep fileReport
	zr := lz4warp.NewReader(r)
	cw := &countingWriter{w: w, ctx: e, onWrite: func() { prog.set(zr.Offset()) }}
	_, err := zr.WriteTo(cw)
	rep.in, rep.out = zr.Offset(), cw.n
	prog.set(zr.Offset())
	if err != nil {
		var fe *lz4warp.FrameError
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
