package conformance_test

import (
	"fmt"

	"github.com/lz4warp/lz4warp"
	"github.com/lz4warp/lz4warp/conformance"
	"github.com/lz4warp/lz4warp/reference"
)

// Check the CPU backend on a bulk corpus, as a device run checks the GPU.
func ExampleCheckSpecs() {
	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		panic(err)
	}
	defer c.Close()
	compress := func(pages []conformance.Page) ([]conformance.Output, error) {
		res, err := c.CompressBatch(pages)
		if err != nil {
			return nil, err
		}
		out := make([]conformance.Output, len(res.Pages))
		for i, p := range res.Pages {
			out[i] = conformance.Output{Kind: reference.Kind(p.Kind), Data: p.Data}
		}
		return out, nil
	}

	var tally conformance.Tally
	specs := conformance.Corpus(2400, 1)
	for lo := 0; lo < len(specs); lo += 600 {
		tally.Add(conformance.CheckSpecs(compress, specs[lo:lo+600]))
	}
	fmt.Println(tally.String())
	// Output:
	// conformance: pages checked 2400, mismatches 0
}

// A Spec names a page; the same Spec always gives the same page.
func ExampleSpec_Page() {
	s := conformance.Spec{Shape: conformance.SameFilled, Seed: 0x0102030405060708}
	p := s.Page()
	fmt.Println(s)
	fmt.Printf("% x\n", p[:16])
	// Output:
	// same-filled(seed 0x102030405060708, A 0, B 0)
	// 08 07 06 05 04 03 02 01 08 07 06 05 04 03 02 01
}

// The corpus cycles through every shape.
func ExampleCorpus() {
	for _, s := range conformance.Corpus(len(conformance.Shapes()), 7) {
		fmt.Print(s.Shape, " ")
	}
	fmt.Println()
	// Output:
	// zero same-filled almost-same text repetitive random sparse structured mixed near-raw tail-match long-literals
}

// A backend that gets one page wrong is caught, with the page and its spec.
func ExampleCheckPages() {
	specs := conformance.Corpus(12, 3)
	wrong := func(pages []conformance.Page) ([]conformance.Output, error) {
		out, err := conformance.Reference(pages)
		out[3].Data[0] ^= 0x10 // corrupt the text page's first token
		return out, err
	}
	checked, mismatches, first := conformance.CheckPages(wrong, conformance.Pages(specs))
	fmt.Println(checked, mismatches)
	fmt.Println(first)
	// Output:
	// 12 1
	// conformance: page 3: lz4 payload of 1812 bytes, reference 1812 bytes; first difference at byte 0
}
