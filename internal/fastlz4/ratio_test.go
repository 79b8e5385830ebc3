package fastlz4

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pierrec/lz4/v4"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/liblz4"
	"github.com/lz4warp/lz4warp/internal/lz4cmd"
)

var (
	ratioPages = flag.Int("ratio.pages", 512, "pages per data set in TestRatioNoWorseThanPierrec")
	withLZ4    = flag.Bool("lz4", false, "TestRatioTable: also run the lz4 command (lz4 -1) on each data set as one file")
)

// storedSizes is the total stored bytes of pages in lz4warp's page format,
// with the canonical parse, with pierrec/lz4's CompressBlock and, where lib
// is not nil, with liblz4's LZ4_compress_default (else -1).
func storedSizes(pages []dataset.Page, lib *liblz4.Lib) (ours, pierrec, liblz4 int) {
	var e Encoder
	var c lz4.Compressor
	dst := make([]byte, max(PageBound, lz4.CompressBlockBound(PageSize)))
	liblz4 = -1
	if lib != nil {
		liblz4 = 0
	}
	for i := range pages {
		_, n := e.EncodePage(dst, &pages[i])
		ours += n
		pierrec += PierrecPageSize(&c, dst, &pages[i])
		if lib != nil {
			liblz4 += lib.PageSize(dst, &pages[i], IsSameFilled(&pages[i]), RawThreshold)
		}
	}
	return ours, pierrec, liblz4
}

// Checks RATIO-1, PARSE-11: on every deterministic data set, the canonical
// parse stores no more bytes than pierrec/lz4's CompressBlock in the same
// page format.
func TestRatioNoWorseThanPierrec(t *testing.T) {
	for _, name := range dataset.Deterministic() {
		pages, err := dataset.Load(name, *ratioPages)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ours, pierrec, _ := storedSizes(pages, nil)
		if ours > pierrec {
			t.Errorf("%s: %d pages stored in %d bytes, pierrec/lz4 %d", name, len(pages), ours, pierrec)
		}
	}
}

// Checks RATIO-3, PARSE-11: on every deterministic data set, and on every
// corpus of LZ4WARP_CORPUS (make corpus) where it is set, the canonical
// parse stores no more bytes than liblz4's LZ4_compress_default applied
// page by page in the same page format. Without liblz4.so.1 it skips,
// except under CI=true.
func TestRatioNoWorseThanLiblz4(t *testing.T) {
	lib := liblz4.Require(t)
	corpora, err := dataset.Corpora()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(dataset.Deterministic(), corpora...) {
		pages, err := dataset.Load(name, *ratioPages)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ours, _, theirs := storedSizes(pages, lib)
		if ours > theirs {
			t.Errorf("%s: %d pages stored in %d bytes, liblz4 %d", name, len(pages), ours, theirs)
		}
	}
}

// Checks RATIO-2: the yardstick follows the page format: a same-filled page
// counts 8 bytes, an incompressible one 4,096.
func TestPierrecPageSize(t *testing.T) {
	var c lz4.Compressor
	dst := make([]byte, lz4.CompressBlockBound(PageSize))
	var page [PageSize]byte
	if n := PierrecPageSize(&c, dst, &page); n != 8 {
		t.Errorf("zero page: %d bytes, want 8", n)
	}
	random, err := dataset.Load(dataset.Random, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := PierrecPageSize(&c, dst, &random[0]); n != PageSize {
		t.Errorf("random page: %d bytes, want %d", n, PageSize)
	}
	copy(page[:], bytes.Repeat([]byte("lz4warp page "), PageSize/13))
	if n := PierrecPageSize(&c, dst, &page); n <= 8 || n >= RawThreshold {
		t.Errorf("text page: %d bytes", n)
	}
}

// TestRatioTable makes the table of spec/ratio.md, with as many pages per
// set as the spec's, and holds the spec to it: the rows of the sets that
// are the same on every machine must be the spec's, cell for cell up to the
// lz4 column (up to the liblz4 columns where liblz4.so.1 is missing), and
// so must text, binaries and mixed (which read the Go installation) where
// Go is the version the spec names. With -v it prints the table, with -lz4
// the lz4 command's column too, and with LZ4WARP_CORPUS set rows for the
// corpora of make corpus, which it does not check:
//
//	LZ4WARP_CORPUS=$PWD/.cache/corpus go test ./internal/fastlz4 -run TestRatioTable -v -lz4
func TestRatioTable(t *testing.T) {
	spec, goVersion := specRatioTable(t)
	lib, _ := liblz4.Load()
	corpora, err := dataset.Corpora()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintln(&b, "| data set | pages | input bytes | lz4warp bytes (ratio) | pierrec/lz4 bytes (ratio) | lz4warp / pierrec | liblz4 bytes (ratio) | lz4warp / liblz4 | `lz4 -1` bytes (ratio) |")
	fmt.Fprintln(&b, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	checked := 0
	for _, name := range append(dataset.Names(), corpora...) {
		want, ok := spec[name]
		n := 4096
		if slices.Contains(dataset.Names(), name) {
			if !ok {
				t.Fatalf("spec/ratio.md: no row for %s", name)
			}
			if n, err = strconv.Atoi(want[1]); err != nil {
				t.Fatalf("spec/ratio.md: %s: pages %q", name, want[1])
			}
		}
		pages, err := dataset.Load(name, n)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		in := len(pages) * PageSize
		ours, pierrec, theirs := storedSizes(pages, lib)
		lz4Cell := "not measured"
		if *withLZ4 {
			n, err := lz4Command(t, pages)
			if err != nil {
				t.Fatalf("lz4 command: %v", err)
			}
			lz4Cell = fmt.Sprintf("%d (%.3f)", n, float64(in)/float64(n))
		}
		row := fmt.Sprintf("%s | %d | %d | %d (%.3f) | %d (%.3f) | %.4f", name, len(pages), in,
			ours, float64(in)/float64(ours), pierrec, float64(in)/float64(pierrec), float64(ours)/float64(pierrec))
		libCells := "not measured | not measured"
		if theirs >= 0 {
			row += fmt.Sprintf(" | %d (%.3f) | %.4f", theirs, float64(in)/float64(theirs), float64(ours)/float64(theirs))
			libCells = ""
		}
		if libCells != "" {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", row, libCells, lz4Cell)
		} else {
			fmt.Fprintf(&b, "| %s | %s |\n", row, lz4Cell)
		}
		fixed := name == dataset.Zeros || name == dataset.Random
		if fixed || slices.Contains(dataset.Deterministic(), name) && runtime.Version() == goVersion {
			checked++
			if got := strings.Split(row, " | "); !slices.Equal(got, want[:len(got)]) {
				t.Errorf("spec/ratio.md's %s row is %q, measured %q", name, want[:len(got)], got)
			}
		}
	}
	t.Logf("%d rows checked against spec/ratio.md (Go %s, the spec's %s)\n%s", checked, runtime.Version(), goVersion, b.String())
}

// specRatioTable reads the table of spec/ratio.md's "Measured ratios": its
// rows' cells by data set, and the Go version it was measured with.
func specRatioTable(t *testing.T) (map[string][]string, string) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "spec", "ratio.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "## Measured ratios")
	if !ok {
		t.Fatal("spec/ratio.md: no section Measured ratios")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	goVersion := regexp.MustCompile(`go1\.[0-9]+(\.[0-9]+)?`).FindString(section)
	rows := map[string][]string{}
	for _, line := range strings.Split(section, "\n") {
		if cells := strings.Split(strings.Trim(line, "| "), " | "); len(cells) == 9 && slices.Contains(dataset.Names(), cells[0]) {
			rows[cells[0]] = cells
		}
	}
	return rows, goVersion
}

// lz4Command writes pages to a file and returns the size of `lz4 -1` of it.
func lz4Command(t *testing.T, pages []dataset.Page) (int, error) {
	path := filepath.Join(t.TempDir(), "pages")
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	for i := range pages {
		if _, err := f.Write(pages[i][:]); err != nil {
			f.Close()
			return 0, err
		}
	}
	if err := f.Close(); err != nil {
		return 0, err
	}
	lz4Path, err := lz4cmd.Find() // CLI-15: $LZ4 (the Makefile's), then the PATH
	if err != nil {
		return 0, err
	}
	out, err := exec.Command(lz4Path, "-1", "-c", path).Output()
	if err != nil {
		return 0, err
	}
	return len(out), nil
}
