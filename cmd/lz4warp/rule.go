package main

import (
	"fmt"
	"io"
	"math"

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
	rel := ">"
	if !(cpu > lz4warp.PCIeRuleFactor*gpuPath) {
		rel = "≤"
	}
	fmt.Fprintf(w, "  rule       CPU path > 5 × GPU path:  %s %s %s\n", ms(cpu), rel, ms(lz4warp.PCIeRuleFactor*gpuPath))
	fmt.Fprintf(w, "  d cancels: 1/%g > 10/%g + 5/%g  ⇔  %.6f %s %.6f\n",
		lz4warp.CPUBaselineGBps, pcie, gpu, 1/lz4warp.CPUBaselineGBps, rel, 10/pcie+5/gpu)
	if verdict {
		fmt.Fprintln(w, "  verdict    holds: offloading to the GPU pays")
	} else {
		fmt.Fprintln(w, "  verdict    does not hold: the CPU is the better choice")
	}
	fmt.Fprintf(w, "lz4warp.MeetsPCIeRule(%d, %g, %g) = %v\n", pages, pcie, gpu, verdict)
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
