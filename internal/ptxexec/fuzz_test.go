package ptxexec

import (
	"errors"
	"testing"

	"github.com/lz4warp/lz4warp/internal/ptx"
)

// randomProgram builds, from the fuzzer's bytes, a kernel of the builder's
// forms: arithmetic, compares, branches forward and back, loads and stores
// at data-dependent addresses, warp intrinsics with data-dependent masks.
func randomProgram(data []byte) string {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := int(data[0])
		data = data[1:]
		return b
	}
	m := ptx.NewModule(90)
	k := m.Entry("t", "buf")
	sm := k.Shared("sm", 256, 16)
	var r [6]ptx.Reg
	var p [3]ptx.Reg
	buf, sh, addr := k.NewReg64(), k.NewReg64(), k.NewReg64()
	sh32 := k.NewReg32()
	k.Emit("ld.param.u64", buf, k.Param("buf"))
	k.Mov(sh, sm)
	k.Mov(sh32, sm)
	for i := range r {
		r[i] = k.NewReg32()
		k.Mov(r[i], ptx.LaneID)
		k.Add(r[i], r[i], ptx.Imm(int64(i*7)))
	}
	for i := range p {
		p[i] = k.NewPred()
		k.SetpU(ptx.LT, p[i], r[i], ptx.Imm(int64(16+i)))
	}
	labels := make([]ptx.Label, 4)
	placed := make([]bool, len(labels))
	for i := range labels {
		labels[i] = k.NewLabel("x")
	}
	reg := func() ptx.Reg { return r[next()%len(r)] }
	pred := func() ptx.Reg { return p[next()%len(p)] }
	arith := []string{"add.u32", "sub.u32", "mul.lo.u32", "shl.b32", "shr.u32", "and.b32", "or.b32", "xor.b32",
		"min.u32", "max.u32", "min.s32", "max.s32"}
	unary := []string{"not.b32", "neg.s32", "bfind.u32", "bfind.shiftamt.u32", "brev.b32", "clz.b32", "popc.b32"}
	spaces := []ptx.Space{ptx.Shared, ptx.Global, ptx.Generic}
	for n := 0; n < 40 && len(data) > 0; n++ {
		kk := k
		if g := next(); g%5 == 0 {
			kk = k.If(pred())
		}
		switch op := next() % 15; op {
		case 0, 1, 2:
			kk.Emit(arith[next()%len(arith)], reg(), reg(), ptx.Imm(int64(next()-64)))
		case 3:
			kk.Emit(unary[next()%len(unary)], reg(), reg())
		case 4:
			kk.SetpU(ptx.Cmp([]string{"eq", "ne", "lt", "le", "gt", "ge"}[next()%6]), pred(), reg(), reg())
		case 5:
			kk.Selp(reg(), reg(), ptx.Imm(int64(next())), pred())
		case 6, 7:
			space := spaces[next()%len(spaces)]
			base := sh
			if space == ptx.Global {
				base = buf
			}
			x := k.NewReg32()
			k.And(x, reg(), ptx.Imm(int64(next()&0xfc)))
			at := ptx.At(addr, int64(next()%8))
			if space == ptx.Shared && next()%2 == 0 {
				// A 32-bit base, at times past the end of sm or, with a
				// negative offset, before its start.
				k.Add(x, x, sh32)
				at = ptx.At(x, int64(next()%16)*4-8)
			} else {
				k.Cvt64(addr, x)
				if space == ptx.Generic {
					k.CvtaShared(addr, addr)
				}
				k.Add(addr, addr, base)
			}
			if op == 6 {
				kk.Ld(space, "u32", reg(), at)
			} else {
				kk.St(space, "u32", at, reg())
			}
		case 8:
			kk.Ballot(reg(), pred(), ptx.Hex(uint32(next())<<24|0xffffff))
		case 9:
			kk.ShflIdx(reg(), reg(), reg(), ptx.Imm(31), ptx.FullMask)
		case 10:
			kk.MatchAny(reg(), reg(), reg())
		case 11:
			kk.WarpSync(ptx.FullMask)
		case 12:
			i := next() % len(labels)
			if !placed[i] && kk == k {
				k.Place(labels[i])
				placed[i] = true
			} else {
				kk.Bra(labels[i])
			}
		case 13:
			kk.Ret()
		case 14:
			x := k.NewReg32()
			k.And(x, reg(), ptx.Imm(int64(next()&0xfc)))
			k.Cvt64(addr, x)
			k.Add(addr, addr, buf)
			kk.AtomInc(reg(), ptx.At(addr, int64(next()%8)), reg())
		}
	}
	k.Ret()
	for i, l := range labels {
		if !placed[i] {
			k.Place(l)
			k.Ret()
		}
	}
	return m.String()
}

// FuzzLaunch runs random programs of the builder's forms: whatever they do,
// the executor completes or returns a *Fault, never panics or hangs.
func FuzzLaunch(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	f.Add([]byte{0, 12, 0, 0, 8, 1, 1, 0, 12, 0, 5, 0, 13, 0, 12, 0, 2, 1, 2, 3})
	f.Add([]byte{0, 6, 1, 200, 3, 0, 7, 0, 1, 9, 1, 0, 9, 2, 3, 0, 10, 1, 1, 0, 11})
	f.Fuzz(func(t *testing.T, data []byte) {
		text := randomProgram(data)
		m, err := Load(text)
		if err != nil {
			t.Fatalf("builder output does not load: %v\n%s", err, text)
		}
		m.StepLimit = 20000
		m.Workers = 1 // the blocks of a random program may race on global memory
		mem := NewMemory()
		err = m.Launch("t", 2, 64, []uint64{mem.Alloc(256)}, mem)
		var fault *Fault
		if err != nil && !errors.As(err, &fault) {
			t.Fatalf("not a fault: %v", err)
		}
	})
}
