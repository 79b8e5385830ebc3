//go:build amd64 && gc && !purego

package fastlz4

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/lz4warp/lz4warp/internal/dataset"
)

// Checks PARSE-1, PARSE-2, PARSE-3: the assembly chunk hasher enters the
// same positions in the table and the links, and verifies the same ones,
// as hashChunkGo, from any table state whose entries precede the chunk.
func TestHashChunkAsmMatchesGo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(mfLimit, 5000).Draw(t, "n")
		src := make([]byte, n)
		fillRandom(t, src)
		last := n - mfLimit
		base := rapid.IntRange(0, last).Draw(t, "base")
		cnt := rapid.IntRange(1, min(64, last+1-base)).Draw(t, "cnt")
		table, link := randomTable(t, n, base)
		tableGo, tableAsm := table, table
		linkGo, linkAsm := slices.Clone(link), slices.Clone(link)
		s := bytesPointer(src)
		want := hashChunkGo(&tableGo, linkGo, s, base, cnt)
		got := hashChunk(&tableAsm, linkAsm, s, base, cnt)
		if got != want || !slices.Equal(linkAsm, linkGo) || tableAsm != tableGo {
			t.Fatalf("base %d cnt %d: verified %#x, want %#x; links differ: %v, tables differ: %v",
				base, cnt, got, want, !slices.Equal(linkAsm, linkGo), tableAsm != tableGo)
		}
	})
}

// randomTable returns a table and links for a block of n bytes in a state
// the positions before p could have left: entries and links of positions
// before p, each link before its position (0 where there is none).
func randomTable(t *rapid.T, n, p int) (hashTable, []uint16) {
	var table hashTable
	link := make([]uint16, n)
	if p == 0 {
		return table, link
	}
	for i := range table {
		if rapid.IntRange(0, 3).Draw(t, "fill") == 0 {
			table[i] = uint16(rapid.IntRange(0, p-1).Draw(t, "c1"))
		}
	}
	for q := 1; q < p; q++ {
		link[q] = uint16(rapid.IntRange(0, q-1).Draw(t, "link"))
	}
	return table, link
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
// position as the Go scan, and leaves the same table and links, from any
// table state whose entries precede the scan's start.
func TestScanAsmMatchesGo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(mfLimit, 5000).Draw(t, "n")
		src := make([]byte, n)
		fillRandom(t, src)
		last := n - mfLimit
		p := rapid.IntRange(1, last+1).Draw(t, "p")
		stop := rapid.IntRange(p, last+1).Draw(t, "stop")
		table, link := randomTable(t, n, p)
		tableGo, tableAsm := table, table
		linkGo, linkAsm := slices.Clone(link), slices.Clone(link)
		s := bytesPointer(src)
		useAsm = false
		want := scan(&tableGo, linkGo, s, p, stop)
		useAsm = true
		got := scan(&tableAsm, linkAsm, s, p, stop)
		if got != want || !slices.Equal(linkAsm, linkGo) || tableAsm != tableGo {
			t.Fatalf("p %d stop %d: asm stops at %d, Go at %d; links differ: %v, tables differ: %v",
				p, stop, got, want, !slices.Equal(linkAsm, linkGo), tableAsm != tableGo)
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
