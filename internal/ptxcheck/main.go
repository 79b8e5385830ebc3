// Command ptxcheck assembles the page kernel for every PTX target with
// ptxas, prints the resource table and exits 1 when a figure breaks the
// budgets of spec/gpu.md GPU-6. `make ptx-check` runs it.
package main

import (
	"context"
	"fmt"
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
	failed := false
	fmt.Printf("%-7s %-10s %9s %10s %11s %11s %s\n", "target", "registers", "smem", "stack", "spill st", "spill ld", "verdict")
	for _, sm := range targets {
		rep, err := ptxas.Assemble(context.Background(), path, gpuimpl.KernelPTX(sm), sm)
		if err != nil {
			fmt.Printf("sm_%d   %v\n", sm, err)
			failed = true
			continue
		}
		r, ok := rep.Kernel(gpuimpl.KernelName)
		if !ok {
			fmt.Printf("sm_%d   no %s in the report\n", sm, gpuimpl.KernelName)
			failed = true
			continue
		}
		verdict := "ok"
		if r.Registers > maxRegisters || r.SharedBytes != sharedBytes || r.StackFrame != 0 || r.SpillStores != 0 || r.SpillLoads != 0 {
			verdict = fmt.Sprintf("OVER BUDGET (registers <= %d, smem == %d, no stack, no spills)", maxRegisters, sharedBytes)
			failed = true
		}
		fmt.Printf("%-7s %-10d %9d %10d %11d %11d %s\n", r.Arch, r.Registers, r.SharedBytes, r.StackFrame, r.SpillStores, r.SpillLoads, verdict)
	}
	if failed {
		os.Exit(1)
	}
}
