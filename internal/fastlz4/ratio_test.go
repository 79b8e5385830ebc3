package fastlz4

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pierrec/lz4/v4"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/lz4cmd"
)

var (
	ratioPages = flag.Int("ratio.pages", 512, "pages per data set in the ratio tests")
	withLZ4    = flag.Bool("lz4", false, "TestRatioTable: also run the lz4 command (lz4 -1) on each data set as one file")
)

// storedSizes is the total stored bytes of pages in lz4warp's page format,
// with the canonical parse and with pierrec/lz4's CompressBlock.
func storedSizes(pages []dataset.Page) (ours, pierrec int) {
	var e Encoder
	var c lz4.Compressor
	dst := make([]byte, max(PageBound, lz4.CompressBlockBound(PageSize)))
	for i := range pages {
		_, n := e.EncodePage(dst, &pages[i])
		ours += n
		pierrec += PierrecPageSize(&c, dst, &pages[i])
	}
	return ours, pierrec
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
		ours, pierrec := storedSizes(pages)
		if ours > pierrec {
			t.Errorf("%s: %d pages stored in %d bytes, pierrec/lz4 %d", name, len(pages), ours, pierrec)
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

// TestRatioTable prints the table of spec/ratio.md. With -lz4 it adds the
// lz4 command's size for each data set written as one file:
//
//	go test ./internal/fastlz4 -run TestRatioTable -v -ratio.pages 4096 -lz4
func TestRatioTable(t *testing.T) {
	var b strings.Builder
	fmt.Fprintln(&b, "| data set | pages | input bytes | lz4warp bytes (ratio) | pierrec/lz4 bytes (ratio) | lz4warp / pierrec | `lz4 -1` bytes (ratio) |")
	fmt.Fprintln(&b, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, name := range dataset.Names() {
		pages, err := dataset.Load(name, *ratioPages)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		in := len(pages) * PageSize
		ours, pierrec := storedSizes(pages)
		lz4Cell := "not measured"
		if *withLZ4 {
			n, err := lz4Command(t, pages)
			if err != nil {
				t.Fatalf("lz4 command: %v", err)
			}
			lz4Cell = fmt.Sprintf("%d (%.3f)", n, float64(in)/float64(n))
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d (%.3f) | %d (%.3f) | %.4f | %s |\n", name, len(pages), in,
			ours, float64(in)/float64(ours), pierrec, float64(in)/float64(pierrec), float64(ours)/float64(pierrec), lz4Cell)
	}
	t.Log("\n" + b.String())
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
