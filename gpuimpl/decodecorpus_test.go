package gpuimpl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/internal/lz4cmd"
	"github.com/lz4warp/lz4warp/reference"
	"github.com/pierrec/lz4/v4"
)

// decodeCase is one compressed page of the decode tests: a kind and a
// payload, and, for a valid block, the page it holds.
type decodeCase struct {
	Kind uint8
	Data []byte
	Page *[PageSize]byte // nil for a mutated payload
	From string          // the encoder, or the mutation
}

// pierrecLevels are the encoders of pierrec/lz4: its fast compressor and
// every level of its HC one.
var pierrecLevels = []lz4.CompressionLevel{lz4.Fast, lz4.Level1, lz4.Level2, lz4.Level3,
	lz4.Level4, lz4.Level5, lz4.Level6, lz4.Level7, lz4.Level8, lz4.Level9}

// pierrecCase compresses page with pierrec/lz4 at level: an LZ4 block of
// any length (longer ones than PAGE-5 lets lz4warp write included), or a
// raw page where pierrec finds none.
func pierrecCase(page *[PageSize]byte, level lz4.CompressionLevel) decodeCase {
	dst := make([]byte, lz4.CompressBlockBound(PageSize))
	var n int
	var err error
	if level == lz4.Fast {
		var c lz4.Compressor
		n, err = c.CompressBlock(page[:], dst)
	} else {
		c := lz4.CompressorHC{Level: level}
		n, err = c.CompressBlock(page[:], dst)
	}
	from := fmt.Sprintf("pierrec-%v", level)
	if err != nil || n == 0 {
		return decodeCase{Kind: kindRaw, Data: page[:], Page: page, From: from}
	}
	return decodeCase{Kind: kindLZ4, Data: dst[:n:n], Page: page, From: from}
}

// canonicalCase is the page as lz4warp stores it (PAGE-2 to PAGE-5).
func canonicalCase(page *[PageSize]byte) decodeCase {
	dst := make([]byte, reference.PageBound)
	kind, n := reference.EncodePage(dst, page)
	return decodeCase{Kind: uint8(kind), Data: dst[:n:n], Page: page, From: "canonical"}
}

// liblz4Levels are the lz4 command's settings for liblz4Cases: its fast
// modes, its default and its HC levels.
var liblz4Levels = []string{"--fast=8", "-1", "-3", "-9", "-12"}

// liblz4Cases compresses each page with the lz4 command (liblz4) at level,
// in one run over one file per page in the legacy format, whose one block
// per file is the page's LZ4 block. It returns nil, with the reason,
// without the command.
func liblz4Cases(pages []*[PageSize]byte, level string) ([]decodeCase, error) {
	cmd, err := lz4cmd.Find()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "lz4warp-decode")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	names := make([]string, len(pages))
	for i, p := range pages {
		names[i] = filepath.Join(dir, fmt.Sprintf("p%06d", i))
		if err := os.WriteFile(names[i], p[:], 0o644); err != nil {
			return nil, err
		}
	}
	args := append([]string{"-l", "-q", "-f", "-m", level}, names...)
	if out, err := exec.Command(cmd, args...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s %s: %v: %s", cmd, level, err, out)
	}
	cases := make([]decodeCase, len(pages))
	for i, name := range names {
		b, err := os.ReadFile(name + ".lz4")
		if err != nil {
			return nil, err
		}
		// The legacy frame: magic 0x184C2102, the block's length, the block.
		if len(b) < 8 || binary.LittleEndian.Uint32(b) != 0x184C2102 || int(binary.LittleEndian.Uint32(b[4:])) != len(b)-8 {
			return nil, fmt.Errorf("%s: not one legacy block of a page (%d bytes)", name, len(b))
		}
		cases[i] = decodeCase{Kind: kindLZ4, Data: b[8:], Page: pages[i], From: "liblz4" + level}
	}
	return cases, nil
}

// corpusPage is page i of a decode corpus: the generators of the kernel
// tests and the data sets in turn.
func corpusPage(i int, rng *rand.Rand, sets [][]dataset.Page) *[PageSize]byte {
	if n := len(pageKinds); i%2 == 0 || len(sets) == 0 {
		return genPage(pageKinds[i/2%n], rng)
	}
	set := sets[i/2%len(sets)]
	p := set[rng.IntN(len(set))]
	return &p
}

// corpusSets are the data sets' pages the corpus draws from: each set's
// first n pages, those without a source left out.
func corpusSets(t testing.TB, n int) [][]dataset.Page {
	var sets [][]dataset.Page
	for _, name := range dataset.Deterministic() {
		set, err := dataset.Load(name, n)
		if errors.Is(err, dataset.ErrNoSource) {
			t.Logf("%s: %v", name, err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, set)
	}
	return sets
}

// validCases returns n valid compressed pages: the canonical encoding and
// pierrec/lz4's at each level in turn, over corpusPage's pages.
func validCases(n int, rng *rand.Rand, sets [][]dataset.Page) []decodeCase {
	cases := make([]decodeCase, n)
	encoders := len(pierrecLevels) + 1
	for i := range cases {
		page := corpusPage(i, rng, sets)
		if e := i % encoders; e == 0 {
			cases[i] = canonicalCase(page)
		} else {
			cases[i] = pierrecCase(page, pierrecLevels[e-1])
		}
	}
	return cases
}

// mutations edit an LZ4 block into a hostile one, each aiming at one of
// the decoder's checks; the name says which.
var mutations = []struct {
	name string
	edit func(b []byte, rng *rand.Rand) []byte
}{
	{"flip-bit", func(b []byte, rng *rand.Rand) []byte {
		if len(b) > 0 {
			b[rng.IntN(len(b))] ^= 1 << rng.IntN(8)
		}
		return b
	}},
	{"random-bytes", func(b []byte, rng *rand.Rand) []byte {
		for range 1 + rng.IntN(4) {
			if len(b) > 0 {
				b[rng.IntN(len(b))] = byte(rng.Uint32())
			}
		}
		return b
	}},
	{"truncate", func(b []byte, rng *rand.Rand) []byte { return b[:rng.IntN(len(b)+1)] }},
	{"append", func(b []byte, rng *rand.Rand) []byte {
		tail := make([]byte, 1+rng.IntN(64))
		randomBytes(tail, rng)
		return append(b, tail...)
	}},
	{"drop-byte", func(b []byte, rng *rand.Rand) []byte {
		if len(b) == 0 {
			return b
		}
		i := rng.IntN(len(b))
		return append(b[:i], b[i+1:]...)
	}},
	{"zero-offset", func(b []byte, rng *rand.Rand) []byte {
		// Two bytes of the block zeroed: where they are an offset, it is 0.
		if len(b) > 2 {
			i := rng.IntN(len(b) - 1)
			b[i], b[i+1] = 0, 0
		}
		return b
	}},
	{"far-offset", func(b []byte, rng *rand.Rand) []byte {
		if len(b) > 2 {
			i := rng.IntN(len(b) - 1)
			b[i], b[i+1] = byte(rng.Uint32()), 0xf0|byte(rng.Uint32())
		}
		return b
	}},
	{"long-length", func(b []byte, rng *rand.Rand) []byte {
		// A run of 255s after a byte: a length field running on, past the
		// page, past the payload or past fastlz4's bound on lengths.
		if len(b) == 0 {
			return b
		}
		i := rng.IntN(len(b))
		run := bytes.Repeat([]byte{255}, 1+rng.IntN(600))
		b[i] |= 0xf0
		return append(b[:i+1], append(run, b[i+1:]...)...)
	}},
	{"duplicate", func(b []byte, rng *rand.Rand) []byte {
		if len(b) == 0 {
			return b
		}
		i := rng.IntN(len(b))
		j := i + rng.IntN(len(b)-i)
		return append(b[:j:j], append(bytes.Clone(b[i:j]), b[j:]...)...)
	}},
	{"extra-sequence", func(b []byte, rng *rand.Rand) []byte {
		// A sequence after the block's end: literals, or a match, past
		// the page.
		return append(b, byte(rng.Uint32()), 1, 0, byte(rng.Uint32()))
	}},
	{"garbage", func(b []byte, rng *rand.Rand) []byte {
		g := make([]byte, rng.IntN(6000))
		randomBytes(g, rng)
		return g
	}},
}

// literalBlock is a block of n literals alone, which decodes to n bytes:
// a page's worth and one byte either side are the edge cases of the
// decoder's end of block.
func literalBlock(n int, rng *rand.Rand) []byte {
	b := []byte{0xf0}
	for v := n - 15; ; v -= 255 {
		if v < 255 {
			b = append(b, byte(v))
			break
		}
		b = append(b, 255)
	}
	lits := make([]byte, n)
	randomBytes(lits, rng)
	return append(b, lits...)
}

// mutatedCases returns n hostile payloads: mostly blocks of pool (valid
// LZ4 cases) with one mutation, and blocks of literals alone of about a
// page, in turn with kinds whose payload has the wrong length.
func mutatedCases(n int, rng *rand.Rand, pool []decodeCase) []decodeCase {
	cases := make([]decodeCase, n)
	for i := range cases {
		switch i % 16 {
		case 14:
			size := PageSize + rng.IntN(5) - 2
			cases[i] = decodeCase{Kind: kindLZ4, Data: literalBlock(size, rng), From: fmt.Sprintf("literals-%d", size)}
		case 15:
			kinds := []uint8{0, kindSame, kindRaw, 4, 255}
			data := make([]byte, []int{0, 7, 9, 4095, 4097, 8}[rng.IntN(6)])
			randomBytes(data, rng)
			cases[i] = decodeCase{Kind: kinds[rng.IntN(len(kinds))], Data: data, From: "kind-length"}
		default:
			c := pool[rng.IntN(len(pool))]
			m := mutations[i%len(mutations)]
			cases[i] = decodeCase{Kind: kindLZ4, Data: m.edit(bytes.Clone(c.Data), rng), From: c.From + "+" + m.name}
		}
	}
	return cases
}

// lz4Only keeps the LZ4 cases.
func lz4Only(cases []decodeCase) []decodeCase {
	var out []decodeCase
	for _, c := range cases {
		if c.Kind == kindLZ4 {
			out = append(out, c)
		}
	}
	return out
}

// checkDecoded compares the decode kernel's status and output for c with
// fastlz4.DecodePage's verdict and bytes (GPU-11): the same error, or for
// a page that decodes the same bytes, which are the original page's where
// c has one; a page that fails has its output untouched (canary).
func checkDecoded(c decodeCase, status uint32, out []byte) error {
	return checkDecodedFailing(c, status, out, canary)
}

// checkDecodedFailing is checkDecoded where a page that fails holds
// failed in every byte.
func checkDecodedFailing(c decodeCase, status uint32, out []byte, failed byte) error {
	var want [PageSize]byte
	wantErr := fastlz4.DecodePage(&want, fastlz4.Kind(c.Kind), c.Data)
	code, _ := SplitStatus(status)
	switch {
	case code == DecodeBadPayload:
		// The CPU's to decide: a payload of the wrong length or kind, one
		// too long for the GPU (gpuPayload), or a malformed block whose
		// match would reach its unread bytes, decoded in place; never a
		// block that decodes.
		if fastlz4.PayloadError(fastlz4.Kind(c.Kind), len(c.Data)) == nil && len(c.Data) <= maxDecodePayload &&
			(wantErr == nil || c.Kind != kindLZ4) {
			return fmt.Errorf("bad payload (status %#x), fastlz4: %v", status, wantErr)
		}
	case (wantErr == nil) != (status == DecodeOK):
		return fmt.Errorf("status %#x (%v), fastlz4: %v", status, StatusError(status), wantErr)
	case wantErr != nil && wantErr.Error() != StatusError(status).Error():
		return fmt.Errorf("error %q, fastlz4 %q", StatusError(status), wantErr)
	}
	if wantErr != nil {
		if bytes.Count(out, []byte{failed}) != len(out) {
			return fmt.Errorf("a failed page's output is not %#x in every byte (%v)", failed, wantErr)
		}
		return nil
	}
	if c.Page != nil && want != *c.Page {
		return errors.New("fastlz4 decodes the valid block to another page")
	}
	if !bytes.Equal(out, want[:]) {
		i := 0
		for out[i] == want[i] {
			i++
		}
		return fmt.Errorf("output differs from byte %d: %#x, fastlz4 %#x", i, out[i], want[i])
	}
	return nil
}

// parallelCheck runs check(i) for i < n on a few goroutines and returns
// the failures, by index.
func parallelCheck(n int, check func(i int) error) map[int]error {
	var mu sync.Mutex
	bad := map[int]error{}
	var wg sync.WaitGroup
	const workers = 4
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				if err := check(i); err != nil {
					mu.Lock()
					bad[i] = err
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	return bad
}

// randomBytes fills b from rng, whatever its length.
func randomBytes(b []byte, rng *rand.Rand) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}

// The liblz4 corpus file carries liblz4's blocks to a machine without the
// lz4 command (the GPU machine): records of a 32-bit length and the block.
// The pages are left out, to keep the file small: the blocks decode to
// them (TestDecodeKernelOnCPU checks liblz4's blocks against their pages),
// and the GPU's output is checked against fastlz4's.

// writeBlockCorpus writes the cases' payloads as a corpus file.
func writeBlockCorpus(path string, cases []decodeCase) error {
	var b []byte
	for _, c := range cases {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(c.Data)))
		b = append(b, c.Data...)
	}
	return os.WriteFile(path, b, 0o644)
}

// readBlockCorpus reads a corpus file of LZ4 blocks.
func readBlockCorpus(path string) ([]decodeCase, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cases []decodeCase
	for len(b) > 0 {
		if len(b) < 4 {
			return nil, fmt.Errorf("%s: a record cut short", path)
		}
		n := int(binary.LittleEndian.Uint32(b))
		if len(b) < 4+n {
			return nil, fmt.Errorf("%s: a record cut short", path)
		}
		cases = append(cases, decodeCase{Kind: kindLZ4, Data: b[4 : 4+n : 4+n], From: "liblz4-file"})
		b = b[4+n:]
	}
	return cases, nil
}
