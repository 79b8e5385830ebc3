package ptxexec

import (
	"strings"
	"testing"
)

const testHeader = ".version 7.8\n.target sm_90\n.address_size 64\n\n"

// oneLineKernel is an entry with registers %p<8>, %r<8>, %rd<8>, a 256-byte
// shared array sm, a parameter buf, and the given body then ret.
func oneLineKernel(body string) string {
	return testHeader + ".visible .entry t(\n\t.param .u64 buf\n)\n{\n\t.reg .pred %p<8>;\n\t.reg .b32 %r<8>;\n" +
		"\t.reg .b64 %rd<8>;\n\t.shared .align 16 .b8 sm[256];\n\n\t" + body + "\n\tret;\n}\n"
}

// semCase is one lane of a semantic test: the inputs a, b, c are written to
// %r1-%r3 (low 32 bits), %rd1-%rd3, and %p1-%p3 (their lowest bit); the
// instruction's destination is %r0, %rd0 or %p0.
type semCase struct {
	in   [3]uint64
	want uint64
}

type semTest struct {
	form  string
	line  string
	dst   byte // 'r', 'd' or 'p'
	cases []semCase
}

func c3(a, b, c, want uint64) semCase { return semCase{[3]uint64{a, b, c}, want} }
func c2(a, b, want uint64) semCase    { return semCase{[3]uint64{a, b, 0}, want} }
func c1(a, want uint64) semCase       { return semCase{[3]uint64{a, 0, 0}, want} }

// Hand-computed results of every arithmetic, logic and compare form.
var semTests = []semTest{
	{"mov.u32", "mov.u32 %r0, %r1;", 'r', []semCase{c1(0xdeadbeef, 0xdeadbeef), c1(0, 0)}},
	{"mov.u32", "mov.u32 %r0, -2;", 'r', []semCase{c1(0, 0xfffffffe)}},
	{"mov.u64", "mov.u64 %rd0, %rd1;", 'd', []semCase{c1(0x123456789abcdef0, 0x123456789abcdef0)}},
	{"mov.u64", "mov.u64 %rd0, sm;", 'd', []semCase{c1(7, 0)}}, // the first shared variable is at 0
	{"mov.u32", "mov.u32 %r0, sm;", 'r', []semCase{c1(7, 0)}},  // its 32-bit shared address
	{"cvt.u64.u32", "cvt.u64.u32 %rd0, %r1;", 'd', []semCase{c1(0xffffffff, 0xffffffff), c1(0x1_0000_0005, 5)}},
	{"cvt.u32.u64", "cvt.u32.u64 %r0, %rd1;", 'r', []semCase{c1(0x1_2345_6789, 0x23456789), c1(0xffffffff_00000000, 0)}},
	{"cvta.to.global.u64", "cvta.to.global.u64 %rd0, %rd1;", 'd', []semCase{c1(0x7f3a_0001_0000, 0x7f3a_0001_0000)}},
	{"add.u32", "add.u32 %r0, %r1, %r2;", 'r', []semCase{c2(0xffffffff, 1, 0), c2(5, 7, 12), c2(0x80000000, 0x80000000, 0)}},
	{"add.u32", "add.u32 %r0, %r1, -1;", 'r', []semCase{c1(0, 0xffffffff), c1(10, 9)}},
	{"sub.u32", "sub.u32 %r0, %r1, %r2;", 'r', []semCase{c2(0, 1, 0xffffffff), c2(10, 3, 7), c2(3, 0xffffffff, 4)}},
	{"sub.u32", "sub.u32 %r0, 4091, %r1;", 'r', []semCase{c1(4000, 91), c1(4092, 0xffffffff)}},
	{"mul.lo.u32", "mul.lo.u32 %r0, %r1, %r2;", 'r', []semCase{c2(0x10000, 0x10000, 0), c2(0xffffffff, 0xffffffff, 1),
		c2(3, 5, 15), c2(0x9e3779b1, 2, 0x3c6ef362)}},
	{"mad.lo.u32", "mad.lo.u32 %r0, %r1, %r2, %r3;", 'r', []semCase{c3(0xffffffff, 2, 5, 3), c3(3, 4, 5, 17)}},
	{"mad.lo.u32", "mad.lo.u32 %r0, %r1, -255, %r2;", 'r', []semCase{c2(2, 1000, 490), c2(4, 0, 0xfffffc04)}},
	{"mul.wide.u32", "mul.wide.u32 %rd0, %r1, %r2;", 'd', []semCase{c2(0xffffffff, 0xffffffff, 0xfffffffe_00000001),
		c2(4096, 3, 12288)}},
	{"add.u64", "add.u64 %rd0, %rd1, %rd2;", 'd', []semCase{c2(0xffffffffffffffff, 1, 0), c2(1<<32, 5, 0x1_0000_0005),
		c2(0xffffffff, 1, 1<<32)}},
	{"add.u64", "add.u64 %rd0, %rd1, -8;", 'd', []semCase{c1(8, 0), c1(0, 0xfffffffffffffff8)}},
	{"shl.b32", "shl.b32 %r0, %r1, %r2;", 'r', []semCase{c2(1, 31, 0x80000000), c2(1, 32, 0), c2(0xff, 0xffffffff, 0),
		c2(3, 4, 48), c2(1, 33, 0), c2(0x80000001, 1, 2)}},
	{"shl.b32", "shl.b32 %r0, 1, %r1;", 'r', []semCase{c1(0, 1), c1(5, 32), c1(31, 0x80000000), c1(32, 0)}},
	{"shr.u32", "shr.u32 %r0, %r1, %r2;", 'r', []semCase{c2(0x80000000, 31, 1), c2(0x80000000, 32, 0), c2(0xf0, 4, 0xf),
		c2(5, 100, 0), c2(0xffffffff, 0x80000000, 0)}},
	{"and.b32", "and.b32 %r0, %r1, %r2;", 'r', []semCase{c2(0xf0f0, 0xff00, 0xf000)}},
	{"and.b32", "and.b32 %r0, %r1, 0xfffffffc;", 'r', []semCase{c1(4087, 4084)}},
	{"or.b32", "or.b32 %r0, %r1, %r2;", 'r', []semCase{c2(0xf0f0, 0xff00, 0xfff0)}},
	{"xor.b32", "xor.b32 %r0, %r1, %r2;", 'r', []semCase{c2(0xf0f0, 0xff00, 0x0ff0)}},
	{"not.b32", "not.b32 %r0, %r1;", 'r', []semCase{c1(0, 0xffffffff), c1(0x0f0f0f0f, 0xf0f0f0f0)}},
	{"neg.s32", "neg.s32 %r0, %r1;", 'r', []semCase{c1(1, 0xffffffff), c1(0, 0), c1(0x80000000, 0x80000000), c1(0xfffffff0, 16)}},
	{"min.u32", "min.u32 %r0, %r1, %r2;", 'r', []semCase{c2(0xffffffff, 1, 1), c2(4, 4, 4)}},
	{"max.u32", "max.u32 %r0, %r1, %r2;", 'r', []semCase{c2(0xffffffff, 1, 0xffffffff), c2(0, 3, 3)}},
	{"min.s32", "min.s32 %r0, %r1, %r2;", 'r', []semCase{c2(0xffffffff, 1, 0xffffffff), c2(5, 0xfffffffd, 0xfffffffd)}},
	{"max.s32", "max.s32 %r0, %r1, %r2;", 'r', []semCase{c2(0xffffffff, 1, 1), c2(0x80000000, 0x7fffffff, 0x7fffffff)}},
	{"max.s32", "max.s32 %r0, %r1, 0;", 'r', []semCase{c1(0xffffffe0, 0), c1(12, 12)}},
	{"selp.b32", "selp.b32 %r0, %r1, %r2, %p3;", 'r', []semCase{c3(7, 9, 1, 7), c3(7, 9, 0, 9)}},
	{"shf.r.clamp.b32", "shf.r.clamp.b32 %r0, %r1, %r2, %r3;", 'r', []semCase{
		c3(0x44332211, 0x88776655, 8, 0x55443322), c3(0x44332211, 0x88776655, 0, 0x44332211),
		c3(0x44332211, 0x88776655, 24, 0x77665544), c3(0x44332211, 0x88776655, 32, 0x88776655),
		c3(0x44332211, 0x88776655, 40, 0x88776655), c3(0x44332211, 0x88776655, 0xffffffff, 0x88776655)}},
	{"bfind.u32", "bfind.u32 %r0, %r1;", 'r', []semCase{c1(0, 0xffffffff), c1(1, 0), c1(0x80000000, 31), c1(0x00010001, 16)}},
	{"bfind.shiftamt.u32", "bfind.shiftamt.u32 %r0, %r1;", 'r', []semCase{c1(0, 0xffffffff), c1(1, 31), c1(0x80000000, 0), c1(0x00010001, 15)}},
	{"brev.b32", "brev.b32 %r0, %r1;", 'r', []semCase{c1(1, 0x80000000), c1(0x12345678, 0x1e6a2c48), c1(0, 0)}},
	{"clz.b32", "clz.b32 %r0, %r1;", 'r', []semCase{c1(0, 32), c1(1, 31), c1(0x80000000, 0), c1(0x00ff0000, 8)}},
	{"popc.b32", "popc.b32 %r0, %r1;", 'r', []semCase{c1(0, 0), c1(0xffffffff, 32), c1(0x12345678, 13)}},
	{"and.pred", "and.pred %p0, %p1, %p2;", 'p', []semCase{c2(1, 1, 1), c2(1, 0, 0), c2(0, 1, 0), c2(0, 0, 0)}},
	{"or.pred", "or.pred %p0, %p1, %p2;", 'p', []semCase{c2(1, 1, 1), c2(1, 0, 1), c2(0, 1, 1), c2(0, 0, 0)}},
	{"not.pred", "not.pred %p0, %p1;", 'p', []semCase{c1(1, 0), c1(0, 1)}},
}

func init() {
	// setp: (1, 2), (2, 2), and a pair that a wrong signedness or width
	// orders the other way.
	want := map[string][3]uint64{ // eq, ne, lt, le, gt, ge over the three pairs
		"eq": {0, 1, 0}, "ne": {1, 0, 1}, "lt": {1, 0, 0}, "le": {1, 1, 0}, "gt": {0, 0, 1}, "ge": {0, 1, 1},
	}
	wantSigned := map[string][3]uint64{ // the third pair is (-1, 1)
		"eq": {0, 1, 0}, "ne": {1, 0, 1}, "lt": {1, 0, 1}, "le": {1, 1, 1}, "gt": {0, 0, 0}, "ge": {0, 1, 0},
	}
	for _, cmp := range []string{"eq", "ne", "lt", "le", "gt", "ge"} {
		w, ws := want[cmp], wantSigned[cmp]
		semTests = append(semTests,
			semTest{"setp." + cmp + ".u32", "setp." + cmp + ".u32 %p0, %r1, %r2;", 'p',
				[]semCase{c2(1, 2, w[0]), c2(2, 2, w[1]), c2(0xffffffff, 1, w[2])}},
			semTest{"setp." + cmp + ".s32", "setp." + cmp + ".s32 %p0, %r1, %r2;", 'p',
				[]semCase{c2(1, 2, ws[0]), c2(2, 2, ws[1]), c2(0xffffffff, 1, ws[2])}},
			semTest{"setp." + cmp + ".u64", "setp." + cmp + ".u64 %p0, %rd1, %rd2;", 'p',
				[]semCase{c2(1, 2, w[0]), c2(2, 2, w[1]), c2(1<<32, 0xffffffff, w[2])}})
	}
}

// runLanes loads a one-line kernel and runs one warp of it with the cases'
// inputs in lanes 0, 1, ...
func runLanes(t *testing.T, line string, cases []semCase) *warp {
	t.Helper()
	m, err := Load(oneLineKernel(line))
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	k := m.kernels["t"]
	c := newCTA(k, 1, 32, []uint64{0}, NewMemory(), DefaultStepLimit)
	w := c.warps[0]
	w.reset(0)
	for l, cs := range cases {
		for i, v := range cs.in {
			w.r32[1+i][l] = uint32(v)
			w.r64[1+i][l] = v
			w.pred[1+i] |= uint32(v&1) << l
		}
	}
	for i := 1; i <= 3; i++ {
		w.def32[i], w.def64[i], w.defP[i] = fullMask, fullMask, fullMask
	}
	if err := w.run(); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return w
}

// Checks EXEC-9: every arithmetic, logic and compare form gives the
// hand-computed result, including wraparound and shift counts of 32 or more.
func TestSemantics(t *testing.T) {
	for _, st := range semTests {
		w := runLanes(t, st.line, st.cases)
		for l, cs := range st.cases {
			var got uint64
			switch st.dst {
			case 'r':
				got = uint64(w.r32[0][l])
			case 'd':
				got = w.r64[0][l]
			case 'p':
				got = uint64(w.pred[0] >> l & 1)
			}
			if got != cs.want {
				t.Errorf("%s with %#x: got %#x, want %#x", st.line, cs.in, got, cs.want)
			}
		}
	}
}

// Checks EXEC-9 with the destination also the first source (d = op(d,
// ...), which the kernels write): a lane reads its sources before it
// writes its result.
func TestSemanticsInPlace(t *testing.T) {
	for _, st := range semTests {
		var reg string
		switch st.dst {
		case 'r':
			reg = "%r"
		case 'd':
			reg = "%rd"
		default:
			continue
		}
		line := strings.Replace(st.line, reg+"0, "+reg+"1", reg+"1, "+reg+"1", 1)
		if line == st.line {
			continue
		}
		w := runLanes(t, line, st.cases)
		for l, cs := range st.cases {
			got := uint64(w.r32[1][l])
			if st.dst == 'd' {
				got = w.r64[1][l]
			}
			if got != cs.want {
				t.Errorf("%s with %#x: got %#x, want %#x", line, cs.in, got, cs.want)
			}
		}
	}
}

// Checks EXEC-2: every form of ptx.Opcodes() is implemented and has a
// semantic test (this file's table or one of the named tests).
func TestFormsHaveSemanticTests(t *testing.T) {
	tested := map[string]string{}
	for _, st := range semTests {
		tested[st.form] = "TestSemantics"
	}
	for _, form := range []string{"ld.param.u64", "ld.global.u8", "ld.global.u32", "ld.global.v4.u32",
		"st.global.u8", "st.global.u32", "ld.shared.u8", "ld.shared.u16", "ld.shared.u32", "ld.shared.v4.u32",
		"st.shared.u8", "st.shared.u16", "st.shared.u32", "st.shared.v4.u32"} {
		tested[form] = "TestMemoryForms"
	}
	tested["st.global.v4.u32"] = "TestGlobalVectorStore"
	tested["membar.sys"] = "TestMembarSys"
	tested["atom.global.inc.u32"] = "TestAtomInc"
	for _, form := range []string{"match.any.sync.b32", "vote.sync.ballot.b32", "shfl.sync.idx.b32", "bar.warp.sync"} {
		tested[form] = "TestWarpForms"
	}
	for _, form := range []string{"cvta.shared.u64", "ld.u32", "st.u32"} {
		tested[form] = "TestGenericForms"
	}
	tested["bar.sync"] = "TestBarSyncAndSharedRaces"
	tested["st.relaxed.cta.shared.u16"] = "TestRelaxedStoreLowestLaneWins"
	tested["st.relaxed.cta.shared.u32"] = "TestRelaxedStoreLowestLaneWins"
	for _, form := range []string{"bra", "bra.uni", "ret"} {
		tested[form] = "TestDivergence"
	}
	for form := range tested {
		if _, ok := formTable[form]; !ok {
			t.Errorf("test table names %s, which the executor does not implement", form)
		}
	}
	for _, form := range builderForms() {
		if _, ok := tested[form]; !ok {
			t.Errorf("form %s of ptx.Opcodes() has no semantic test", form)
		}
	}
}

func TestSemTestsUseTheirForm(t *testing.T) {
	for _, st := range semTests {
		if !strings.HasPrefix(st.line, st.form+" ") {
			t.Errorf("%q is listed under %s", st.line, st.form)
		}
		if len(st.cases) > 32 {
			t.Errorf("%s: more cases than lanes", st.form)
		}
	}
}
