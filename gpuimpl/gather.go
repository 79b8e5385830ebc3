package gpuimpl

import "github.com/lz4warp/lz4warp/internal/ptx"

// The entry points of the D2H kernels (GPU-8): the offsets kernel, then
// the gather kernel.
const (
	OffsetsName = "lz4warp_offsets"
	GatherName  = "lz4warp_gather"
	// OffsetsThreads is the offsets kernel's block size; it runs one block.
	OffsetsThreads = 1024
	// OffsetsShared is the offsets kernel's static shared memory: the 32
	// warps' sums and the tile's.
	OffsetsShared = 4 * 33
)

// GatherPTX returns the PTX module of the D2H kernels for sm_<sm>. After
// the page kernel they pack the payloads of a chunk's same-filled and LZ4
// pages back to back in device memory, so that one copy of exactly their
// bytes brings them to the host: a copy of whole output slots would move
// 3,072 bytes for every page, and on the H100 the copies to the host
// slowed the concurrent copies to the device in proportion to their size
// (results/gpu-notebook.md).
func GatherPTX(sm int) string {
	m := ptx.NewModule(sm)
	buildOffsetsKernel(m)
	buildGatherKernel(m)
	return m.String()
}

// packedLen is GPU-8's PackedLen, the room a payload of length n of the
// given kind takes in the packed buffer: nothing for a raw page, whose
// payload the host takes from the input page, else n rounded up to 16
// bytes, at most OutSlot, so that a meta word the host will reject (RT-8)
// cannot move anything outside its page's slot.
func packedLen(kind uint8, n int) int {
	if kind == kindRaw {
		return 0
	}
	return (min(n, OutSlot) + 15) &^ 15
}

// emitPackedLen emits packedLen of meta word w into dst.
func emitPackedLen(k *ptx.Kernel, dst, w ptx.Reg) {
	kind, raw := k.NewReg32(), k.NewPred()
	k.And(dst, w, ptx.Hex(1<<MetaKindShift-1))
	k.MinU(dst, dst, ptx.Imm(OutSlot))
	k.Add(dst, dst, ptx.Imm(15))
	k.And(dst, dst, ptx.Hex(^uint32(15)))
	k.Shr(kind, w, ptx.Imm(MetaKindShift))
	k.SetpU(ptx.EQ, raw, kind, ptx.Imm(kindRaw))
	k.Selp(dst, ptx.Imm(0), dst, raw)
}

// buildOffsetsKernel emits lz4warp_offsets(meta, offsets, hostMeta, total,
// npages) for one block of OffsetsThreads threads: offsets[i] is the sum
// of packedLen over the meta words before i, *total (a u32) the sum over
// all of them, and every meta word is copied to hostMeta. The block walks
// the pages in tiles of 1,024: a scan in each warp by shuffles, a scan of
// the 32 warp totals by warp 0 through shared memory, and a running carry.
func buildOffsetsKernel(m *ptx.Module) {
	k := m.Entry(OffsetsName, "meta", "offsets", "hostMeta", "total", "npages")
	sums := k.Shared("sums", OffsetsShared, 4)
	tid, lane, warp, n := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.Mov(tid, ptx.TidX)
	k.And(lane, tid, ptx.Imm(31))
	k.Shr(warp, tid, ptx.Imm(5))
	n64 := k.NewReg64()
	k.Emit("ld.param.u64", n64, k.Param("npages"))
	k.Cvt32(n, n64)
	meta, offsets, hostMeta, total, sumsAt, at, off := k.NewReg64(), k.NewReg64(), k.NewReg64(), k.NewReg64(), k.NewReg64(), k.NewReg64(), k.NewReg64()
	for _, a := range []struct {
		r    ptx.Reg
		name string
	}{{meta, "meta"}, {offsets, "offsets"}, {hostMeta, "hostMeta"}, {total, "total"}} {
		k.Emit("ld.param.u64", a.r, k.Param(a.name))
		k.CvtaGlobal(a.r, a.r)
	}
	k.Mov(sumsAt, sums)
	laneSum, warpSum := k.NewReg64(), k.NewReg64() // &sums[lane], &sums[warp]
	k.MulWide(off, lane, ptx.Imm(4))
	k.Add(laneSum, sumsAt, off)
	k.MulWide(off, warp, ptx.Imm(4))
	k.Add(warpSum, sumsAt, off)
	isLast, isWarp0, in, p := k.NewPred(), k.NewPred(), k.NewPred(), k.NewPred()
	k.SetpU(ptx.EQ, isLast, lane, ptx.Imm(31))
	k.SetpU(ptx.EQ, isWarp0, warp, ptx.Imm(0))

	// scan turns x into the inclusive prefix sum of x over the warp's lanes.
	y, src := k.NewReg32(), k.NewReg32()
	scan := func(x ptx.Reg) {
		for d := int64(1); d < 32; d *= 2 {
			k.Sub(src, lane, ptx.Imm(d))
			k.ShflIdx(y, x, src, ptx.Imm(31), ptx.FullMask)
			k.SetpU(ptx.GE, p, lane, ptx.Imm(d))
			k.If(p).Add(x, x, y)
		}
	}

	carry, base, i, w, size, x, s, warpTotal := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.Mov(carry, ptx.Imm(0))
	k.Mov(base, ptx.Imm(0))
	tile, afterScan, done := k.NewLabel("tile"), k.NewLabel("warps"), k.NewLabel("done")
	k.Place(tile)
	k.SetpU(ptx.GE, p, base, n)
	k.If(p).BraUni(done)
	k.Add(i, base, tid)
	k.SetpU(ptx.LT, in, i, n)
	k.MulWide(off, i, ptx.Imm(4))
	k.Add(at, meta, off)
	k.Mov(w, ptx.Imm(0)) // past npages: no kind, no room
	k.If(in).Ld(ptx.Global, "u32", w, ptx.At(at, 0))
	k.Add(at, hostMeta, off)
	k.If(in).St(ptx.Global, "u32", ptx.At(at, 0), w)
	emitPackedLen(k, size, w)
	k.Mov(x, size)
	scan(x)
	k.If(isLast).St(ptx.Shared, "u32", ptx.At(warpSum, 0), x)
	k.BarSync(ptx.Imm(0))
	k.Comment("warp 0: sums[w] = the sum of warps before w, sums[32] = the tile's")
	k.IfNot(isWarp0).Bra(afterScan)
	k.Ld(ptx.Shared, "u32", s, ptx.At(laneSum, 0))
	k.Mov(warpTotal, s)
	scan(s)
	k.If(isLast).St(ptx.Shared, "u32", ptx.At(laneSum, 4), s)
	k.Sub(s, s, warpTotal)
	k.St(ptx.Shared, "u32", ptx.At(laneSum, 0), s)
	k.Place(afterScan)
	k.BarSync(ptx.Imm(0))
	k.Comment("offset = carry + the warps before + the lanes before")
	k.Ld(ptx.Shared, "u32", s, ptx.At(warpSum, 0))
	k.Add(x, x, carry)
	k.Add(x, x, s)
	k.Sub(x, x, size)
	k.Add(at, offsets, off)
	k.If(in).St(ptx.Global, "u32", ptx.At(at, 0), x)
	k.Ld(ptx.Shared, "u32", s, ptx.At(sumsAt, 4*32))
	k.Add(carry, carry, s)
	k.BarSync(ptx.Imm(0)) // every warp has read sums before the next tile writes them
	k.Add(base, base, ptx.Imm(OffsetsThreads))
	k.BraUni(tile)
	k.Place(done)
	k.SetpU(ptx.EQ, p, tid, ptx.Imm(0))
	k.If(p).St(ptx.Global, "u32", ptx.At(total, 0), carry)
	k.Ret()
}

// buildGatherKernel emits lz4warp_gather(slots, meta, offsets, packed,
// npages): warp w of block b handles page 4b+w, and its lanes copy the
// packedLen bytes at the start of the page's slot to packed+offsets[page]
// in 16-byte chunks, lane l taking chunks l, l+32, ...
func buildGatherKernel(m *ptx.Module) {
	k := m.Entry(GatherName, "slots", "meta", "offsets", "packed", "npages")
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

	slot, meta, offsets, packed, off := k.NewReg64(), k.NewReg64(), k.NewReg64(), k.NewReg64(), k.NewReg64()
	for _, a := range []struct {
		r    ptx.Reg
		name string
		size int64
	}{{slot, "slots", OutSlot}, {meta, "meta", 4}, {offsets, "offsets", 4}, {packed, "packed", 0}} {
		k.Emit("ld.param.u64", a.r, k.Param(a.name))
		k.CvtaGlobal(a.r, a.r)
		if a.size != 0 {
			k.MulWide(off, page, ptx.Imm(a.size))
			k.Add(a.r, a.r, off)
		}
	}
	word, n, at := k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.Ld(ptx.Global, "u32", word, ptx.At(meta, 0))
	k.Ld(ptx.Global, "u32", at, ptx.At(offsets, 0))
	k.Comment("16-byte chunks of the payload: PackedLen / 16")
	emitPackedLen(k, n, word)
	k.Shr(n, n, ptx.Imm(4))
	k.Cvt64(off, at)
	k.Add(packed, packed, off)
	k.MulWide(off, lane, ptx.Imm(16))
	k.Add(slot, slot, off)
	k.Add(packed, packed, off)
	v := ptx.Vec4{k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()}
	loop, done := k.NewLabel("chunk"), k.NewLabel("done")
	k.Place(loop)
	k.SetpU(ptx.GE, p, lane, n)
	k.If(p).Bra(done)
	k.LdV4(ptx.Global, v, ptx.At(slot, 0))
	k.StV4(ptx.Global, ptx.At(packed, 0), v)
	k.Add(slot, slot, ptx.Imm(32*16))
	k.Add(packed, packed, ptx.Imm(32*16))
	k.Add(lane, lane, ptx.Imm(32))
	k.Bra(loop)
	k.Place(done)
	k.Ret()
}
