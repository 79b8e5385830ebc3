package lz4warp

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/reference"
)

// cpuTestPages caps each data set in the CPU backend tests.
const cpuTestPages = 200

// Checks API-16, PARSE-8: the scalar and SIMD backends give every page of
// every data set the reference's kind and payload, whatever the number of
// goroutines, and decode them back.
func TestCPUBackendsMatchReferenceOnDatasets(t *testing.T) {
	for _, name := range dataset.Names() {
		pages, err := dataset.Load(name, cpuTestPages)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		results := map[string][]CompressedPage{
			"scalar": compressScalar(pages),
			"simd":   compressParallel(pages),
		}
		prev := runtime.GOMAXPROCS(7) // uneven ranges
		results["simd-7"] = compressParallel(pages)
		runtime.GOMAXPROCS(prev)
		var want [reference.PageBound]byte
		for backend, got := range results {
			if len(got) != len(pages) {
				t.Fatalf("%s/%s: %d pages out of %d", backend, name, len(got), len(pages))
			}
			for i := range pages {
				kind, n := reference.EncodePage(want[:], &pages[i])
				if got[i].Kind != PageKind(kind) || !bytes.Equal(got[i].Data, want[:n]) {
					t.Fatalf("%s/%s page %d: %v of %d bytes, reference %v of %d bytes",
						backend, name, i, got[i].Kind, len(got[i].Data), kind, n)
				}
			}
			back := make([]Page, len(pages))
			if err := decompressParallel(got, back); err != nil {
				t.Fatalf("%s/%s: %v", backend, name, err)
			}
			for i := range pages {
				if back[i] != pages[i] {
					t.Fatalf("%s/%s page %d: round trip differs", backend, name, i)
				}
			}
		}
	}
}

// Checks API-12: decompressParallel decodes the valid pages and lists the
// corrupt ones by index, in order.
func TestDecompressParallelReportsCorruptPages(t *testing.T) {
	pages, err := dataset.Load(dataset.Mixed, 64)
	if err != nil {
		t.Fatal(err)
	}
	comp := compressParallel(pages)
	bad := map[int]bool{3: true, 40: true, 63: true}
	for i := range bad {
		comp[i] = CompressedPage{Kind: comp[i].Kind, Data: comp[i].Data[:len(comp[i].Data)-1]}
	}
	back := make([]Page, len(pages))
	err = decompressParallel(comp, back)
	de, ok := err.(*DecodeError)
	if !ok || len(de.Pages) != len(bad) {
		t.Fatalf("got %v, want a DecodeError for pages 3, 40, 63", err)
	}
	for j, pe := range de.Pages {
		if !bad[pe.Index] || j > 0 && de.Pages[j-1].Index >= pe.Index {
			t.Errorf("page error %d names page %d", j, pe.Index)
		}
	}
	for i := range pages {
		if !bad[i] && back[i] != pages[i] {
			t.Errorf("valid page %d lost", i)
		}
	}
}
