package gpuimpl

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lz4warp/lz4warp/internal/golden"
	"github.com/lz4warp/lz4warp/internal/ptxas"
	"github.com/lz4warp/lz4warp/reference"
)

// Targets lists the architectures of GPU-2.
var Targets = []int{70, 75, 80, 86, 89, 90}

// Resource budgets of GPU-6.
const (
	maxRegisters = 128
)

// Checks GPU-3: the kernel text is fixed by golden files, one per target.
func TestKernelGolden(t *testing.T) {
	for _, sm := range Targets {
		golden.Check(t, filepath.Join("testdata", fmt.Sprintf("lz4warp_pages_sm%d.ptx", sm)), []byte(KernelPTX(sm)))
	}
}

// Checks GPU-3: two calls give the same text.
func TestKernelDeterministic(t *testing.T) {
	for _, sm := range Targets {
		if first, second := KernelPTX(sm), KernelPTX(sm); first != second {
			t.Fatalf("sm_%d: KernelPTX differs between calls", sm)
		}
	}
}

// Checks GPU-5 and GPU-11: the page kernels and the decode kernel address
// shared memory through 32-bit registers only, never a 64-bit one.
func TestSharedAddresses32Bit(t *testing.T) {
	for _, k := range []struct {
		name string
		text func(int) string
	}{{"page kernels", KernelPTX}, {"decode kernel", DecodePTX}} {
		for _, sm := range Targets {
			shared := 0
			for line := range strings.Lines(k.text(sm)) {
				op, _, _ := strings.Cut(strings.TrimLeft(line, "\t@!%p0123456789 "), " ")
				if !strings.HasPrefix(op, "ld.shared.") && !strings.HasPrefix(op, "st.shared.") && !strings.HasPrefix(op, "st.relaxed.cta.shared.") {
					continue
				}
				shared++
				if !strings.Contains(line, "[%r") || strings.Contains(line, "[%rd") {
					t.Errorf("%s, sm_%d: a shared access not through a 32-bit register: %s", k.name, sm, strings.TrimSpace(line))
				}
			}
			if shared == 0 {
				t.Errorf("%s, sm_%d: no shared access found", k.name, sm)
			}
		}
	}
}

// Checks GPU-1, GPU-2 and GPU-9: both entry points, their parameters and
// the target.
func TestKernelInterface(t *testing.T) {
	for _, sm := range Targets {
		text := KernelPTX(sm)
		header := fmt.Sprintf(".target sm_%d\n", sm) + ".address_size 64\n\n"
		if !strings.Contains(text, header) {
			t.Errorf("sm_%d: the text lacks the contract's header %q", sm, header)
		}
		for _, name := range []string{KernelName, StreamKernelName} {
			want := ".visible .entry " + name +
				"(\n\t.param .u64 src,\n\t.param .u64 dst,\n\t.param .u64 meta,\n\t.param .u64 npages,\n\t.param .u64 hostDst,\n\t.param .u64 recs,\n\t.param .u64 sched\n)\n"
			if !strings.Contains(text, want) {
				t.Errorf("sm_%d: the text lacks the contract's entry:\n%s", sm, want)
			}
		}
		if n := strings.Count(text, fmt.Sprintf(".shared .align 16 .b8 smem[%d];", SharedPerBlock)); n != 2 {
			t.Errorf("sm_%d: %d static shared arrays of 48 KiB, want one per entry", sm, n)
		}
	}
	if SharedPerBlock != 48*1024 || PagesPerBlock != 4 || OutSlot != 3072 || ThreadsPerBlock != 128 || RecSlot != 8192 || SchedBytes != 4 {
		t.Errorf("constants differ from GPU-1/GPU-5")
	}
	// A page has at most one sequence per 4 positions from position 1 to the
	// last a match may start at (PARSE-4, PARSE-6), and each takes a record.
	if most := (lastPos-1)/reference.MinMatch + 1; RecSlot < most*recBytes {
		t.Errorf("RecSlot %d holds fewer than the %d records a page may have", RecSlot, most)
	}
}

// assembleTargets assembles text(sm) with ptxas for every target and
// returns the resources of its entry point name, or skips the test where
// ptxas is missing.
func assembleTargets(t *testing.T, text func(sm int) string, name string) []ptxas.Resources {
	t.Helper()
	path := ptxas.Require(t)
	var out []ptxas.Resources
	for _, sm := range Targets {
		rep, err := ptxas.Assemble(context.Background(), path, text(sm), sm)
		if err != nil {
			t.Fatal(err)
		}
		r, ok := rep.Kernel(name)
		if !ok {
			t.Fatalf("sm_%d: ptxas reported no %s:\n%s", sm, name, rep.Log)
		}
		t.Logf("%s %s: %d registers, %d bytes smem, %d stack, %d/%d spill stores/loads",
			name, r.Arch, r.Registers, r.SharedBytes, r.StackFrame, r.SpillStores, r.SpillLoads)
		out = append(out, r)
	}
	return out
}

// Checks GPU-2 and GPU-6: both entry points assemble for every target within
// their register, spill, stack and shared-memory budgets.
func TestKernelResources(t *testing.T) {
	for _, name := range []string{KernelName, StreamKernelName} {
		for _, r := range assembleTargets(t, KernelPTX, name) {
			if r.Registers > maxRegisters {
				t.Errorf("%s %s: %d registers, budget %d", name, r.Arch, r.Registers, maxRegisters)
			}
			if r.SpillStores != 0 || r.SpillLoads != 0 || r.StackFrame != 0 {
				t.Errorf("%s %s: spills or stack: %+v", name, r.Arch, r)
			}
			if r.SharedBytes != SharedPerBlock {
				t.Errorf("%s %s: %d bytes of shared memory, want %d", name, r.Arch, r.SharedBytes, SharedPerBlock)
			}
		}
	}
}

// Checks GPU-10: a launch has as many blocks as its pages need, and no
// more than the device holds at once.
func TestGrid(t *testing.T) {
	for _, c := range []struct{ pages, resident, want int }{
		{1, 528, 1}, {4, 528, 1}, {5, 528, 2}, {1000, 528, 250}, {2112, 528, 528}, {2113, 528, 528},
		{100000, 528, 528}, {100000, 0, 25000}, {9, -1, 3}, {0, 528, 0},
	} {
		if got := Grid(c.pages, c.resident); got != c.want {
			t.Errorf("Grid(%d, %d) = %d, want %d", c.pages, c.resident, got, c.want)
		}
	}
}
