//go:build amd64 && gc && !purego

package fastlz4

import (
	"testing"

	"pgregory.net/rapid"
)

// Checks PAGE-5: the assembly count of the raw-page proof agrees with
// the portable one, in its result and in the marks it leaves, whatever
// marks earlier pages left (at most gen, as certainlyRaw keeps them) and
// whatever the generation.
func TestCountFreshAsmMatchesGo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var page [PageSize]byte
		noise(page[:], rapid.Uint64().Draw(t, "seed"))
		if rapid.Bool().Draw(t, "repeats") {
			period := rapid.IntRange(1, 300).Draw(t, "period")
			from := rapid.IntRange(0, PageSize-1).Draw(t, "from")
			for i := max(from, period); i < PageSize; i++ {
				page[i] = page[i-period]
			}
		}
		gen := rapid.ByteRange(1, 255).Draw(t, "gen")
		var a, b [1 << seenBits]byte
		stale := rapid.SliceOfN(rapid.ByteRange(0, gen), 64, 64).Draw(t, "stale")
		for i := range a {
			a[i] = stale[(i*7+i>>6)%64]
		}
		b = a
		got, want := countFreshAsm(&a, &page, gen), countFreshGo(&b, &page, gen)
		if got != want {
			t.Fatalf("assembly counts %d, Go %d", got, want)
		}
		if a != b {
			t.Fatal("assembly and Go leave different marks")
		}
	})
}
