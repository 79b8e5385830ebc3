// Package dataset builds the page sets that lz4warp's tests, benchmarks and
// demo compress: zeros, text, binaries, random, mixed and coredump.
//
// Every set is a slice of 4 KiB pages ([][4096]byte, assignable to
// []lz4warp.Page). The same name and page count give the same pages on the
// same machine: text and binaries read the Go installation found by
// `go env GOROOT`, random and zeros are generated, mixed interleaves the
// others by a fixed rule. coredump is the exception: it reads the live
// memory of the running process, which differs from run to run.
//
// When a set holds more pages than asked for, Load takes pages spread evenly
// over the whole set (page k*total/maxPages for k = 0, 1, ...), so that a
// small sample still covers every file or mapping rather than the first few.
package dataset

import (
	"errors"
	"fmt"
	"strings"
)

// PageSize is the size of one page.
const PageSize = 4096

// Page is one page; [][4096]byte is assignable to []lz4warp.Page.
type Page = [PageSize]byte

// Sentinel errors.
var (
	// ErrUnknown reports a name that Names does not list.
	ErrUnknown = errors.New("dataset: unknown dataset")
	// ErrCount reports a page count below 1.
	ErrCount = errors.New("dataset: page count must be at least 1")
	// ErrNoSource reports that the files or memory a set is read from
	// cannot be found or read on this machine.
	ErrNoSource = errors.New("dataset: source not available")
)

// Set names.
const (
	Zeros    = "zeros"
	Text     = "text"
	Binaries = "binaries"
	Random   = "random"
	Mixed    = "mixed"
	Coredump = "coredump"
)

var loaders = map[string]func(maxPages int) ([]Page, error){
	Zeros:    loadZeros,
	Text:     loadText,
	Binaries: loadBinaries,
	Random:   loadRandom,
	Mixed:    loadMixed,
	Coredump: loadCoredump,
}

// Names lists the data sets, in a fixed order.
func Names() []string {
	return []string{Zeros, Text, Binaries, Random, Mixed, Coredump}
}

// Deterministic lists the sets whose pages are the same on every Load of
// the same machine (every set except coredump).
func Deterministic() []string {
	return []string{Zeros, Text, Binaries, Random, Mixed}
}

// Load returns at most maxPages pages of the named set (exactly maxPages for
// zeros, random and mixed), or of a corpus that Corpora lists. Errors wrap ErrUnknown, ErrCount or ErrNoSource.
func Load(name string, maxPages int) ([]Page, error) {
	load, ok := loaders[name]
	if strings.HasPrefix(name, CorpusPrefix) {
		load, ok = func(maxPages int) ([]Page, error) { return loadCorpus(name, maxPages) }, true
	}
	if !ok {
		return nil, fmt.Errorf("%w %q (known: %v)", ErrUnknown, name, Names())
	}
	if maxPages < 1 {
		return nil, fmt.Errorf("%w, got %d", ErrCount, maxPages)
	}
	return load(maxPages)
}

func loadZeros(maxPages int) ([]Page, error) {
	return make([]Page, maxPages), nil
}

// loadRandom fills pages from SplitMix64 with a fixed seed: incompressible
// pages, the same on every machine and Go version.
func loadRandom(maxPages int) ([]Page, error) {
	pages := make([]Page, maxPages)
	state := uint64(0x6c7a34776172700a) // fixed seed
	for i := range pages {
		for j := 0; j < PageSize; j += 8 {
			state += 0x9e3779b97f4a7c15
			z := state
			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
			z = (z ^ (z >> 27)) * 0x94d049bb133111eb
			z ^= z >> 31
			for b := range 8 {
				pages[i][j+b] = byte(z >> (8 * b))
			}
		}
	}
	return pages, nil
}

// mixPattern is the interleave of the mixed set: page i of the set comes
// from mixPattern[i%8]. It approximates a memory image: mostly text and
// code, some zero and same-filled pages, some incompressible data.
var mixPattern = [8]string{Text, Binaries, Zeros, Text, "same", Binaries, Random, Text}

// loadMixed interleaves the other sets by mixPattern. The k-th page taken
// from a source set is that set's k-th page; "same" pages repeat the 8-byte
// word 0x0101010101010101 × (k+1) (zram's same-filled case with a non-zero
// word).
func loadMixed(maxPages int) ([]Page, error) {
	need := map[string]int{}
	for i := range maxPages {
		need[mixPattern[i%len(mixPattern)]]++
	}
	sources := map[string]func(int) ([]Page, error){
		Text: loadText, Binaries: loadBinaries, Zeros: loadZeros, Random: loadRandom,
	}
	src := map[string][]Page{}
	for name, n := range need {
		if name == "same" {
			continue
		}
		p, err := sources[name](n)
		if err != nil {
			return nil, fmt.Errorf("dataset: mixed needs %s: %w", name, err)
		}
		src[name] = p
	}
	pages := make([]Page, maxPages)
	taken := map[string]int{}
	for i := range pages {
		name := mixPattern[i%len(mixPattern)]
		k := taken[name]
		taken[name]++
		if name == "same" {
			w := 0x0101010101010101 * uint64(k+1)
			for j := 0; j < PageSize; j++ {
				pages[i][j] = byte(w >> (8 * (j % 8)))
			}
			continue
		}
		// A file set smaller than asked for repeats its pages.
		s := src[name]
		pages[i] = s[k%len(s)]
	}
	return pages, nil
}
