package gpuimpl

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// realSet is a set of pages read from the machine the test runs on.
type realSet struct {
	name string
	load func(t testing.TB) [][PageSize]byte
}

// realPagesMax bounds each real set: LZ4WARP_REAL_PAGES, default 65,536.
func realPagesMax() int {
	if v, err := strconv.Atoi(os.Getenv("LZ4WARP_REAL_PAGES")); err == nil && v > 0 {
		return v
	}
	return 1 << 16
}

// realSets are the real data sets: text and executables found under the
// usual system folders (the CUDA toolkit's on a GPU machine), and the
// test process's own memory.
func realSets() []realSet {
	textExt := map[string]bool{".h": true, ".hpp": true, ".c": true, ".py": true, ".go": true, ".txt": true, ".md": true, ".html": true}
	return []realSet{
		{"text", func(t testing.TB) [][PageSize]byte {
			return filePages(t, []string{"/usr/local/cuda/include", "/usr/include", "/usr/lib/python3"}, func(p string, info fs.FileInfo) bool {
				return textExt[filepath.Ext(p)]
			})
		}},
		{"binaries", func(t testing.TB) [][PageSize]byte {
			return filePages(t, []string{"/usr/local/cuda/bin", "/usr/bin", "/usr/local/cuda/lib64"}, func(p string, info fs.FileInfo) bool {
				return isELF(p)
			})
		}},
		{"coredump", func(t testing.TB) [][PageSize]byte { return selfMemoryPages(t) }},
	}
}

// filePages concatenates the files under roots (lexical order) that keep
// accepts and cuts them into pages, up to realPagesMax.
func filePages(t testing.TB, roots []string, keep func(string, fs.FileInfo) bool) [][PageSize]byte {
	limit := realPagesMax() * PageSize
	var data []byte
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || len(data) >= limit {
				return filepath.SkipDir
			}
			if !d.Type().IsRegular() {
				return nil
			}
			info, err := d.Info()
			if err != nil || !keep(p, info) {
				return nil
			}
			b, err := os.ReadFile(p)
			if err == nil {
				data = append(data, b[:min(len(b), limit-len(data))]...)
			}
			return nil
		})
	}
	t.Logf("%d bytes from %v", len(data), roots)
	return toPages(data)
}

func isELF(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [4]byte
	_, err = f.Read(magic[:])
	return err == nil && string(magic[:]) == "\x7fELF"
}

// selfMemoryPages reads the test process's readable mappings through
// /proc/self/mem: code, heap, stacks, libraries.
func selfMemoryPages(t testing.TB) [][PageSize]byte {
	limit := realPagesMax()
	maps, err := os.Open("/proc/self/maps")
	if err != nil {
		t.Logf("coredump: %v", err)
		return nil
	}
	defer maps.Close()
	mem, err := os.Open("/proc/self/mem")
	if err != nil {
		t.Logf("coredump: %v", err)
		return nil
	}
	defer mem.Close()
	type span struct{ lo, hi uint64 }
	var spans []span
	sc := bufio.NewScanner(maps)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || !strings.HasPrefix(f[1], "r") || (len(f) >= 6 && strings.HasPrefix(f[5], "[v")) {
			continue
		}
		a, b, _ := strings.Cut(f[0], "-")
		lo, err1 := strconv.ParseUint(a, 16, 64)
		hi, err2 := strconv.ParseUint(b, 16, 64)
		if err1 == nil && err2 == nil {
			spans = append(spans, span{lo, hi})
		}
	}
	var pages [][PageSize]byte
	var p [PageSize]byte
	for _, s := range spans {
		for a := s.lo; a < s.hi && len(pages) < limit; a += PageSize {
			if n, err := mem.ReadAt(p[:], int64(a)); err == nil && n == PageSize {
				pages = append(pages, p)
			}
		}
	}
	return pages
}

func toPages(data []byte) [][PageSize]byte {
	pages := make([][PageSize]byte, (len(data)+PageSize-1)/PageSize)
	for i := range pages {
		copy(pages[i][:], data[i*PageSize:])
	}
	return pages
}
