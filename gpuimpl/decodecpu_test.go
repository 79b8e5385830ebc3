package gpuimpl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp/internal/dataset"
	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/internal/golden"
	"github.com/lz4warp/lz4warp/internal/ptxexec"
)

var decodeCPUPages = flag.Int("decodecpu.pages", 0,
	"valid and mutated pages each that TestDecodeKernelOnCPU checks (0: the test's default, fewer with -short)")

// Page counts of TestDecodeKernelOnCPU, each for the valid and the mutated
// payloads: CI runs the default; -short the smaller one.
const (
	decodeCPUDefaultPages = 10000
	decodeCPUShortPages   = 1000
)

// decodeOnCPU runs the sm_90 decode kernel on the executor for cases as the
// engine launches a chunk (GPU-11; layoutChunk) and returns each page's
// status word and output; the outputs start as canary.
func decodeOnCPU(mod *ptxexec.Module, cases []decodeCase) (status []uint32, outs [][]byte, err error) {
	pages := make([]Output, len(cases))
	for i, c := range cases {
		pages[i] = Output{Kind: c.Kind, Data: c.Data}
	}
	l := layoutChunk(pages, make([]uint32, len(pages)))
	mem := ptxexec.NewMemory()
	piece := mem.Alloc(l.size)
	l.fill(mem.Bytes(piece), pages)
	return launchDecode(mod, mem, piece, piece+uint64(l.payload), len(cases))
}

// launchDecode launches the decode kernel on n pages whose descriptors and
// payloads are at desc and src in mem, with output pages and status words
// of their own, and returns them.
func launchDecode(mod *ptxexec.Module, mem *ptxexec.Memory, desc, src uint64, n int) (status []uint32, outs [][]byte, err error) {
	dst, st := mem.Alloc(n*PageSize), mem.Alloc(4*n)
	out := mem.Bytes(dst)
	for i := range out {
		out[i] = canary
	}
	sb := mem.Bytes(st)
	for i := range sb {
		sb[i] = 0xee // no status: a page the kernel skipped shows
	}
	if err := mod.Launch(DecodeKernelName, DecodeBlocks(n), DecodeThreads, []uint64{desc, src, dst, st, uint64(n)}, mem); err != nil {
		return nil, nil, err
	}
	status = make([]uint32, n)
	outs = make([][]byte, n)
	for i := range n {
		status[i] = binary.LittleEndian.Uint32(sb[4*i:])
		outs[i] = out[i*PageSize : (i+1)*PageSize]
	}
	return status, outs, nil
}

// decodeAlone decodes one page whose payload is an allocation of its exact
// length (at a 64 KiB boundary, as PayloadAlign needs), so that a read of
// one byte past it faults.
func decodeAlone(mod *ptxexec.Module, c decodeCase) (uint32, []byte, error) {
	mem := ptxexec.NewMemory()
	src := mem.Alloc(len(c.Data))
	copy(mem.Bytes(src), c.Data)
	desc := mem.Alloc(DescBytes)
	d := mem.Bytes(desc)
	binary.LittleEndian.PutUint32(d[4:], uint32(len(c.Data)))
	binary.LittleEndian.PutUint32(d[8:], uint32(c.Kind))
	status, outs, err := launchDecode(mod, mem, desc, src, 1)
	if err != nil {
		return 0, nil, err
	}
	return status[0], outs[0], nil
}

// decodeChecked decodes cases on the executor, in launches of batch pages,
// and checks each page against fastlz4 (checkDecoded); it returns the
// failures by index.
func decodeChecked(t testing.TB, mod *ptxexec.Module, cases []decodeCase, batch int) map[int]error {
	bad := map[int]error{}
	for lo := 0; lo < len(cases); lo += batch {
		part := cases[lo:min(lo+batch, len(cases))]
		status, outs, err := decodeOnCPU(mod, part)
		if err != nil {
			t.Fatalf("decode kernel on the executor, pages %d to %d: %v", lo, lo+len(part)-1, err)
		}
		for i, err := range parallelCheck(len(part), func(i int) error { return checkDecoded(part[i], status[i], outs[i]) }) {
			bad[lo+i] = err
		}
	}
	return bad
}

// Checks GPU-11, PAGE-6 and EXEC-8: the decode kernel's text, executed on
// the CPU with its bounds checks, gives fastlz4.DecodePage's verdict and
// bytes for valid pages of every kind from every encoder (the canonical
// one, pierrec/lz4 at every level, liblz4 at fast, default and HC levels
// where the lz4 command is present) and for hostile payloads (mutated
// blocks, blocks of about a page of literals, kinds with payloads of the
// wrong length); a mutated payload is launched alone, as an allocation of
// its exact length, so that a read past it faults. Prints
// "decode: pages checked N, mismatches M".
func TestDecodeKernelOnCPU(t *testing.T) {
	n := decodeCPUDefaultPages
	if testing.Short() {
		n = decodeCPUShortPages
	}
	if *decodeCPUPages > 0 {
		n = *decodeCPUPages
	}
	mod, err := ptxexec.Load(DecodePTX(90))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(28, 11))
	sets := corpusSets(t, 500)
	start := time.Now()
	valid := validCases(n, rng, sets)
	perLevel := max(100, n/20)
	var liblz4 []decodeCase
	for _, level := range liblz4Levels {
		pages := make([]*[PageSize]byte, perLevel)
		for i := range pages {
			pages[i] = corpusPage(i, rng, sets)
		}
		cases, err := liblz4Cases(pages, level)
		if err != nil {
			if strings.Contains(err.Error(), "no lz4 command") && !ciRequiresLZ4() {
				t.Logf("liblz4 blocks left out: %v", err)
				break
			}
			t.Fatal(err)
		}
		liblz4 = append(liblz4, cases...)
	}
	valid = append(valid, liblz4...)
	mutated := mutatedCases(n, rng, lz4Only(valid))
	t.Logf("corpus: %d valid pages (%d from liblz4), %d hostile payloads, made in %v",
		len(valid), len(liblz4), len(mutated), time.Since(start).Round(time.Millisecond))

	mismatches := 0
	report := func(what string, cases []decodeCase, bad map[int]error) {
		for _, i := range slices.Sorted(maps.Keys(bad)) {
			mismatches++
			if mismatches <= 10 {
				t.Errorf("%s %d (%s, %d bytes): %v", what, i, cases[i].From, len(cases[i].Data), bad[i])
			}
		}
	}
	t0, steps0 := time.Now(), mod.Steps()
	report("valid page", valid, decodeChecked(t, mod, valid, 1000))
	t.Logf("valid pages: %v, %.0f warp instructions per page", time.Since(t0).Round(time.Millisecond),
		float64(mod.Steps()-steps0)/float64(len(valid)))
	t0, steps0 = time.Now(), mod.Steps()
	var toCPU atomic.Int64 // well-formed LZ4 payloads the kernel left to the CPU
	report("hostile payload", mutated, parallelCheck(len(mutated), func(i int) error {
		c := mutated[i]
		status, out, err := decodeAlone(mod, c)
		if err != nil {
			return fmt.Errorf("executor: %w", err)
		}
		if code, _ := SplitStatus(status); code == DecodeBadPayload && c.Kind == kindLZ4 && len(c.Data) <= maxDecodePayload {
			toCPU.Add(1)
		}
		return checkDecoded(c, status, out)
	}))
	t.Logf("hostile payloads, one launch each: %v, %.0f warp instructions per page; %d malformed blocks left to the CPU (a match reaching the unread payload)",
		time.Since(t0).Round(time.Millisecond), float64(mod.Steps()-steps0)/float64(len(mutated)), toCPU.Load())
	verdicts := map[string]int{}
	for _, c := range mutated {
		var p [PageSize]byte
		err := fastlz4.DecodePage(&p, fastlz4.Kind(c.Kind), c.Data)
		verdicts[verdictName(err)]++
	}
	t.Logf("fastlz4's verdicts on the hostile payloads: %v", verdicts)
	fmt.Printf("decode: pages checked %d, mismatches %d\n", len(valid)+len(mutated), mismatches)
}

// verdictName names an error of fastlz4.DecodePage by its class.
func verdictName(err error) string {
	switch {
	case err == nil:
		return "decodes"
	case errors.Is(err, fastlz4.ErrBadKind):
		return "bad payload"
	case errors.Is(err, fastlz4.ErrShortBuffer):
		return "past the page"
	case err == fastlz4.ErrCorrupt:
		return "corrupt"
	}
	return "short page"
}

// ciRequiresLZ4 reports whether a missing lz4 command fails the test, as
// the interoperability tests do under CI=true.
func ciRequiresLZ4() bool { return os.Getenv("CI") == "true" }

// Checks GPU-11's edge cases: matches of every overlapping offset from 1
// to 130 and long ones, a match that ends the page exactly, one byte past
// it, an offset one past the output so far, an offset of 0, a block that
// ends one byte short of the page, one that ends right after an offset, and
// a length field past fastlz4's bound.
func TestDecodeKernelEdgeCases(t *testing.T) {
	mod, err := ptxexec.Load(DecodePTX(90))
	if err != nil {
		t.Fatal(err)
	}
	// seq is one sequence: literals, then a match of offset off and length
	// ml (none when ml is 0).
	seq := func(lits []byte, off, ml int) []byte {
		var b []byte
		token := byte(min(len(lits), 15)) << 4
		if ml > 0 {
			token |= byte(min(ml-4, 15))
		}
		b = append(b, token)
		if len(lits) >= 15 {
			b = appendLength(b, len(lits)-15)
		}
		b = append(b, lits...)
		if ml > 0 {
			b = append(b, byte(off), byte(off>>8))
			if ml-4 >= 15 {
				b = appendLength(b, ml-4-15)
			}
		}
		return b
	}
	lits := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*7 + 3)
		}
		return b
	}
	var cases []decodeCase
	add := func(name string, parts ...[]byte) {
		cases = append(cases, decodeCase{Kind: kindLZ4, Data: slices.Concat(parts...), From: name})
	}
	for off := 1; off <= 130; off++ {
		// off literals, a match to 5 bytes before the end, 5 literals.
		add(fmt.Sprintf("offset-%d", off), seq(lits(off), off, PageSize-off-5), seq(lits(5), 0, 0))
	}
	add("match-to-the-end", seq(lits(1), 1, PageSize-1), seq(nil, 0, 0))
	add("match-past-the-end", seq(lits(1), 1, PageSize), seq(nil, 0, 0))
	add("offset-past-output", seq(lits(10), 11, 20), seq(lits(5), 0, 0))
	add("offset-zero", seq(lits(10), 0, 20), seq(lits(5), 0, 0))
	add("offset-65535", seq(lits(10), 65535, 20), seq(lits(5), 0, 0))
	add("one-short", seq(lits(1), 1, PageSize-2), seq(nil, 0, 0))
	add("length-past-bound", []byte{0xf0}, bytes.Repeat([]byte{255}, fastlz4.MaxLengthField/255+2))
	add("empty")
	add("token-only", []byte{0x00})
	add("no-offset", seq(lits(3), 0, 0), []byte{0x10, 1})
	// A block that ends right after an offset: its match is still checked
	// against the page before the missing next token (ShortBuffer), and
	// one that fits ends in Corrupt.
	add("offset-at-the-end", seq(lits(PageSize-2), 1, 4))
	add("offset-at-the-end-fits", seq(lits(10), 1, 4))
	for i, c := range cases {
		status, out, err := decodeAlone(mod, c)
		if err != nil {
			t.Fatalf("%s: %v", c.From, err)
		}
		if err := checkDecoded(c, status, out); err != nil {
			t.Errorf("case %d %s: %v", i, c.From, err)
		}
	}
	// The cases reach every code.
	codes := map[int]bool{}
	for _, c := range cases {
		s, _, _ := decodeAlone(mod, c)
		code, _ := SplitStatus(s)
		codes[code] = true
	}
	for _, code := range []int{DecodeOK, DecodeCorrupt, DecodeShortBuffer, DecodeShortPage} {
		if !codes[code] {
			t.Errorf("no case gives code %d", code)
		}
	}
}

// appendLength appends the extension bytes of a length field's v past 15.
func appendLength(b []byte, v int) []byte {
	for ; v >= 255; v -= 255 {
		b = append(b, 255)
	}
	return append(b, byte(v))
}

// Checks GPU-2, GPU-11 and EXEC-1: the decode text of every target loads
// and decodes pages of every kind.
func TestDecodeKernelEveryTarget(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 28))
	cases := validCases(3*len(pageKinds), rng, nil)
	for _, sm := range Targets {
		mod, err := ptxexec.Load(DecodePTX(sm))
		if err != nil {
			t.Fatalf("sm_%d: %v", sm, err)
		}
		for i, err := range decodeChecked(t, mod, cases, len(cases)) {
			t.Errorf("sm_%d page %d (%s): %v", sm, i, cases[i].From, err)
		}
	}
}

// Checks GPU-3 and GPU-11: the decode kernel's text is fixed by golden
// files, one per target, and is the same on every call.
func TestDecodeKernelGolden(t *testing.T) {
	for _, sm := range Targets {
		text := DecodePTX(sm)
		if text != DecodePTX(sm) {
			t.Fatalf("sm_%d: DecodePTX differs between calls", sm)
		}
		golden.Check(t, filepath.Join("testdata", fmt.Sprintf("lz4warp_decode_sm%d.ptx", sm)), []byte(text))
	}
}

// Checks GPU-11's interface: the entry point, its parameters and its
// shared memory.
func TestDecodeKernelInterface(t *testing.T) {
	text := DecodePTX(90)
	want := ".visible .entry " + DecodeKernelName +
		"(\n\t.param .u64 desc,\n\t.param .u64 src,\n\t.param .u64 dst,\n\t.param .u64 status,\n\t.param .u64 npages\n)\n"
	if !strings.Contains(text, want) {
		t.Errorf("the text lacks the entry:\n%s", want)
	}
	mod, err := ptxexec.Load(text)
	if err != nil {
		t.Fatal(err)
	}
	if got := mod.SharedBytes(DecodeKernelName); got != DecodeShared || DecodeShared != 16768 {
		t.Errorf("%d bytes of shared memory, want %d = 4 slices of 4,192 bytes", got, DecodeShared)
	}
}

// Checks GPU-6 and GPU-11: the decode kernel assembles for every target
// within its budgets: at most DecodeMaxRegisters registers, no spills, no
// stack, 16,768 bytes of shared memory.
func TestDecodeKernelResources(t *testing.T) {
	for _, r := range assembleTargets(t, DecodePTX, DecodeKernelName) {
		if r.Registers > DecodeMaxRegisters {
			t.Errorf("%s: %d registers, budget %d", r.Arch, r.Registers, DecodeMaxRegisters)
		}
		if r.SpillStores != 0 || r.SpillLoads != 0 || r.StackFrame != 0 {
			t.Errorf("%s: spills or stack: %+v", r.Arch, r)
		}
		if r.SharedBytes != DecodeShared {
			t.Errorf("%s: %d bytes of shared memory, want %d", r.Arch, r.SharedBytes, DecodeShared)
		}
	}
}

// Checks GPU-11 and EXEC-7: each bar.warp.sync of the decode kernel is
// needed: without it, a page of matches reads bytes other lanes wrote, or
// a literal copy in place overwrites payload bytes other lanes read, with
// no barrier between, which the executor reports as a race. The pages:
// valid ones of every kind and the blocks of inPlaceOverlapCase, whose
// literals overwrite their own sequence's token: on the fast path (5
// literals, a match of offset 4) and the general one's short and long
// literal copies (a match of offset 1, which overlaps itself).
func TestDecodeWarpSyncsAreNeeded(t *testing.T) {
	text := DecodePTX(90)
	rng := rand.New(rand.NewPCG(19, 28))
	overlaps := []decodeCase{inPlaceOverlapCase(t, 5, 1), inPlaceOverlapCase(t, 5, 4), inPlaceOverlapCase(t, 40, 1)}
	cases := append(validCases(4*len(pageKinds), rng, nil), overlaps...)
	mod, err := ptxexec.Load(text)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range overlaps {
		status, out, err := decodeAlone(mod, c)
		if err == nil {
			err = checkDecoded(c, status, out)
		}
		if err != nil {
			t.Fatalf("%s: %v", c.From, err)
		}
	}
	lines := strings.Split(text, "\n")
	syncs := 0
	for i, line := range lines {
		if !strings.HasPrefix(strings.TrimSpace(line), "bar.warp.sync") {
			continue
		}
		syncs++
		mod, err := ptxexec.Load(strings.Join(slices.Concat(lines[:i], lines[i+1:]), "\n"))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := decodeOnCPU(mod, cases); !errors.Is(err, ptxexec.ErrSharedRace) {
			t.Errorf("without line %d %q: %v, want a shared-memory race", i+1, strings.TrimSpace(line), err)
		}
	}
	if syncs != 8 {
		t.Errorf("the decode kernel has %d bar.warp.sync, the test expects 8", syncs)
	}
}

// inPlaceOverlapCase is a malformed block of three sequences: the first
// of a literal and a match of offset 1, the second of lits literals and a
// match of 4 bytes, offset bytes back, the third of 200 literals, past the
// page. The kernel stages a payload of n bytes (maxDecodePayload - n) &^
// 15 bytes into the warp's slice; the first match ends 1 to lits-1 bytes
// below the second sequence's token, so that its literals, copied in
// place, overwrite it, and its match does not reach the unread payload.
func inPlaceOverlapCase(t *testing.T, lits, offset int) decodeCase {
	field := func(n int) (nibble byte, ext []byte) {
		if n < 15 {
			return byte(n), nil
		}
		for n -= 15; n >= 255; n -= 255 {
			ext = append(ext, 255)
		}
		return 15, append(ext, byte(n))
	}
	sequence := func(lits, match, offset int) []byte {
		ln, lext := field(lits)
		mn, mext := field(match - minMatch)
		b := append([]byte{ln<<4 | mn}, lext...)
		b = append(b, bytes.Repeat([]byte{'a'}, lits)...)
		b = append(b, byte(offset), byte(offset>>8))
		return append(b, mext...)
	}
	for match := minMatch; match < PageSize-lits; match++ {
		first, second := sequence(1, match, 1), sequence(lits, minMatch, offset)
		third := sequence(200, minMatch, 1)[:1+1+200] // its token, a length byte, its literals
		n := len(first) + len(second) + len(third)
		gap := (maxDecodePayload-n)&^15 + len(first) - (1 + match) // ip - op after the first match
		if gap >= 1 && gap < lits {
			return decodeCase{Kind: kindLZ4, Data: slices.Concat(first, second, third),
				From: fmt.Sprintf("in-place overlap of %d literals, a match of offset %d", lits, offset)}
		}
	}
	t.Fatalf("no block whose %d literals overlap their token", lits)
	return decodeCase{}
}

// FuzzDecodeKernel feeds payloads to the decode kernel on the executor,
// each alone in an allocation of its length, and compares the verdict and
// bytes with fastlz4.DecodePage's (GPU-11).
func FuzzDecodeKernel(f *testing.F) {
	rng := rand.New(rand.NewPCG(1, 28))
	for _, c := range validCases(24, rng, nil) {
		f.Add(c.Kind, c.Data)
	}
	for _, c := range mutatedCases(24, rng, lz4Only(validCases(24, rng, nil))) {
		f.Add(c.Kind, c.Data)
	}
	mod, err := ptxexec.Load(DecodePTX(90))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		c := decodeCase{Kind: kind, Data: data, From: "fuzz"}
		status, out, err := decodeAlone(mod, c)
		if err != nil {
			t.Fatalf("executor: %v", err)
		}
		if err := checkDecoded(c, status, out); err != nil {
			t.Fatal(err)
		}
	})
}

// Checks GPU-11's layout: descriptors first, each payload at a multiple of
// PayloadAlign, and a payload longer than maxDecodePayload left out with
// kind 0, so that the kernel gives it DecodeBadPayload and the CPU its
// verdict.
func TestDecodeLayout(t *testing.T) {
	long := make([]byte, maxDecodePayload+1)
	pages := []Output{{Kind: kindLZ4, Data: []byte{0x10, 'a'}}, {Kind: kindLZ4, Data: long}, {Kind: kindSame, Data: make([]byte, 8)}}
	l := layoutChunk(pages, make([]uint32, len(pages)))
	if l.payload != 48 || !slices.Equal(l.offsets, []uint32{0, 16, 16}) || l.size != 48+32 {
		t.Fatalf("layout %+v", l)
	}
	piece := make([]byte, l.size)
	l.fill(piece, pages)
	if kind := binary.LittleEndian.Uint32(piece[DescBytes+8:]); kind != 0 {
		t.Errorf("the long payload's kind is %d, want 0", kind)
	}
	mod, err := ptxexec.Load(DecodePTX(90))
	if err != nil {
		t.Fatal(err)
	}
	status, _, err := decodeOnCPU(mod, []decodeCase{{Kind: kindLZ4, Data: long}})
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := SplitStatus(status[0]); code != DecodeBadPayload {
		t.Errorf("status %#x, want DecodeBadPayload", status[0])
	}
}

var liblz4Out = flag.String("liblz4.out", "", "TestWriteLiblz4Corpus writes liblz4's blocks of corpus pages to this file")

// TestWriteLiblz4Corpus writes, with -liblz4.out, liblz4's blocks of 1,000
// corpus pages at each of liblz4Levels for the GPU machine, which has no
// lz4 command (make gpu-binaries; LZ4WARP_LIBLZ4_BLOCKS there), and checks
// that the file reads back.
func TestWriteLiblz4Corpus(t *testing.T) {
	if *liblz4Out == "" {
		t.Skip("no -liblz4.out")
	}
	rng := rand.New(rand.NewPCG(28, 4))
	sets := corpusSets(t, 2000)
	var all []decodeCase
	for _, level := range liblz4Levels {
		pages := make([]*[PageSize]byte, 1000)
		for i := range pages {
			pages[i] = corpusPage(i, rng, sets)
		}
		cases, err := liblz4Cases(pages, level)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, cases...)
	}
	if err := writeBlockCorpus(*liblz4Out, all); err != nil {
		t.Fatal(err)
	}
	back, err := readBlockCorpus(*liblz4Out)
	if err != nil || len(back) != len(all) || !bytes.Equal(back[7].Data, all[7].Data) {
		t.Fatalf("the corpus file reads back as %d blocks (%v), want %d", len(back), err, len(all))
	}
	t.Logf("%s: %d blocks", *liblz4Out, len(all))
}

// BenchmarkDecodeKernelInstructions runs the decode kernel on the executor
// over the canonical pages of the first 1,000 pages of each data set and
// reports the warp instructions a page takes, the work the GPU's schedulers
// issue (GPU-11).
func BenchmarkDecodeKernelInstructions(b *testing.B) {
	text := DecodePTX(90)
	for _, name := range dataset.Names() {
		b.Run("executor/"+name+"/1000", func(b *testing.B) {
			set, err := dataset.Load(name, 1000)
			if err != nil {
				b.Skip(err)
			}
			cases := make([]decodeCase, len(set))
			for i := range set {
				cases[i] = canonicalCase(&set[i])
			}
			b.SetBytes(int64(len(set)) * PageSize)
			var steps int64
			for b.Loop() {
				mod, err := ptxexec.Load(text)
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := decodeOnCPU(mod, cases); err != nil {
					b.Fatal(err)
				}
				steps = mod.Steps()
			}
			b.ReportMetric(float64(steps)/float64(len(set)), "warp-instr/page")
		})
	}
}

// Checks RT-17: a batch's chunks start at 1,024 pages and double up to
// DecodeChunk, and add up to the batch.
func TestDecodeChunks(t *testing.T) {
	for n, want := range map[int][]int{
		0: nil, 1: {1}, 1024: {1024}, 1025: {1024, 1}, 10000: {1024, 2048, 4096, 2832},
		40000: {1024, 2048, 4096, 8192, 8192, 8192, 8192, 64},
	} {
		if got := decodeChunks(n); !slices.Equal(got, want) {
			t.Errorf("decodeChunks(%d) = %v, want %v", n, got, want)
		}
	}
}
