// Command ptxcheck assembles every kernel for every PTX target with ptxas,
// prints the resource table and exits 1 when a figure breaks the budgets of
// spec/gpu.md GPU-6. `make ptx-check` runs it.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/lz4warp/lz4warp/gpuimpl"
	"github.com/lz4warp/lz4warp/internal/ptxas"
)

// GPU-6's register budget.
const maxRegisters = 128

// kernel is one entry point: the module text holding it for a target and
// the static shared memory GPU-6 gives it, and its register budget where it
// has one of its own (maxRegisters otherwise).
type kernel struct {
	name      string
	text      func(sm int) string
	shared    int
	registers int
}

var kernels = []kernel{
	{gpuimpl.KernelName, gpuimpl.KernelPTX, gpuimpl.SharedPerBlock, 0},
	{gpuimpl.StreamKernelName, gpuimpl.KernelPTX, gpuimpl.SharedPerBlock, 0},
	{gpuimpl.OffsetsName, gpuimpl.GatherPTX, gpuimpl.OffsetsShared, 0},
	{gpuimpl.GatherName, gpuimpl.GatherPTX, 0, 0},
	{gpuimpl.DecodeKernelName, gpuimpl.DecodePTX, gpuimpl.DecodeShared, gpuimpl.DecodeMaxRegisters},
}

var targets = []int{70, 75, 80, 86, 89, 90}

func main() {
	path, err := ptxas.Path()
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptxcheck:", err)
		os.Exit(2)
	}
	if !check(os.Stdout, path, kernels) {
		os.Exit(1)
	}
}

// check prints the table for the kernels and reports whether every one is
// within the budgets on every target.
func check(w io.Writer, path string, kernels []kernel) bool {
	ok := true
	fmt.Fprintf(w, "%-20s %-7s %-10s %9s %10s %11s %11s %s\n", "kernel", "target", "registers", "smem", "stack", "spill st", "spill ld", "verdict")
	for _, k := range kernels {
		for _, sm := range targets {
			rep, err := ptxas.Assemble(context.Background(), path, k.text(sm), sm)
			if err != nil {
				fmt.Fprintf(w, "%-20s sm_%d   %v\n", k.name, sm, err)
				ok = false
				continue
			}
			r, found := rep.Kernel(k.name)
			if !found {
				fmt.Fprintf(w, "%-20s sm_%d   not in the report\n", k.name, sm)
				ok = false
				continue
			}
			verdict := "ok"
			budget := maxRegisters
			if k.registers > 0 {
				budget = k.registers
			}
			if r.Registers > budget || r.SharedBytes != k.shared || r.StackFrame != 0 || r.SpillStores != 0 || r.SpillLoads != 0 {
				verdict = fmt.Sprintf("OVER BUDGET (registers <= %d, smem == %d, no stack, no spills)", budget, k.shared)
				ok = false
			}
			fmt.Fprintf(w, "%-20s %-7s %-10d %9d %10d %11d %11d %s\n", k.name, r.Arch, r.Registers, r.SharedBytes, r.StackFrame, r.SpillStores, r.SpillLoads, verdict)
		}
	}
	return ok
}
