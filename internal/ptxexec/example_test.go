package ptxexec_test

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/lz4warp/lz4warp/internal/ptx"
	"github.com/lz4warp/lz4warp/internal/ptxexec"
)

// scaleKernel multiplies n words by 3, one per thread, without a bounds
// check when unchecked is true.
func scaleKernel(unchecked bool) string {
	m := ptx.NewModule(90)
	k := m.Entry("scale", "buf", "n")
	buf, n, off := k.NewReg64(), k.NewReg64(), k.NewReg64()
	k.Emit("ld.param.u64", buf, k.Param("buf"))
	k.Emit("ld.param.u64", n, k.Param("n"))
	k.CvtaGlobal(buf, buf)
	tid, ntid, ctaid, i, v := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.Mov(tid, ptx.TidX)
	k.Mov(ntid, ptx.NtidX)
	k.Mov(ctaid, ptx.CtaidX)
	k.Mad(i, ctaid, ntid, tid)
	done := k.NewLabel("done")
	if !unchecked {
		i64, out := k.NewReg64(), k.NewPred()
		k.Cvt64(i64, i)
		k.SetpU64(ptx.GE, out, i64, n)
		k.If(out).Bra(done)
	}
	k.MulWide(off, i, ptx.Imm(4))
	k.Add(buf, buf, off)
	k.Ld(ptx.Global, "u32", v, ptx.At(buf, 0))
	k.Mul(v, v, ptx.Imm(3))
	k.St(ptx.Global, "u32", ptx.At(buf, 0), v)
	k.Place(done)
	k.Ret()
	return m.String()
}

func Example() {
	mod, err := ptxexec.Load(scaleKernel(false))
	if err != nil {
		panic(err)
	}
	const n = 100
	mem := ptxexec.NewMemory()
	buf := mem.Alloc(4 * n)
	words := mem.Bytes(buf)
	for i := range n {
		binary.LittleEndian.PutUint32(words[4*i:], uint32(i))
	}
	if err := mod.Launch("scale", (n+63)/64, 64, []uint64{buf, n}, mem); err != nil {
		panic(err)
	}
	fmt.Println(binary.LittleEndian.Uint32(words[4*99:]))

	// Without the bounds check, thread 100 writes past the buffer.
	mod, _ = ptxexec.Load(scaleKernel(true))
	err = mod.Launch("scale", (n+63)/64, 64, []uint64{buf, n}, mem)
	var f *ptxexec.Fault
	fmt.Println(errors.Is(err, ptxexec.ErrOutOfBounds), errors.As(err, &f) && f.Thread == 36 && f.Block == 1, f.Text)
	// Output:
	// 297
	// true true ld.global.u32 %r4, [%rd0];
}
