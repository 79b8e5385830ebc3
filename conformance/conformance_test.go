package conformance

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/lz4warp/lz4warp"
	"github.com/lz4warp/lz4warp/reference"
	"pgregory.net/rapid"
)

// total counts every page checked by the properties of this package.
var total Tally

func TestMain(m *testing.M) {
	code := m.Run()
	if checked, _, _ := total.Result(); checked == 0 && fuzzing() {
		// The fuzz workers, other processes, check the pages: this
		// process's count would read as if nothing were checked.
		os.Exit(code)
	}
	fmt.Println(total.String())
	if _, mismatches, first := total.Result(); mismatches > 0 {
		fmt.Println("first mismatch:", first)
		code = 1
	}
	os.Exit(code)
}

// fuzzing reports whether this process runs a fuzz target with -test.fuzz
// (as the coordinator or one of its workers).
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// compressorFunc compresses through the public API and fails any batch
// that ran on another backend than want, so that a property meant for one
// backend cannot silently test another (a GPU batch that fell back to the
// CPU, a batch size that selects another backend).
func compressorFunc(c *lz4warp.Compressor, want lz4warp.Backend) CompressFunc {
	return func(pages []Page) ([]Output, error) {
		res, err := c.CompressBatch(pages)
		if err != nil {
			return nil, err
		}
		if res.Backend != want {
			return nil, fmt.Errorf("conformance: batch of %d pages ran on %s, want %s", len(pages), res.Backend, want)
		}
		out := make([]Output, len(res.Pages))
		for i, p := range res.Pages {
			out[i] = Output{Kind: reference.Kind(p.Kind), Data: p.Data}
		}
		return out, nil
	}
}

func newCompressor(t testing.TB) *lz4warp.Compressor {
	t.Helper()
	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// backendFor is the backend a batch of n pages runs on.
func backendFor(n int) lz4warp.Backend { return lz4warp.SelectBackend(n, lz4warp.GPUAvailable()) }

func checkBatch(t *rapid.T, compress CompressFunc, specs []Spec) {
	checked, mismatches, first := CheckSpecs(compress, specs)
	total.Add(checked, mismatches, first)
	if first != nil {
		t.Fatalf("%d of %d pages: %v", mismatches, len(specs), first)
	}
}

// Checks API-16, PARSE-8, PAGE-4: the scalar backend (the reference codec,
// on small batches, for CompressBatchOn) produces the reference's bytes.
func TestScalarBackendConformance(t *testing.T) {
	c := newCompressor(t)
	compress := func(pages []Page) ([]Output, error) {
		res, err := c.CompressBatchOn(lz4warp.BackendScalar, pages)
		if err != nil {
			return nil, err
		}
		out := make([]Output, len(res.Pages))
		for i, p := range res.Pages {
			out[i] = Output{Kind: reference.Kind(p.Kind), Data: p.Data}
		}
		return out, nil
	}
	rapid.Check(t, func(t *rapid.T) {
		checkBatch(t, compress, Batch(1, 3).Draw(t, "specs"))
	})
}

// Checks API-16, PARSE-8, PAGE-4: the SIMD backend (every batch below the
// GPU's threshold, one page up) produces the reference's bytes.
func TestSIMDBackendConformance(t *testing.T) {
	c := newCompressor(t)
	compress := compressorFunc(c, lz4warp.BackendSIMD)
	rapid.Check(t, func(t *rapid.T) {
		checkBatch(t, compress, Batch(1, 200).Draw(t, "specs"))
	})
}

// roundTrip restores the compressed batch with DecompressBatch (the CPU
// decoder of the public API, not the reference) and compares.
func roundTrip(c *lz4warp.Compressor, pages []Page) error {
	res, err := c.CompressBatch(pages)
	if err != nil {
		return err
	}
	back := make([]Page, len(pages))
	if err := c.DecompressBatch(res.Pages, back); err != nil {
		return err
	}
	for i := range pages {
		if back[i] != pages[i] {
			return fmt.Errorf("page %d (%s) differs after DecompressBatch", i, res.Pages[i].Kind)
		}
	}
	return nil
}

// Checks API-12, PAGE-6: DecompressBatch restores every page of every
// shape, on batches of either CPU backend.
func TestPublicRoundTrip(t *testing.T) {
	c := newCompressor(t)
	rapid.Check(t, func(t *rapid.T) {
		specs := Batch(1, 64).Draw(t, "specs")
		if err := roundTrip(c, Pages(specs)); err != nil {
			t.Fatal(err)
		}
	})
}

// corpusPages is the number of Corpus pages TestCorpusConformance checks;
// CONFORMANCE_PAGES overrides it (and CONFORMANCE_BATCH the pages per
// batch). A device run: CONFORMANCE_PAGES=1048576 with a cuda build.
func corpusPages(t *testing.T) int {
	n := 24000
	if s := os.Getenv("CONFORMANCE_PAGES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("CONFORMANCE_PAGES=%q is not a page count", s)
		}
		n = v
	}
	return n
}

// Checks API-16, PARSE-8, PAGE-3, PAGE-4, PAGE-5: the bulk corpus, every
// shape alike, through the largest CPU batches (GPU batches on a machine
// with one, then the backend must be the GPU).
func TestCorpusConformance(t *testing.T) {
	c := newCompressor(t)
	n := corpusPages(t)
	specs := Corpus(n, 0x6c7a3477617270)
	gpu := lz4warp.GPUAvailable()
	batch := lz4warp.GPUMinBatch - 1
	if gpu {
		batch = max(lz4warp.GPUMinBatch, lz4warp.DefaultConfig().BatchSize)
	}
	if s := os.Getenv("CONFORMANCE_BATCH"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("CONFORMANCE_BATCH=%q is not a page count", s)
		}
		batch = v
	}
	for lo := 0; lo < n; lo += batch {
		chunk := specs[lo:min(lo+batch, n)]
		// The last batch may be small enough for another backend.
		compress := compressorFunc(c, lz4warp.SelectBackend(len(chunk), gpu))
		checked, mismatches, first := CheckSpecs(compress, chunk)
		total.Add(checked, mismatches, first)
		if first != nil {
			t.Fatalf("pages %d+: %d mismatches: %v", lo, mismatches, first)
		}
		if err := roundTrip(c, Pages(chunk)); err != nil {
			t.Fatalf("pages %d+: %v", lo, err)
		}
	}
}

// The generators are worth what they cover: each shape gives the kinds it
// is meant to, the near-raw shape straddles the threshold, and the
// tail-match shape puts matches at the last positions the parse allows.
func TestGeneratorCoverage(t *testing.T) { // Checks PAGE-5, PARSE-6.
	specs := Corpus(12*400, 1)
	kinds := map[Shape]map[reference.Kind]int{}
	var nearBelow, nearAt, lastMatchAt, lastLegal int
	var buf [reference.PageBound]byte
	for _, s := range specs {
		p := s.Page()
		kind, _ := reference.EncodePage(buf[:], &p)
		if kinds[s.Shape] == nil {
			kinds[s.Shape] = map[reference.Kind]int{}
		}
		kinds[s.Shape][kind]++
		block := make([]byte, reference.CompressBlockBound(pageSize))
		m, err := reference.CompressBlock(block, p[:])
		if err != nil {
			t.Fatal(err)
		}
		if s.Shape == NearRaw {
			switch {
			case m >= reference.RawThreshold-8 && m < reference.RawThreshold:
				nearBelow++
			case m >= reference.RawThreshold && m < reference.RawThreshold+8:
				nearAt++
			}
		}
		if s.Shape == TailMatch {
			pos := 0
			for _, seq := range reference.Parse(p[:]) {
				pos += seq.LiteralLen
				if seq.MatchLen > 0 && pos >= pageSize-24 {
					lastMatchAt++
					if pos == pageSize-reference.MFLimit {
						lastLegal++
					}
				}
				pos += seq.MatchLen
			}
		}
	}
	want := map[Shape][]reference.Kind{
		Zero: {reference.KindSame}, SameFilled: {reference.KindSame}, AlmostSame: {reference.KindLZ4},
		Text: {reference.KindLZ4}, Repetitive: {reference.KindLZ4, reference.KindRaw}, Random: {reference.KindRaw},
		Sparse: {reference.KindLZ4}, Structured: {reference.KindLZ4}, Mixed: {reference.KindLZ4, reference.KindRaw},
		NearRaw: {reference.KindLZ4, reference.KindRaw}, TailMatch: {reference.KindLZ4},
		LongLiterals: {reference.KindLZ4, reference.KindRaw},
	}
	for shape, ks := range want {
		for _, k := range ks {
			if kinds[shape][k] == 0 {
				t.Errorf("shape %v: no %v page in %v", shape, k, kinds[shape])
			}
		}
		if len(kinds[shape]) != len(ks) {
			t.Errorf("shape %v: kinds %v, want only %v", shape, kinds[shape], ks)
		}
	}
	if nearBelow == 0 || nearAt == 0 {
		t.Errorf("near-raw: %d blocks just below 3,072 bytes, %d just at or above; want both", nearBelow, nearAt)
	}
	if lastMatchAt == 0 || lastLegal == 0 {
		t.Errorf("tail-match: %d matches in the last 24 bytes, %d at n-12; want both", lastMatchAt, lastLegal)
	}
	t.Logf("near-raw: %d just below, %d just above; tail matches: %d, at n-12: %d", nearBelow, nearAt, lastMatchAt, lastLegal)
}

// Checks PARSE-8: a Spec names the same page every time.
func TestSpecsAreDeterministic(t *testing.T) {
	a, b := Corpus(200, 7), Corpus(200, 7)
	for i := range a {
		if a[i] != b[i] || a[i].Page() != b[i].Page() {
			t.Fatalf("spec %d: %v and %v differ", i, a[i], b[i])
		}
	}
	if Corpus(1, 7)[0] == Corpus(1, 8)[0] {
		t.Error("the corpus seed changes nothing")
	}
}
