package dataset

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// segment is a byte range of a file; a set is the concatenation of its
// segments, cut into pages.
type segment struct {
	path      string
	off, size int64
}

// sample reads pages spread evenly over the concatenation of segs: all of
// them when there are at most maxPages, else page k*total/maxPages for each
// k. A final partial page is padded with zeros. Pages that cannot be read
// (a memory range that vanished, an unreadable page) are skipped; a file
// that cannot be opened, or that ends before one of its segments does, is
// an error, since skipping it would silently change which pages come out.
func sample(segs []segment, maxPages int) ([]Page, error) {
	var total int64
	for _, s := range segs {
		if s.size < 0 || s.size > math.MaxInt64-total {
			return nil, fmt.Errorf("%w: segment sizes overflow at %s (size %d)", ErrNoSource, s.path, s.size)
		}
		total += s.size
	}
	nPages := (total + PageSize - 1) / PageSize
	if nPages == 0 {
		return nil, fmt.Errorf("%w: no bytes to read", ErrNoSource)
	}
	count := min(nPages, int64(maxPages))
	pages := make([]Page, 0, count)
	var r reader
	defer r.close()
	var firstErr error
	for k := range count {
		// k*nPages/count in 128 bits: the product overflows int64 for
		// large sets.
		hi, lo := bits.Mul64(uint64(k), uint64(nPages))
		idx, _ := bits.Div64(hi, lo, uint64(count))
		var page Page
		if err := r.readConcat(segs, page[:], int64(idx)*PageSize); err != nil {
			if errors.Is(err, errFatal) {
				return nil, fmt.Errorf("%w: %w", ErrNoSource, err)
			}
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		pages = append(pages, page)
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("%w: %v", ErrNoSource, firstErr)
	}
	return pages, nil
}

// errFatal marks the read errors that sample must not skip.
var errFatal = errors.New("cannot read")

// reader holds at most one file open: pages are read in offset order, so
// consecutive reads mostly hit the same file, and a set of thousands of
// files never holds thousands of descriptors.
type reader struct {
	path string
	f    *os.File
}

func (r *reader) open(path string) (*os.File, error) {
	if r.f != nil && r.path == path {
		return r.f, nil
	}
	r.close()
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errFatal, err)
	}
	r.path, r.f = path, f
	return f, nil
}

func (r *reader) close() {
	if r.f != nil {
		r.f.Close()
		r.f = nil
	}
}

// readConcat fills p from offset off of the concatenated segments, padding
// with zeros past the end of the last one.
func (r *reader) readConcat(segs []segment, p []byte, off int64) error {
	clear(p)
	for _, s := range segs {
		if len(p) == 0 {
			return nil
		}
		if off >= s.size {
			off -= s.size
			continue
		}
		n := min(int64(len(p)), s.size-off)
		f, err := r.open(s.path)
		if err != nil {
			return err
		}
		if _, err := f.ReadAt(p[:n], s.off+off); errors.Is(err, io.EOF) {
			// The segment runs past the end of the file: a truncated
			// core, or a file that shrank since it was listed.
			return fmt.Errorf("%w: %s: %d bytes at offset %d run past the end of the file", errFatal, s.path, s.size, s.off)
		} else if err != nil {
			return err
		}
		p = p[n:]
		off = 0
	}
	return nil
}

var goroot = sync.OnceValues(func() (string, error) {
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		if dir := strings.TrimSpace(string(out)); dir != "" {
			return dir, nil
		}
	}
	if dir := os.Getenv("GOROOT"); dir != "" {
		return dir, nil
	}
	//lint:ignore SA1019 last resort when the go command is not on PATH
	if dir := runtime.GOROOT(); dir != "" {
		return dir, nil
	}
	return "", fmt.Errorf("%w: cannot find the Go installation (go env GOROOT)", ErrNoSource)
})

// walkFiles lists the regular files under root that keep accepts, in
// lexical order, as whole-file segments.
func walkFiles(root string, keep func(path string, d fs.DirEntry) bool) ([]segment, error) {
	var segs []segment
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir // test inputs, often binary
			}
			return nil
		}
		if !d.Type().IsRegular() || !keep(path, d) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > 0 {
			segs = append(segs, segment{path: path, size: info.Size()})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSource, err)
	}
	return segs, nil
}

// textExts are the text files of a Go installation: source and docs.
var textExts = []string{".go", ".md", ".txt", ".html", ".s"}

// loadText reads the Go sources and documents of GOROOT/src and GOROOT/doc
// (testdata directories excluded), concatenated in lexical path order.
func loadText(maxPages int) ([]Page, error) {
	segs, err := textSegments()
	if err != nil {
		return nil, err
	}
	return sample(segs, maxPages)
}

// The file lists are walked once per process.
var (
	textSegments   = sync.OnceValues(listText)
	binarySegments = sync.OnceValues(listBinaries)
)

func listText() ([]segment, error) {
	root, err := goroot()
	if err != nil {
		return nil, err
	}
	var segs []segment
	for _, dir := range []string{"doc", "src"} {
		s, err := walkFiles(filepath.Join(root, dir), func(path string, _ fs.DirEntry) bool {
			return slices.Contains(textExts, filepath.Ext(path))
		})
		if err != nil {
			return nil, fmt.Errorf("dataset: text: %w", err)
		}
		segs = append(segs, s...)
	}
	if len(segs) == 0 {
		return nil, fmt.Errorf("dataset: text: %w: no text files under %s", ErrNoSource, root)
	}
	return segs, nil
}

// loadBinaries reads the Go toolchain's executables, GOROOT/bin and
// GOROOT/pkg/tool, concatenated in lexical path order.
func loadBinaries(maxPages int) ([]Page, error) {
	segs, err := binarySegments()
	if err != nil {
		return nil, err
	}
	return sample(segs, maxPages)
}

func listBinaries() ([]segment, error) {
	root, err := goroot()
	if err != nil {
		return nil, err
	}
	var segs []segment
	for _, dir := range []string{"bin", filepath.Join("pkg", "tool")} {
		s, err := walkFiles(filepath.Join(root, dir), func(_ string, d fs.DirEntry) bool {
			info, err := d.Info()
			return err == nil && info.Mode()&0o111 != 0
		})
		if err != nil {
			return nil, fmt.Errorf("dataset: binaries: %w", err)
		}
		segs = append(segs, s...)
	}
	if len(segs) == 0 {
		return nil, fmt.Errorf("dataset: binaries: %w: no executables under %s", ErrNoSource, root)
	}
	return segs, nil
}
