package ptxexec

import (
	"errors"
	"strings"
	"testing"

	"github.com/lz4warp/lz4warp/internal/ptx"
)

// Checks EXEC-2: what the executor does not understand fails at load time,
// naming the line.
func TestLoadErrors(t *testing.T) {
	good := oneLineKernel("mov.u32 %r0, 1;")
	if _, err := Load(good); err != nil {
		t.Fatalf("the base kernel does not load: %v", err)
	}
	cases := []struct {
		name, text, want string
		err              error
	}{
		{"unknown instruction", oneLineKernel("add.f32 %r0, %r1, %r2;"), "add.f32", ErrUnknownInstruction},
		{"unknown modifier", oneLineKernel("shfl.sync.down.b32 %r0, %r1, 1, 31, 0xffffffff;"), "shfl.sync.down.b32", ErrUnknownInstruction},
		{"undeclared register", oneLineKernel("mov.u32 %r8, 1;"), "%r8", ErrSyntax},
		{"wrong class", oneLineKernel("add.u32 %rd0, %r1, %r2;"), "wrong register class", ErrSyntax},
		{"64-bit source in a 32-bit op", oneLineKernel("add.u32 %r0, %rd1, %r2;"), "not a 32-bit register", ErrSyntax},
		{"immediate destination", oneLineKernel("add.u32 5, %r1, %r2;"), "not a register", ErrSyntax},
		{"immediate too wide", oneLineKernel("add.u32 %r0, %r1, 0x100000000;"), "does not fit", ErrSyntax},
		{"special outside mov", oneLineKernel("add.u32 %r0, %tid.x, 1;"), "special register", ErrSyntax},
		{"unknown special", oneLineKernel("mov.u32 %r0, %nctaid.y;"), "not a register", ErrSyntax},
		{"operand count", oneLineKernel("add.u32 %r0, %r1;"), "takes 3 operands", ErrSyntax},
		{"store of an immediate", oneLineKernel("st.shared.u32 [sm], 1;"), "immediate", ErrSyntax},
		{"unknown label", oneLineKernel("bra L9;"), "unknown label", ErrSyntax},
		{"unknown parameter", oneLineKernel("ld.param.u64 %rd0, [nope];"), "not a parameter", ErrSyntax},
		{"parameter offset", oneLineKernel("ld.param.u64 %rd0, [buf+8];"), "offset 0", ErrSyntax},
		{"shared variable in global", oneLineKernel("ld.global.u32 %r0, [sm];"), "shared variable", ErrSyntax},
		{"32-bit global address", oneLineKernel("ld.global.u32 %r0, [%r1];"), "holds a shared address, not a global one", ErrSyntax},
		{"32-bit global store address", oneLineKernel("st.global.u8 [%r1+4], %r0;"), "not a global one", ErrSyntax},
		{"32-bit generic address", oneLineKernel("ld.u32 %r0, [%r1];"), "not a generic one", ErrSyntax},
		{"32-bit atomic address", oneLineKernel("atom.global.inc.u32 %r0, [%r1], 4;"), "not a global one", ErrSyntax},
		{"32-bit parameter address", oneLineKernel("ld.param.u64 %rd0, [%r1];"), "not a parameter", ErrSyntax},
		{"predicate address", oneLineKernel("ld.shared.u32 %r0, [%p1];"), "not a 64-bit register", ErrSyntax},
		{"parameter in mov.u32", oneLineKernel("mov.u32 %r0, buf;"), "not a register", ErrSyntax},
		{"missing semicolon", oneLineKernel("mov.u32 %r0, 1"), "without ;", ErrSyntax},
		{"unknown directive", oneLineKernel(".local .b8 x[4];"), "unknown directive", ErrSyntax},
		{"negated guard source", oneLineKernel("and.pred %p0, !%p1, %p2;"), "negated", ErrSyntax},
		{"no header", strings.Replace(good, ".target sm_90\n", "", 1), "header", ErrSyntax},
		{"falls off the end", strings.Replace(good, "\tret;\n", "", 1), "does not end", ErrSyntax},
		{"guarded last ret", strings.Replace(good, "\tret;\n", "\t@%p0 ret;\n", 1), "does not end", ErrSyntax},
		{"label at the end", strings.Replace(good, "\tret;\n", "\tret;\nEND:\n", 1), "no instruction after it", ErrSyntax},
		{"label twice", strings.Replace(good, "\tret;\n", "A:\nA:\n\tret;\n", 1), "placed twice", ErrSyntax},
		{"unclosed entry", strings.Replace(good, "}\n", "", 1), "no closing", ErrSyntax},
		{"bad register declaration", strings.Replace(good, "%r<8>", "%q<8>", 1), "expected %r", ErrSyntax},
		{"empty", "", "no .visible .entry", ErrSyntax},
	}
	for _, c := range cases {
		_, err := Load(c.text)
		if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %v mentioning %q", c.name, err, c.err, c.want)
		}
	}
	_, err := Load(oneLineKernel("add.f32 %r0, %r1, %r2;"))
	if !strings.Contains(err.Error(), "line 14") {
		t.Errorf("the error does not name the line: %v", err)
	}
}

// Checks EXEC-1 and EXEC-3: a module the builder writes loads with its
// kernels, parameters and shared layout.
func TestLoadBuilderModule(t *testing.T) {
	m := ptx.NewModule(80)
	k := m.Entry("first", "a", "b")
	s1 := k.Shared("one", 3, 1)
	k.Shared("two", 64, 16)
	r := k.NewReg64()
	k.Mov(r, s1)
	k.Ret()
	m.Entry("second").Ret()
	mod, err := Load(m.String())
	if err != nil {
		t.Fatal(err)
	}
	if got := mod.Kernels(); len(got) != 2 || got[0] != "first" || got[1] != "second" {
		t.Errorf("kernels %v", got)
	}
	if p := mod.Params("first"); len(p) != 2 || p[1] != "b" {
		t.Errorf("params %v", p)
	}
	if got := mod.SharedBytes("first"); got != 16+64 {
		t.Errorf("shared layout: %d bytes, want 80 (the second array aligned to 16)", got)
	}
	if mod.Target() != "sm_80" {
		t.Errorf("target %q", mod.Target())
	}
}

// FuzzLoad checks that any text loads or fails with an error, never a panic,
// and that a loaded module runs or faults.
func FuzzLoad(f *testing.F) {
	f.Add(oneLineKernel("mov.u32 %r0, 1;"))
	f.Add(entry([]string{"in", "out"}, 64, body(prologue, []string{"L:", "add.u64 %rd3, %rd1, %rd2;", "st.global.u32 [%rd3], %r0;", "@%p0 bra L;", "ret;"})...))
	f.Fuzz(func(t *testing.T, text string) {
		m, err := Load(text)
		if err != nil {
			return
		}
		m.StepLimit = 10000
		m.Workers = 1 // the blocks of a random program may race on global memory
		for _, k := range m.Kernels() {
			mem := NewMemory()
			params := make([]uint64, len(m.Params(k)))
			for i := range params {
				params[i] = mem.Alloc(256)
			}
			// A launch the kernel's own declarations refuse is an error of
			// the launch; anything else that fails must be a fault.
			err := m.Launch(k, 2, 64, params, mem)
			var fault *Fault
			if err != nil && !errors.As(err, &fault) && !errors.Is(err, ErrLaunch) {
				t.Fatalf("kernel %s: neither a fault nor a refused launch: %v", k, err)
			}
		}
	})
}
