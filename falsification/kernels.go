package falsification

import (
	"fmt"
	"strings"

	"github.com/lz4warp/lz4warp/internal/ptx"
)

// Geometry shared by every experiment kernel. Each thread handles one 32-bit
// word of the output buffer; the grid covers Words threads.
const (
	Words      = 4096       // output words, one per thread
	SliceBytes = 12288      // shared bytes per warp, as in the claim's kernel
	SlotBase   = 8192       // offset of the slots inside a warp's slice (the page area of GPU-5)
	Tag        = 0x5a5a0000 // output word i must read Tag + i
	Poison     = 0xdeadbeef // the output buffer's content before a launch
)

// KernelName is the entry point of every experiment module.
const KernelName = "probe"

// Access says how a kernel reaches shared memory.
type Access int

const (
	// Window: the shared variable's address in the shared state space
	// (mov.u64 %rd, smem), used with ld.shared and st.shared.
	Window Access = iota
	// Generic: the generic address from cvta.shared.u64, used with
	// generic ld and st.
	Generic
	// WindowGenericLoad: stores as Window, but the load is a generic ld
	// of the shared-window address (a mix-up).
	WindowGenericLoad
	// GenericSharedLoad: stores as Generic, but the load is ld.shared of
	// the generic address (the other mix-up).
	GenericSharedLoad
)

func (a Access) String() string {
	switch a {
	case Window:
		return "ld.shared/st.shared, shared-window address"
	case Generic:
		return "generic ld/st after cvta.shared"
	case WindowGenericLoad:
		return "shared-window address with generic ld"
	case GenericSharedLoad:
		return "generic address with ld.shared"
	}
	return fmt.Sprintf("Access(%d)", int(a))
}

// Config is the set of factors an experiment kernel is built from. Every
// experiment varies one of them from its claim's baseline (FALS-2).
type Config struct {
	// Derived: the global store address is dst + an offset loaded from
	// shared memory (F082); otherwise the stored value is loaded from
	// shared memory and the address is dst + 4·thread (F081).
	Derived bool
	// FromRegister: F082's offset is computed in a register and never
	// passes through shared memory (the control experiment).
	FromRegister bool
	Access       Access
	Barrier      bool // bar.sync 0 between the shared store and load
	Warps        int  // warps per block, each owning SliceBytes of shared memory
	GenericStore bool // st.u32 to the generic dst pointer instead of st.global.u32
}

// Threads is the block size of the launch.
func (c Config) Threads() int { return 32 * c.Warps }

// Blocks is the grid size of the launch.
func (c Config) Blocks() int { return Words / c.Threads() }

// SharedBytes is the static shared memory the kernel declares.
func (c Config) SharedBytes() int { return SliceBytes * c.Warps }

// Build emits the kernel of c with the project's PTX builder for sm_<sm>.
//
// Every thread g (global index) owns slot lane of its warp's slice and reads
// the slot of lane^1, written by its neighbour, so that the load observes
// another thread's store (and bar.sync matters). The kernel's parameters
// are dst (the output buffer) and bias (added to every F082 offset; 0 keeps
// the offsets inside the buffer).
//
// F081: slot(g) = Tag + (g^1); thread g loads slot(g^1) = Tag + g and
// stores it to dst + 4g.
// F082: slot(g) = 4g + bias; thread g loads slot(g^1) = 4(g^1) + bias,
// widens it with cvt.u64.u32, adds it to dst and stores Tag + (g^1) there.
// Either way word i of dst must end as Tag + i when bias is 0.
func Build(c Config, sm int) string {
	if c.Warps < 1 || c.Warps > 4 {
		panic(fmt.Sprintf("falsification: %d warps per block", c.Warps))
	}
	m := ptx.NewModule(sm)
	k := m.Entry(KernelName, "dst", "bias")
	smem := k.Shared("smem", c.SharedBytes(), 16)

	dst, bias := k.NewReg64(), k.NewReg64()
	k.Emit("ld.param.u64", dst, k.Param("dst"))
	k.Emit("ld.param.u64", bias, k.Param("bias"))
	if !c.GenericStore {
		k.CvtaGlobal(dst, dst)
	}
	tid, ntid, ctaid, g, lane, warp, nb := k.NewReg32(), k.NewReg32(), k.NewReg32(),
		k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.Mov(tid, ptx.TidX)
	k.Mov(ntid, ptx.NtidX)
	k.Mov(ctaid, ptx.CtaidX)
	k.Mad(g, ctaid, ntid, tid)
	k.Note("g: global thread index")
	k.And(lane, tid, ptx.Imm(31))
	k.Shr(warp, tid, ptx.Imm(5))
	k.Xor(nb, g, ptx.Imm(1))
	k.Note("the neighbour's index g^1")

	if c.Derived && c.FromRegister {
		// Control: the neighbour's offset computed in registers.
		k.Comment("control: no shared memory on the address path")
		bias32, off := k.NewReg32(), k.NewReg32()
		k.Cvt32(bias32, bias)
		k.Mad(off, nb, ptx.Imm(4), bias32)
		storeDerived(k, c, dst, off, nb)
		k.Ret()
		return m.String()
	}

	// Slot addresses: slice of this warp, then 4·lane (own) and 4·(lane^1).
	base, tmp, own, other := k.NewReg64(), k.NewReg64(), k.NewReg64(), k.NewReg64()
	k.Mov(base, smem)
	if c.Access == Generic || c.Access == GenericSharedLoad {
		k.CvtaShared(base, base)
		k.Note("generic address of smem")
	}
	k.MulWide(tmp, warp, ptx.Imm(SliceBytes))
	k.Add(base, base, tmp)
	k.MulWide(tmp, lane, ptx.Imm(4))
	k.Add(own, base, tmp)
	lane1 := k.NewReg32()
	k.Xor(lane1, lane, ptx.Imm(1))
	k.MulWide(tmp, lane1, ptx.Imm(4))
	k.Add(other, base, tmp)

	storeSpace, loadSpace := ptx.Shared, ptx.Shared
	switch c.Access {
	case Generic:
		storeSpace, loadSpace = ptx.Generic, ptx.Generic
	case WindowGenericLoad:
		loadSpace = ptx.Generic
	case GenericSharedLoad:
		storeSpace = ptx.Generic
	}

	val := k.NewReg32()
	if c.Derived {
		bias32 := k.NewReg32()
		k.Cvt32(bias32, bias)
		k.Mad(val, g, ptx.Imm(4), bias32)
		k.Note("this thread's offset 4g + bias")
	} else {
		k.Add(val, nb, ptx.Hex(Tag))
		k.Note("the neighbour's output value")
	}

	k.St(storeSpace, "u32", ptx.At(own, SlotBase), val)
	if c.Barrier {
		k.BarSync(ptx.Imm(0))
	}
	loaded := k.NewReg32()
	k.Ld(loadSpace, "u32", loaded, ptx.At(other, SlotBase))
	if c.Derived {
		k.Note("the neighbour's offset, loaded from shared memory")
		storeDerived(k, c, dst, loaded, nb)
	} else {
		k.Note("the value for dst[g], loaded from shared memory")
		out := k.NewReg64()
		k.MulWide(out, g, ptx.Imm(4))
		k.Add(out, dst, out)
		storeGlobal(k, c, out, loaded)
	}
	k.Ret()
	return m.String()
}

// storeDerived is F082's address computation: widen the 32-bit offset,
// add it to the 64-bit base, store Tag + (g^1) there.
func storeDerived(k *ptx.Kernel, c Config, dst, off, nb ptx.Reg) {
	off64, addr, data := k.NewReg64(), k.NewReg64(), k.NewReg32()
	k.Cvt64(off64, off)
	k.Add(addr, dst, off64)
	k.Note("address = dst + offset")
	k.Add(data, nb, ptx.Hex(Tag))
	storeGlobal(k, c, addr, data)
}

func storeGlobal(k *ptx.Kernel, c Config, addr, v ptx.Reg) {
	space := ptx.Global
	if c.GenericStore {
		space = ptx.Generic
	}
	k.St(space, "u32", ptx.At(addr, 0), v)
}

// Edit is a textual change of builder output, for patterns the builder
// refuses to emit (they are not well-typed PTX, or use a form outside its
// set). Old must occur exactly once in the text.
type Edit struct {
	Old, New string
	Why      string
}

// Apply performs the edits in order; it panics when an edit's Old text does
// not occur exactly once, since the experiment would then test nothing.
func Apply(text string, edits []Edit) string {
	for _, e := range edits {
		if n := strings.Count(text, e.Old); n != 1 {
			panic(fmt.Sprintf("falsification: edit %q matches %d times", e.Old, n))
		}
		text = strings.Replace(text, e.Old, e.New, 1)
	}
	return text
}
