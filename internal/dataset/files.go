package dataset

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
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
// (a memory range that vanished, an unreadable page) are skipped.
func sample(segs []segment, maxPages int) ([]Page, error) {
	var total int64
	for _, s := range segs {
		total += s.size
	}
	nPages := (total + PageSize - 1) / PageSize
	if nPages == 0 {
		return nil, fmt.Errorf("%w: no bytes to read", ErrNoSource)
	}
	count := min(nPages, int64(maxPages))
	pages := make([]Page, 0, count)
	files := map[string]*os.File{}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	var firstErr error
	for k := range count {
		idx := k * nPages / count
		var page Page
		if err := readConcat(segs, files, page[:], idx*PageSize); err != nil {
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

// readConcat fills p from offset off of the concatenated segments, padding
// with zeros past the end.
func readConcat(segs []segment, files map[string]*os.File, p []byte, off int64) error {
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
		f := files[s.path]
		if f == nil {
			var err error
			if f, err = os.Open(s.path); err != nil {
				return err
			}
			files[s.path] = f
		}
		if _, err := f.ReadAt(p[:n], s.off+off); err != nil && !errors.Is(err, io.EOF) {
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
