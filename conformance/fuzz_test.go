package conformance

import (
	"testing"

	"pgregory.net/rapid"
)

// FuzzCPUConformance lets the fuzzer drive the page generators: its bytes
// become rapid's choices, so coverage guides which shapes and parameters
// are tried. Each input is a batch checked on the CPU backend its size
// selects, and restored with DecompressBatch.
func FuzzCPUConformance(f *testing.F) { // Checks API-16, PARSE-8.
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 9, 1, 2, 3, 4, 5, 6, 7, 8})
	c := newCompressor(f)
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) {
		specs := Batch(1, 16).Draw(t, "specs")
		if _, _, first := CheckSpecs(compressorFunc(c, backendFor(len(specs))), specs); first != nil {
			t.Fatal(first)
		}
		if err := roundTrip(c, Pages(specs)); err != nil {
			t.Fatal(err)
		}
	}))
}
