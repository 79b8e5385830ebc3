//go:build amd64 && gc && !purego

package fastlz4

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/lz4warp/lz4warp/internal/dataset"
)

// Checks PARSE-1, PARSE-2, PARSE-3: the assembly chunk hasher enters the
// same positions in the table, finds the same candidates and verifies the
// same ones as hashChunkGo, from any table state whose entries precede
// the chunk.
func TestHashChunkAsmMatchesGo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(mfLimit, 5000).Draw(t, "n")
		src := make([]byte, n)
		fillRandom(t, src)
		last := n - mfLimit
		base := rapid.IntRange(0, last).Draw(t, "base")
		cnt := rapid.IntRange(1, min(64, last+1-base)).Draw(t, "cnt")
		var table hashTable
		for i := range table {
			if base > 0 && rapid.IntRange(0, 3).Draw(t, "fill") == 0 {
				table[i] = uint32(rapid.IntRange(0, base-1).Draw(t, "c1")) | uint32(rapid.IntRange(0, base-1).Draw(t, "c2"))<<16
			}
		}
		tableGo, tableAsm := table, table
		var candGo, candAsm [64]uint32
		s := bytesPointer(src)
		want := hashChunkGo(&tableGo, &candGo[0], s, base, cnt)
		got := hashChunk(&tableAsm, &candAsm, s, base, cnt)
		if got != want || candAsm != candGo || tableAsm != tableGo {
			t.Fatalf("base %d cnt %d: verified %#x, want %#x; candidates or table differ: %v", base, cnt, got, want, candAsm != candGo)
		}
	})
}

// Checks PARSE-8, PAGE-5: with Go in place of the assembly (CompressBlock's
// own loop, hashChunkGo and scan's own loop), which is what other CPUs
// run, pages of every data set and random blocks still give the
// reference's bytes.
func TestEncodeWithGoHashChunk(t *testing.T) {
	useAsm, useLoopAsm = false, false
	defer func() { useAsm, useLoopAsm = true, true }()
	encodeAll(t)
}

// Checks PARSE-8, PAGE-5: with the assembly chunk hasher and scan but Go's
// loop in place of encodeLoopAsm, the bytes are still the reference's; the
// other tests run encodeLoopAsm, which leaves to the Go loop only the
// steps it cannot take.
func TestEncodeWithoutLoopAsm(t *testing.T) {
	useLoopAsm = false
	defer func() { useLoopAsm = true }()
	encodeAll(t)
}

// Checks PARSE-8, PAGE-5: with encodeLoopAsm handing every sequence to the
// Go loop, after it hashed the chunk past the current one, and resuming
// with that chunk, the bytes are still the reference's.
func TestEncodeHandingEverySequence(t *testing.T) {
	handEverySequence = true
	defer func() { handEverySequence = false }()
	encodeAll(t)
}

// Checks PARSE-2, PARSE-3, PARSE-5: the assembly scan stops at the same
// position with the same candidate as the Go scan, and leaves the same
// table, from any table state whose entries precede the scan's start.
func TestScanAsmMatchesGo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(mfLimit, 5000).Draw(t, "n")
		src := make([]byte, n)
		fillRandom(t, src)
		last := n - mfLimit
		p := rapid.IntRange(1, last+1).Draw(t, "p")
		stop := rapid.IntRange(p, last+1).Draw(t, "stop")
		var table hashTable
		for i := range table {
			if rapid.IntRange(0, 3).Draw(t, "fill") == 0 {
				table[i] = uint32(rapid.IntRange(0, p-1).Draw(t, "c1")) | uint32(rapid.IntRange(0, p-1).Draw(t, "c2"))<<16
			}
		}
		tableGo, tableAsm := table, table
		s := bytesPointer(src)
		useAsm = false
		wq, wc := scan(&tableGo, s, p, stop)
		useAsm = true
		gq, gc := scan(&tableAsm, s, p, stop)
		if gq != wq || gc != wc || tableAsm != tableGo {
			t.Fatalf("p %d stop %d: asm stops at %d (entry %#x), Go at %d (%#x); tables differ: %v", p, stop, gq, gc, wq, wc, tableAsm != tableGo)
		}
	})
}

// encodeAll checks that pages of every data set and random blocks give
// the reference's bytes, also into every destination size (where the
// block stops fitting at each step of the loop in turn), and the shapes of
// the block tests: matches near the end, periodic runs, a repeat past the
// last visited position.
func encodeAll(t *testing.T) {
	var e Encoder
	for _, name := range dataset.Names() {
		pages, err := dataset.Load(name, testPages)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := range pages {
			encodeBoth(t, name, &pages[i])
		}
		if len(pages) > 0 {
			compareDstLens(t, &e, name+" page 0", pages[0][:])
		}
	}
	TestCompressBlockMatchesReferenceRapid(t)
	TestCompressBlockMatchesNearTheEnd(t)
	TestCompressBlockPeriodicRuns(t)
	TestCompressBlockStopsAtTheLastPosition(t)
}
