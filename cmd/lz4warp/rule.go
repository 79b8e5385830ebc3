package main

import (
	"fmt"
	"io"
	"math"
	"math/big"

	"github.com/lz4warp/lz4warp"
)

// runRule prints the PCIe 5x rule of API-4 for one batch, step by step,
// and the verdict of lz4warp.MeetsPCIeRule (CLI-11).
func runRule(e *env, args []string) error {
	fs := newFlags(e, "rule", "")
	pages := fs.Int("pages", 10000, "pages in the batch")
	pcie := fs.Float64("pcie", 64, "PCIe bandwidth, GB/s (10⁹ bytes per second)")
	gpu := fs.Float64("gpu", 500, "GPU compression throughput, GB/s")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	printRule(e.stdout, *pages, *pcie, *gpu)
	return nil
}

func printRule(w io.Writer, pages int, pcie, gpu float64) {
	verdict := lz4warp.MeetsPCIeRule(pages, pcie, gpu)
	fmt.Fprintf(w, "PCIe 5x rule for %d pages, PCIe %g GB/s, GPU %g GB/s (CPU baseline %g GB/s)\n",
		pages, pcie, gpu, lz4warp.CPUBaselineGBps)
	if why := ruleInvalid(pages, pcie, gpu); why != "" {
		fmt.Fprintf(w, "  %s: the rule does not hold\n", why)
		fmt.Fprintf(w, "lz4warp.MeetsPCIeRule(%d, %g, %g) = %v\n", pages, pcie, gpu, verdict)
		return
	}
	d := float64(pages) * lz4warp.PageSize / 1e9
	cpu := d / lz4warp.CPUBaselineGBps
	transfer := 2 * d / pcie
	kernel := d / gpu
	gpuPath := transfer + kernel
	fmt.Fprintf(w, "  data       d = %d × 4096 B          = %.6g GB\n", pages, d)
	fmt.Fprintf(w, "  CPU path   d / %g GB/s              = %s\n", lz4warp.CPUBaselineGBps, ms(cpu))
	fmt.Fprintf(w, "  transfers  2d / %g GB/s             = %s  (to the GPU and back, uncompressed at worst)\n", pcie, ms(transfer))
	fmt.Fprintf(w, "  kernel     d / %g GB/s              = %s\n", gpu, ms(kernel))
	fmt.Fprintf(w, "  GPU path   transfers + kernel       = %s\n", ms(gpuPath))
	// The comparisons are printed as MeetsPCIeRule decides, on the exact
	// values (rationals, not rounded floats), with digits enough to show
	// the relation: 60 and 30 GB/s are exactly at the threshold ("=").
	cpuR, gpu5R, lhsR, rhsR := ruleTerms(pages, pcie, gpu)
	rel := [...]string{"<", "=", ">"}[cpuR.Cmp(gpu5R)+1]
	a, b := decimals(cpuR, gpu5R)
	fmt.Fprintf(w, "  rule       CPU path > 5 × GPU path:  %s ms %s %s ms\n", a, rel, b)
	a, b = decimals(lhsR, rhsR)
	fmt.Fprintf(w, "  d cancels: 1/%g > 10/%g + 5/%g  ⇔  %s %s %s\n",
		lz4warp.CPUBaselineGBps, pcie, gpu, a, rel, b)
	if verdict {
		fmt.Fprintln(w, "  verdict    holds: offloading to the GPU pays")
	} else {
		fmt.Fprintln(w, "  verdict    does not hold: the CPU is the better choice")
	}
	fmt.Fprintf(w, "lz4warp.MeetsPCIeRule(%d, %g, %g) = %v\n", pages, pcie, gpu, verdict)
}

// ruleTerms are the two comparisons of the rule, exactly: the CPU path and
// 5 × the GPU path in ms, and 1/3 and 10/pcie + 5/gpu. Both pairs compare
// as pcie·gpu and 15·(2·gpu + pcie) do, MeetsPCIeRule's exact test.
func ruleTerms(pages int, pcie, gpu float64) (cpu, gpu5, lhs, rhs *big.Rat) {
	p, g := new(big.Rat).SetFloat64(pcie), new(big.Rat).SetFloat64(gpu)
	bytes := new(big.Int).Mul(big.NewInt(int64(pages)), big.NewInt(lz4warp.PageSize))
	d := new(big.Rat).SetFrac(bytes, big.NewInt(1e9)) // GB
	base := big.NewRat(lz4warp.CPUBaselineGBps, 1)
	ms := big.NewRat(1000, 1)
	cpu = new(big.Rat).Quo(d, base)
	cpu.Mul(cpu, ms)
	gpu5 = new(big.Rat).Quo(new(big.Rat).Mul(big.NewRat(2, 1), d), p) // transfers
	gpu5.Add(gpu5, new(big.Rat).Quo(d, g))                            // + kernel
	gpu5.Mul(gpu5, big.NewRat(lz4warp.PCIeRuleFactor, 1))
	gpu5.Mul(gpu5, ms)
	lhs = new(big.Rat).Inv(base)
	rhs = new(big.Rat).Quo(big.NewRat(2*lz4warp.PCIeRuleFactor, 1), p)
	rhs.Add(rhs, new(big.Rat).Quo(big.NewRat(lz4warp.PCIeRuleFactor, 1), g))
	return cpu, gpu5, lhs, rhs
}

// decimals formats x and y with 6 decimals, or more (up to 30) where 6
// would show unequal values as equal.
func decimals(x, y *big.Rat) (string, string) {
	n := 6
	for x.Cmp(y) != 0 && n < 30 && x.FloatString(n) == y.FloatString(n) {
		n++
	}
	return x.FloatString(n), y.FloatString(n)
}

// ruleInvalid says why the rule's arguments give false whatever the rates.
func ruleInvalid(pages int, pcie, gpu float64) string {
	bad := func(x float64) bool { return !(x > 0) || math.IsInf(x, 1) }
	switch {
	case pages <= 0:
		return "the page count is not positive"
	case bad(pcie):
		return "the PCIe bandwidth is not a positive finite number"
	case bad(gpu):
		return "the GPU throughput is not a positive finite number"
	}
	return ""
}

func ms(seconds float64) string { return fmt.Sprintf("%.6f ms", seconds*1e3) }
