package gpuimpl

import "github.com/lz4warp/lz4warp/internal/ptx"

// GatherName is the entry point of the gather kernel (GPU-8).
const GatherName = "lz4warp_gather"

// GatherPTX returns the PTX module of the gather kernel for sm_<sm>: after
// the page kernel, it moves each page's meta word and payload from device
// memory into page-locked host memory mapped into the device, so that only
// the payloads' bytes cross the bus (a D2H copy would move all OutSlot
// bytes of every slot, and nothing of a raw page needs moving at all).
func GatherPTX(sm int) string {
	m := ptx.NewModule(sm)
	buildGatherKernel(m)
	return m.String()
}

// buildGatherKernel emits lz4warp_gather(slots, meta, hostSlots, hostMeta,
// npages): warp w of block b handles page 4b+w; lane 0 copies the meta
// word, and the lanes copy the payload of a same-filled or LZ4 page in
// 16-byte chunks, lane l taking chunks l, l+32, ... The length is clamped
// to OutSlot, so a meta word the host will reject (RT-8) cannot move a
// copy outside the page's slot.
func buildGatherKernel(m *ptx.Module) {
	k := m.Entry(GatherName, "slots", "meta", "hostSlots", "hostMeta", "npages")
	tid, lane, page := k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.Mov(tid, ptx.TidX)
	k.And(lane, tid, ptx.Imm(31))
	k.Shr(tid, tid, ptx.Imm(5))
	k.Mov(page, ptx.CtaidX)
	k.Mad(page, page, ptx.Imm(PagesPerBlock), tid)
	npages, page64 := k.NewReg64(), k.NewReg64()
	k.Emit("ld.param.u64", npages, k.Param("npages"))
	k.Cvt64(page64, page)
	p := k.NewPred()
	k.SetpU64(ptx.GE, p, page64, npages)
	k.If(p).Ret()

	slot, meta, hslot, hmeta, off := k.NewReg64(), k.NewReg64(), k.NewReg64(), k.NewReg64(), k.NewReg64()
	for _, a := range []struct {
		r    ptx.Reg
		name string
		size int64
	}{{slot, "slots", OutSlot}, {meta, "meta", 4}, {hslot, "hostSlots", OutSlot}, {hmeta, "hostMeta", 4}} {
		k.Emit("ld.param.u64", a.r, k.Param(a.name))
		k.CvtaGlobal(a.r, a.r)
		k.MulWide(off, page, ptx.Imm(a.size))
		k.Add(a.r, a.r, off)
	}
	word, kind, n := k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.Ld(ptx.Global, "u32", word, ptx.At(meta, 0))
	k.SetpU(ptx.EQ, p, lane, ptx.Imm(0))
	k.If(p).St(ptx.Global, "u32", ptx.At(hmeta, 0), word)
	k.Shr(kind, word, ptx.Imm(MetaKindShift))
	k.SetpU(ptx.EQ, p, kind, ptx.Imm(kindRaw))
	k.If(p).Ret()
	k.Comment("chunks of the payload: ceil(min(length, OutSlot) / 16)")
	k.And(n, word, ptx.Hex(1<<MetaKindShift-1))
	k.MinU(n, n, ptx.Imm(OutSlot))
	k.Add(n, n, ptx.Imm(15))
	k.Shr(n, n, ptx.Imm(4))
	k.MulWide(off, lane, ptx.Imm(16))
	k.Add(slot, slot, off)
	k.Add(hslot, hslot, off)
	v := ptx.Vec4{k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()}
	loop, done := k.NewLabel("chunk"), k.NewLabel("done")
	k.Place(loop)
	k.SetpU(ptx.GE, p, lane, n)
	k.If(p).Bra(done)
	k.LdV4(ptx.Global, v, ptx.At(slot, 0))
	k.StV4(ptx.Global, ptx.At(hslot, 0), v)
	k.Add(slot, slot, ptx.Imm(32*16))
	k.Add(hslot, hslot, ptx.Imm(32*16))
	k.Add(lane, lane, ptx.Imm(32))
	k.Bra(loop)
	k.Place(done)
	k.Ret()
}
