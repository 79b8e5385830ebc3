package gpuimpl

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/gputest"
	"github.com/lz4warp/lz4warp/internal/lz4cmd"
)

// decodeEnv is a positive integer from the environment, or def.
func decodeEnv(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// Checks GPU-11, RT-17 on the device: LZ4WARP_DECODE_PAGES pages (default
// 1,000,000), in batches of LZ4WARP_DECODE_BATCH (default 100,000), half
// valid pages of every kind (canonical, pierrec/lz4 at every level, liblz4
// at fast, default and HC levels from the lz4 command or from the file
// LZ4WARP_LIBLZ4_BLOCKS) and half hostile payloads (mutated blocks of all
// of them, blocks of literals of about a page, payloads of the wrong kind
// or length), decoded by the engine in turn into Go memory (Decompress),
// into a HostPages (DecompressHost) and started and waited for
// (StartDecompressHost): every page's status gives fastlz4's verdict, and
// a page that decodes fastlz4's bytes, the original page's where the test
// has it; a page that fails is not written in Go memory and is zeros in a
// HostPages. Prints
// "decode: pages checked N, mismatches M". Under compute-sanitizer, a run
// of 20,000 pages checks 10,000 of each.
func TestDecodeConformance(t *testing.T) {
	gputest.Require(t)
	total := decodeEnv("LZ4WARP_DECODE_PAGES", 1_000_000)
	batch := min(decodeEnv("LZ4WARP_DECODE_BATCH", 100_000), total)
	e, err := Open(Options{BatchPages: 1, RingSlots: 1, AsyncDMA: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	h, err := e.NewHostPages(batch)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()

	start := time.Now()
	rng := rand.New(rand.NewPCG(28, 1))
	sets := corpusSets(t, 2000)
	pool := validCases(min(total/2, 30000), rng, sets)
	liblz4, err := liblz4Pool(rng, sets)
	if err != nil {
		t.Fatal(err)
	}
	pool = append(pool, liblz4...)
	lz4Pool := lz4Only(pool)
	t.Logf("pool: %d valid pages (%d from liblz4), made in %v", len(pool), len(liblz4), time.Since(start).Round(time.Millisecond))

	checked, mismatches := 0, 0
	perMode := map[string]int{}
	var gpuTime time.Duration
	for round := 0; checked < total; round++ {
		size := min(batch, total-checked)
		cases := mutatedCases(size/2, rng, lz4Pool)
		for len(cases) < size {
			cases = append(cases, pool[rng.IntN(len(pool))])
		}
		rng.Shuffle(len(cases), func(i, j int) { cases[i], cases[j] = cases[j], cases[i] })
		pages := make([]Output, size)
		for i, c := range cases {
			pages[i] = Output{Kind: c.Kind, Data: c.Data}
		}
		status := make([]uint32, size)
		var outs [][PageSize]byte
		mode := []string{"Decompress", "DecompressHost", "StartDecompressHost"}[round%3]
		t0 := time.Now()
		switch mode {
		case "Decompress":
			outs = make([][PageSize]byte, size)
			fillCanary(outs)
			_, err = e.Decompress(pages, outs, status)
		case "DecompressHost":
			outs = h.Pages[:size]
			fillCanary(outs)
			_, err = e.DecompressHost(pages, h, status)
		default:
			outs = h.Pages[:size]
			fillCanary(outs)
			var p *DecodePending
			if p, err = e.StartDecompressHost(pages, h); err == nil {
				_, err = p.Wait(status)
			}
		}
		gpuTime += time.Since(t0)
		if err != nil {
			t.Fatalf("round %d, %s: %v", round, mode, err)
		}
		perMode[mode] += size
		failed := byte(canary) // Decompress copies out only the pages that decode
		if mode != "Decompress" {
			failed = 0 // the DMA copies every page, and a failed one is cleared
		}
		bad := parallelCheckAll(size, func(i int) error { return checkDecodedFailing(cases[i], status[i], outs[i][:], failed) })
		for i, err := range bad {
			mismatches++
			if mismatches <= 10 {
				t.Errorf("round %d (%s) page %d (%s, kind %d, %d bytes): %v", round, mode, i, cases[i].From, cases[i].Kind, len(cases[i].Data), err)
			}
		}
		checked += size
	}
	t.Logf("%d pages in %v on the GPU, per path %v, %v in all", checked, gpuTime.Round(time.Millisecond), perMode, time.Since(start).Round(time.Millisecond))
	fmt.Printf("decode: pages checked %d, mismatches %d\n", checked, mismatches)
}

// liblz4Pool is liblz4's blocks for the pool: from the lz4 command where
// there is one, else from the file LZ4WARP_LIBLZ4_BLOCKS, else none (with
// CI=true or LZ4WARP_LIBLZ4_REQUIRED=1, an error).
func liblz4Pool(rng *rand.Rand, sets [][]dataset.Page) ([]decodeCase, error) {
	if _, err := lz4cmd.Find(); err == nil {
		var all []decodeCase
		for _, level := range liblz4Levels {
			pages := make([]*[PageSize]byte, 1000)
			for i := range pages {
				pages[i] = corpusPage(i, rng, sets)
			}
			cases, err := liblz4Cases(pages, level)
			if err != nil {
				return nil, err
			}
			all = append(all, cases...)
		}
		return all, nil
	}
	if path := os.Getenv("LZ4WARP_LIBLZ4_BLOCKS"); path != "" {
		return readBlockCorpus(path)
	}
	if os.Getenv("LZ4WARP_LIBLZ4_REQUIRED") == "1" {
		return nil, errors.New("no lz4 command and no LZ4WARP_LIBLZ4_BLOCKS")
	}
	return nil, nil
}

// fillCanary fills pages with canary, which a page that fails keeps.
func fillCanary(pages [][PageSize]byte) {
	parallel(len(pages), 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for j := range pages[i] {
				pages[i][j] = canary
			}
		}
	})
}

// parallelCheckAll is parallelCheck on every core.
func parallelCheckAll(n int, check func(i int) error) map[int]error {
	bad := map[int]error{}
	errs := make([]error, n)
	parallel(n, 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			errs[i] = check(i)
		}
	})
	for i, err := range errs {
		if err != nil {
			bad[i] = err
		}
	}
	return bad
}
