package ptxas

import (
	"context"
	"errors"
	"testing"
)

const sampleLog = `ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'lz4warp_pages' for 'sm_90'
ptxas info    : Function properties for lz4warp_pages
    8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 40 registers, 49152 bytes smem, 384 bytes cmem[0]
ptxas info    : Compiling entry function 'other' for 'sm_90'
ptxas info    : Function properties for other
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 8 registers
`

func TestParseVerbose(t *testing.T) {
	rep, err := ParseVerbose(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	want := []Resources{
		{Kernel: "lz4warp_pages", Arch: "sm_90", Registers: 40, SharedBytes: 49152, StackFrame: 8,
			SpillStores: 4, SpillLoads: 12, ConstantUsed: "384 bytes cmem[0]"},
		{Kernel: "other", Arch: "sm_90", Registers: 8},
	}
	if len(rep.Kernels) != len(want) {
		t.Fatalf("got %d kernels, want %d", len(rep.Kernels), len(want))
	}
	for i := range want {
		if rep.Kernels[i] != want[i] {
			t.Errorf("kernel %d: got %+v, want %+v", i, rep.Kernels[i], want[i])
		}
	}
	if r, ok := rep.Kernel("other"); !ok || r.Registers != 8 {
		t.Errorf("Kernel(other) = %+v, %v", r, ok)
	}
	// CUDA 12's ptxas names the barriers before the shared memory.
	newer := "ptxas info    : Compiling entry function 'k' for 'sm_90'\n" +
		"ptxas info    : Used 25 registers, used 1 barriers, 132 bytes smem, 400 bytes cmem[0]\n"
	if rep, err := ParseVerbose(newer); err != nil || rep.Kernels[0] != (Resources{Kernel: "k", Arch: "sm_90",
		Registers: 25, SharedBytes: 132, ConstantUsed: "400 bytes cmem[0]"}) {
		t.Errorf("a report that names barriers: %+v, %v", rep.Kernels, err)
	}
	if _, err := ParseVerbose("ptxas info    : 0 bytes gmem\n"); err == nil {
		t.Error("a log without kernels parsed")
	}
}

func TestAssembleRejects(t *testing.T) {
	path, err := Path()
	if errors.Is(err, ErrNotFound) {
		t.Skipf("skipping: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	_, err = Assemble(context.Background(), path, ".version 7.0\n.target sm_70\n.address_size 64\nnonsense\n", 70)
	if !errors.Is(err, ErrAssemble) {
		t.Fatalf("bad PTX: got %v, want ErrAssemble", err)
	}
}

func TestPathFromEnv(t *testing.T) {
	t.Setenv("PTXAS", "/nonexistent/ptxas")
	if _, err := Path(); !errors.Is(err, ErrNotFound) {
		t.Fatalf("got %v, want ErrNotFound", err)
	}
}

// recorder notes what Require asks of its test.
type recorder struct {
	testing.TB
	fatal, skipped bool
}

func (r *recorder) Helper()                        {}
func (r *recorder) Fatalf(format string, a ...any) { r.fatal = true }
func (r *recorder) Skipf(format string, a ...any)  { r.skipped = true }

// Checks GPU-2: without ptxas the assembly checks skip, except under
// CI=true, where they fail.
func TestRequireMissing(t *testing.T) {
	t.Setenv("PTXAS", t.TempDir()+"/no-ptxas")
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		r := &recorder{TB: t}
		if got := Require(r); got != "" || r.fatal != (ci == "true") || r.skipped != (ci != "true") {
			t.Errorf("CI=%q: path %q, fatal %v, skipped %v", ci, got, r.fatal, r.skipped)
		}
	}
}
