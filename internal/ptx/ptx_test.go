package ptx

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lz4warp/lz4warp/internal/golden"

	"github.com/lz4warp/lz4warp/internal/ptxas"
)

// Targets every supported architecture (GPU-2).
var targets = []int{70, 75, 80, 86, 89, 90}

// copyKernel copies n 32-bit words, one per thread: the smallest complete
// kernel, with a bounds check, a guard and address arithmetic.
func copyKernel(sm int) *Module {
	m := NewModule(sm)
	k := m.Entry("copy_words", "src", "dst", "n")
	src, dst, n := k.NewReg64(), k.NewReg64(), k.NewReg64()
	k.Emit("ld.param.u64", src, k.Param("src"))
	k.Emit("ld.param.u64", dst, k.Param("dst"))
	k.Emit("ld.param.u64", n, k.Param("n"))
	k.CvtaGlobal(src, src)
	k.CvtaGlobal(dst, dst)
	tid, ntid, ctaid, i := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.Mov(tid, TidX)
	k.Mov(ntid, NtidX)
	k.Mov(ctaid, CtaidX)
	k.Mad(i, ctaid, ntid, tid)
	k.Note("global thread index")
	i64, off := k.NewReg64(), k.NewReg64()
	k.Cvt64(i64, i)
	out := k.NewPred()
	k.SetpU64(GE, out, i64, n)
	done := k.NewLabel("done")
	k.If(out).BraUni(done)
	k.MulWide(off, i, Imm(4))
	k.Add(src, src, off)
	k.Add(dst, dst, off)
	w := k.NewReg32()
	k.Ld(Global, "u32", w, At(src, 0))
	k.St(Global, "u32", At(dst, 0), w)
	k.Place(done)
	k.Ret()
	return m
}

// formsKernel uses every instruction form of Opcodes() at least once, so that
// ptxas checks the spelling of each and an executor can run them all.
func formsKernel(sm int) *Module {
	m := NewModule(sm)
	k := m.Entry("all_forms", "buf")
	k.Comment("every instruction form the builder knows")
	smem := k.Shared("scratch", 64, 16)
	buf, sh, wide := k.NewReg64(), k.NewReg64(), k.NewReg64()
	k.Emit("ld.param.u64", buf, k.Param("buf"))
	k.CvtaGlobal(buf, buf)
	k.Mov(sh, smem)
	a, b, c, d := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.Mov(a, LaneID)
	k.Mov(b, Hex(0x9e3779b1))
	k.Mov(c, Imm(-7))
	p, q, r := k.NewPred(), k.NewPred(), k.NewPred()
	k.AndPred(q, p, p)
	k.OrPred(r, q, p)
	k.NotPred(r, r)
	k.Add(d, a, b)
	k.Sub(d, d, c)
	k.Mul(d, d, b)
	k.Mad(d, d, a, Imm(5))
	k.MulWide(wide, d, b)
	k.Add(wide, wide, Imm(1))
	k.Cvt32(c, wide)
	k.Cvt64(wide, c)
	for _, op := range Opcodes() {
		if !strings.HasPrefix(op, "setp.") {
			continue
		}
		if strings.HasSuffix(op, ".u64") {
			k.Emit(op, p, wide, Imm(3))
		} else {
			k.Emit(op, p, a, c)
		}
	}
	k.Shl(d, d, a)
	k.Shr(d, d, Imm(3))
	k.And(d, d, b)
	k.Or(d, d, Hex(0x10))
	k.Xor(d, d, c)
	k.Not(d, d)
	k.Neg(d, d)
	k.MinU(d, d, a)
	k.MaxU(d, d, Imm(2))
	k.MinS(d, d, c)
	k.MaxS(d, d, Imm(-2))
	k.Selp(d, d, Imm(9), r)
	k.ShfR(d, d, b, a)
	k.Bfind(c, d)
	k.BfindShiftAmt(c, d)
	k.Brev(c, c)
	k.Clz(c, c)
	k.Popc(c, c)
	v := Vec4{k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()}
	k.LdV4(Global, v, At(buf, 16))
	k.StV4(Shared, At(sh, 16), v)
	k.LdV4(Shared, v, At(sh, 16))
	k.StV4(Global, At(buf, 32), v)
	k.Ld(Global, "u8", a, At(buf, 1))
	k.Ld(Global, "u32", b, At(buf, 4))
	k.Ld(Shared, "u8", c, At(sh, 3))
	k.Ld(Shared, "u16", c, At(sh, 2))
	k.Ld(Shared, "u32", c, AtSym(smem, 4))
	k.St(Shared, "u8", At(sh, 0), a)
	k.St(Shared, "u16", At(sh, 2), b)
	k.StAnyLane("u16", At(sh, 2), b)
	k.StAnyLane("u32", At(sh, 4), b)
	k.St(Shared, "u32", At(sh, 4), c)
	sh32 := k.NewReg32()
	k.Mov(sh32, smem)
	k.Note("shared addresses in a 32-bit register")
	k.StV4(Shared, At(sh32, 32), v)
	k.LdV4(Shared, v, At(sh32, 32))
	k.Ld(Shared, "u8", c, At(sh32, 5))
	k.Ld(Shared, "u16", c, At(sh32, 6))
	k.Ld(Shared, "u32", c, At(sh32, 8))
	k.St(Shared, "u8", At(sh32, 1), a)
	k.St(Shared, "u16", At(sh32, 6), b)
	k.StAnyLane("u16", At(sh32, 6), b)
	k.StAnyLane("u32", At(sh32, 8), b)
	k.St(Shared, "u32", At(sh32, 8), c)
	k.WarpSync(FullMask)
	k.MembarSys()
	k.BarSync(Imm(0))
	gen := k.NewReg64()
	k.CvtaShared(gen, smem)
	k.CvtaShared(gen, sh)
	k.Ld(Generic, "u32", b, At(gen, 8))
	k.St(Generic, "u32", At(gen, 12), b)
	k.MatchAny(d, c, FullMask)
	k.Ballot(a, Not(p), FullMask)
	k.Ballot(b, q, d)
	k.ShflIdx(c, d, Imm(0), Imm(31), FullMask)
	loop, out := k.NewLabel("loop"), k.NewLabel("out")
	k.Place(loop)
	k.SetpU(EQ, p, c, Imm(0))
	k.If(p).Bra(out)
	k.Sub(c, c, Imm(1))
	k.BraUni(loop)
	k.Place(out)
	k.IfNot(r).St(Global, "u8", At(buf, -1+1), d)
	k.St(Global, "u32", At(buf, 8), a)
	k.Mov(b, NctaidX)
	k.AtomInc(c, At(buf, 12), b)
	k.Ret()
	return m
}

func goldenCompare(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), []byte(got))
}

// Checks GPU-3: the emitted text is fixed by golden files.
func TestGolden(t *testing.T) {
	goldenCompare(t, "copy_words_sm70.ptx", copyKernel(70).String())
	goldenCompare(t, "all_forms_sm90.ptx", formsKernel(90).String())
}

// Checks GPU-3: building the same module twice gives the same text.
func TestDeterministic(t *testing.T) {
	for _, sm := range targets {
		if a, b := formsKernel(sm).String(), formsKernel(sm).String(); a != b {
			t.Fatalf("sm_%d: two builds differ", sm)
		}
	}
}

func TestHeader(t *testing.T) {
	text := copyKernel(86).String()
	want := ".version 7.1\n.target sm_86\n.address_size 64\n\n.visible .entry copy_words(\n\t.param .u64 src,\n"
	if !strings.HasPrefix(text, want) {
		t.Errorf("header:\n%s\nwant prefix:\n%s", text[:min(len(text), 200)], want)
	}
	if !strings.Contains(text, "\t.reg .b64 %rd<5>;\n") || !strings.Contains(text, "\t.reg .pred %p<1>;\n") {
		t.Errorf("register declarations missing:\n%s", text)
	}
}

// Checks GPU-4: every form in Opcodes() appears in the forms kernel, and the
// forms kernel uses no other.
func TestOpcodesCovered(t *testing.T) {
	ops := Opcodes()
	if !slices.IsSorted(ops) || len(ops) == 0 {
		t.Fatalf("Opcodes() is empty or unsorted: %v", ops)
	}
	used := map[string]bool{}
	for _, line := range strings.Split(formsKernel(90).String(), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasSuffix(line, ";") || strings.HasPrefix(line, ".") {
			continue
		}
		line = strings.TrimPrefix(line, "@")
		if strings.HasPrefix(line, "%") || strings.HasPrefix(line, "!%") {
			line = line[strings.Index(line, " ")+1:]
		}
		op := strings.TrimSuffix(strings.Fields(line)[0], ";")
		used[op] = true
	}
	for _, op := range ops {
		if !used[op] {
			t.Errorf("form %s is never emitted by the forms kernel", op)
		}
		if _, ok := OperandForm(op); !ok {
			t.Errorf("OperandForm(%s) unknown", op)
		}
	}
	for op := range used {
		if !slices.Contains(ops, op) {
			t.Errorf("forms kernel emits %s, which Opcodes() does not list", op)
		}
	}
}

func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", name)
		}
	}()
	f()
}

func TestMisuse(t *testing.T) {
	k := NewModule(70).Entry("k", "a")
	r32, r64, p := k.NewReg32(), k.NewReg64(), k.NewPred()
	mustPanic(t, "unknown form", func() { k.Emit("add.f32", r32, r32, r32) })
	mustPanic(t, "operand count", func() { k.Emit("add.u32", r32, r32) })
	mustPanic(t, "operand class", func() { k.Emit("add.u32", r64, r32, r32) })
	mustPanic(t, "store immediate", func() { k.Emit("st.global.u32", At(r64, 0), Imm(1)) })
	mustPanic(t, "foreign register", func() { k.Emit("add.u32", r32, Reg{B32, 99}, r32) })
	mustPanic(t, "16-bit address", func() { At(k.NewReg16(), 0) })
	mustPanic(t, "32-bit global address", func() { k.Ld(Global, "u32", r32, At(r32, 0)) })
	mustPanic(t, "32-bit global store address", func() { k.St(Global, "u8", At(r32, 0), r32) })
	mustPanic(t, "32-bit generic address", func() { k.Ld(Generic, "u32", r32, At(r32, 4)) })
	mustPanic(t, "32-bit atomic address", func() { k.AtomInc(r32, At(r32, 0), r32) })
	mustPanic(t, "32-bit parameter address", func() { k.Emit("ld.param.u64", r64, At(r32, 0)) })
	k.Ld(Shared, "u8", r32, At(r32, 1)) // a shared access: no panic
	mustPanic(t, "cvta of an immediate", func() { k.CvtaShared(r64, Imm(0)) })
	mustPanic(t, "unknown param", func() { k.Param("b") })
	mustPanic(t, "guard not a predicate", func() { k.If(r32) })
	mustPanic(t, "guarded twice", func() { k.If(p).If(p) })
	mustPanic(t, "unsupported sm", func() { NewModule(60) })
	l := k.NewLabel("x")
	mustPanic(t, "guarded label", func() { k.If(p).Place(l) })
	k.Place(l)
	mustPanic(t, "label twice", func() { k.Place(l) })
	other := NewModule(70).Entry("j")
	mustPanic(t, "label of another kernel", func() { other.Bra(l) })
	m := NewModule(70)
	j := m.Entry("j")
	j.Bra(j.NewLabel("never"))
	mustPanic(t, "label never placed", func() { _ = m.String() })
}

func TestMisuseVecSharedBarrier(t *testing.T) {
	k := NewModule(70).Entry("k", "a")
	r, rd := k.NewReg32(), k.NewReg64()
	mustPanic(t, "vector register never allocated", func() {
		k.StV4(Global, At(rd, 0), Vec4{r, r, r, Reg{B32, 7}})
	})
	mustPanic(t, "vector load register never allocated", func() {
		k.LdV4(Global, Vec4{Reg{B32, 1}, r, r, r}, At(rd, 0))
	})
	k.StV4(Global, At(rd, 0), Vec4{r, r, r, r}) // allocated: no panic
	k.Shared("s", 16, 4)
	mustPanic(t, "shared declared twice", func() { k.Shared("s", 16, 4) })
	mustPanic(t, "shared named as a parameter", func() { k.Shared("a", 16, 4) })
	mustPanic(t, "shared named _", func() { k.Shared("_", 16, 4) })
	mustPanic(t, "kernel named _", func() { NewModule(70).Entry("_") })
	mustPanic(t, "parameter named _", func() { NewModule(70).Entry("j", "_") })
	mustPanic(t, "barrier 16", func() { k.BarSync(Imm(16)) })
	mustPanic(t, "barrier -1", func() { k.BarSync(Imm(-1)) })
	mustPanic(t, "barrier 0x10", func() { k.Emit("bar.sync", Hex(16)) })
	k.BarSync(Imm(15)) // the last barrier: no panic
	k.BarSync(r)       // a register id is checked by the hardware
	if !validIdent("_a") || !validIdent("a_") || validIdent("_") {
		t.Errorf("validIdent: want _a and a_ valid, _ invalid")
	}
}

// Checks GPU-2: builder output assembles for every supported architecture.
func TestAssembles(t *testing.T) {
	path := ptxas.Require(t)
	for _, sm := range targets {
		for _, m := range []*Module{copyKernel(sm), formsKernel(sm)} {
			rep, err := ptxas.Assemble(context.Background(), path, m.String(), sm)
			if err != nil {
				t.Fatalf("sm_%d: %v", sm, err)
			}
			for _, r := range rep.Kernels {
				if r.SpillStores != 0 || r.SpillLoads != 0 {
					t.Errorf("%s on %s spills: %+v", r.Kernel, r.Arch, r)
				}
			}
		}
	}
}
