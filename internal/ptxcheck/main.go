// Command ptxcheck assembles the page kernel for every PTX target with
// ptxas, prints the resource table and exits 1 when a figure breaks the
// budgets of spec/gpu.md GPU-6. `make ptx-check` runs it.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/lz4warp/lz4warp/gpuimpl"
	"github.com/lz4warp/lz4warp/internal/ptxas"
)

// GPU-6's budgets.
const (
	maxRegisters = 64
	sharedBytes  = gpuimpl.SharedPerBlock
)

var targets = []int{70, 75, 80, 86, 89, 90}

func main() {
	path, err := ptxas.Path()
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptxcheck:", err)
		os.Exit(2)
	}
	if !check(os.Stdout, path, gpuimpl.KernelPTX) {
		os.Exit(1)
	}
}

// check prints the table for the kernel text that ptxFor gives for each
// target and reports whether every target is within the budgets.
func check(w io.Writer, path string, ptxFor func(sm int) string) bool {
	ok := true
	fmt.Fprintf(w, "%-7s %-10s %9s %10s %11s %11s %s\n", "target", "registers", "smem", "stack", "spill st", "spill ld", "verdict")
	for _, sm := range targets {
		rep, err := ptxas.Assemble(context.Background(), path, ptxFor(sm), sm)
		if err != nil {
			fmt.Fprintf(w, "sm_%d   %v\n", sm, err)
			ok = false
			continue
		}
		r, found := rep.Kernel(gpuimpl.KernelName)
		if !found {
			fmt.Fprintf(w, "sm_%d   no %s in the report\n", sm, gpuimpl.KernelName)
			ok = false
			continue
		}
		verdict := "ok"
		if r.Registers > maxRegisters || r.SharedBytes != sharedBytes || r.StackFrame != 0 || r.SpillStores != 0 || r.SpillLoads != 0 {
			verdict = fmt.Sprintf("OVER BUDGET (registers <= %d, smem == %d, no stack, no spills)", maxRegisters, sharedBytes)
			ok = false
		}
		fmt.Fprintf(w, "%-7s %-10d %9d %10d %11d %11d %s\n", r.Arch, r.Registers, r.SharedBytes, r.StackFrame, r.SpillStores, r.SpillLoads, verdict)
	}
	return ok
}
