package conformance

import (
	"errors"
	"testing"

	"github.com/lz4warp/lz4warp"
	"github.com/lz4warp/lz4warp/reference"
)

// CheckPages must catch every way a backend can be wrong.
func TestCheckPagesCatchesMismatches(t *testing.T) { // Checks API-16.
	specs := []Spec{{Shape: Zero}, {Shape: Text, Seed: 3, A: 20}, {Shape: Random, Seed: 4}, {Shape: Structured, Seed: 5, A: 16}}
	pages := Pages(specs)
	good, _ := Reference(pages)
	checked, mismatches, first := CheckPages(Reference, pages)
	if checked != 4 || mismatches != 0 || first != nil {
		t.Fatalf("the reference against itself: %d checked, %d mismatches, %v", checked, mismatches, first)
	}
	tamper := func(edit func(out []Output)) CompressFunc {
		return func([]Page) ([]Output, error) {
			out := make([]Output, len(good))
			for i, o := range good {
				out[i] = Output{Kind: o.Kind, Data: append([]byte(nil), o.Data...)}
			}
			edit(out)
			return out, nil
		}
	}
	cases := []struct {
		name  string
		fn    CompressFunc
		index int
	}{
		{"wrong kind", tamper(func(o []Output) { o[1].Kind = reference.KindRaw }), 1},
		{"flipped payload byte", tamper(func(o []Output) { o[3].Data[len(o[3].Data)/2] ^= 1 }), 3},
		{"raw instead of LZ4", tamper(func(o []Output) { o[1] = Output{Kind: reference.KindRaw, Data: pages[1][:]} }), 1},
		{"other fill word", tamper(func(o []Output) { o[0].Data[0] = 1 }), 0},
		{"truncated raw", tamper(func(o []Output) { o[2].Data = o[2].Data[:100] }), 2},
		{"a valid but different parse", tamper(func(o []Output) {
			// Literals only: valid LZ4 that decodes to the page, yet not
			// the canonical block.
			lit := pageSize - 15
			b := []byte{0xf0}
			for ; lit >= 255; lit -= 255 {
				b = append(b, 255)
			}
			o[1].Data = append(append(b, byte(lit)), pages[1][:]...)
		}), 1},
	}
	for _, c := range cases {
		checked, mismatches, first := CheckSpecs(c.fn, specs)
		var m *Mismatch
		if checked != 4 || mismatches != 1 || !errors.As(first, &m) || m.Index != c.index || m.Spec == nil || *m.Spec != specs[c.index] {
			t.Errorf("%s: %d checked, %d mismatches, %v", c.name, checked, mismatches, first)
		}
	}

	boom := errors.New("device lost")
	_, mismatches, first = CheckPages(func([]Page) ([]Output, error) { return nil, boom }, pages)
	if mismatches != 4 || !errors.Is(first, boom) {
		t.Errorf("a failing backend: %d mismatches, %v", mismatches, first)
	}
	_, mismatches, _ = CheckPages(func([]Page) ([]Output, error) { return good[:3], nil }, pages)
	if mismatches != 4 {
		t.Errorf("a missing output: %d mismatches", mismatches)
	}
}

// compressorFunc refuses a batch that ran on another backend.
func TestCompressorFuncRefusesOtherBackends(t *testing.T) { // Checks API-3.
	c := newCompressor(t)
	pages := Pages(Corpus(5, 9))
	if _, _, err := CheckPages(compressorFunc(c, lz4warp.BackendScalar), pages); err == nil {
		t.Error("5 pages ran on the scalar backend")
	}
	if _, mismatches, err := CheckPages(compressorFunc(c, lz4warp.BackendSIMD), pages); err != nil || mismatches != 0 {
		t.Errorf("5 pages on SIMD: %d mismatches, %v", mismatches, err)
	}
}
