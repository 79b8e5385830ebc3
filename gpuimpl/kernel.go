package gpuimpl

import (
	"fmt"
	"math"

	"github.com/lz4warp/lz4warp/internal/ptx"
)

// The kernel's interface (spec/gpu.md, GPU-1).
const (
	// KernelName is the page kernel's PTX entry point.
	KernelName = "lz4warp_pages"
	// StreamKernelName is the entry point of its variant for pages that
	// cross PCIe as it reads them (RT-14): the same parameters and output,
	// each page loaded chunk by chunk while its parse runs.
	StreamKernelName = "lz4warp_pages_stream"
	// OutSlot is the size of one page's output slot in the dst buffer: no
	// LZ4 payload reaches it (PAGE-5).
	OutSlot = 3072
	// ThreadsPerBlock is the block size of every launch: four warps.
	ThreadsPerBlock = 128
	// PagesPerBlock is the number of pages one block compresses, one per warp.
	PagesPerBlock = ThreadsPerBlock / 32
	// SharedPerWarp is one warp's slice of shared memory (GPU-5): the hash
	// table, then the page.
	SharedPerWarp = tableBytes + PageSize
	// SharedPerBlock is the kernel's static shared memory, 48 KiB.
	SharedPerBlock = PagesPerBlock * SharedPerWarp
	// MetaKindShift places the kind above the payload length in a meta word.
	MetaKindShift = 24
	// SchedBytes is the size of a launch's page counter at sched (GPU-10):
	// a 32-bit word, 0 before the launch and 0 again after it.
	SchedBytes = 4
	// RecSlot is the size of one page's record area in the recs buffer:
	// 8 bytes for each of at most 1,021 sequences (GPU-1; TestKernelInterface).
	RecSlot = 8192
)

const (
	tableBytes = 2048 * 4   // PARSE-1: 2,048 entries of two 16-bit positions
	emptyEntry = 0xffffffff // a table entry no position has written
	emptyPos   = 0xffff     // either half of it: no candidate
	hashPrime  = 2654435761
	lastPos    = PageSize - 12 // PARSE-6: the last visited position
	matchEnd   = PageSize - 5  // PARSE-4: p + L <= matchEnd
	maxPayload = OutSlot - 1   // PAGE-5: a block of OutSlot bytes is raw

	kindSame = 1 // PAGE-2's codes
	kindLZ4  = 2
	kindRaw  = 3
)

// DecodeMeta splits a meta word into the page's kind (PAGE-2) and payload
// length.
func DecodeMeta(meta uint32) (kind uint8, length int) {
	return uint8(meta >> MetaKindShift), int(meta & (1<<MetaKindShift - 1))
}

// Blocks is the number of blocks that give every one of npages pages a warp
// of its own.
func Blocks(npages int) int { return (npages + PagesPerBlock - 1) / PagesPerBlock }

// Grid is the grid size of a launch for npages pages on a device that holds
// resident blocks of the kernel at once (GPU-10): no more blocks than it
// holds, whose warps then take the other pages as they finish theirs, and
// no more than the pages need. resident < 1 means no bound.
func Grid(npages, resident int) int {
	if resident < 1 {
		return Blocks(npages)
	}
	return min(Blocks(npages), resident)
}

// extBytes is the number of length-extension bytes of a 4-bit length field
// holding v (PARSE-7), computed as the kernel does, without a division:
// (v-15)/255 == (v-15)·0x8081 >> 23 for every v-15 below 65,800.
func extBytes(v uint32) uint32 {
	if v < 15 {
		return 0
	}
	return (v-15)*0x8081>>23 + 1
}

// KernelPTX returns the PTX module holding the page kernel and its stream
// variant for sm_<sm> (70, 75, 80, 86, 89 or 90; GPU-2). The text is the
// same on every call.
func KernelPTX(sm int) string {
	m := ptx.NewModule(sm)
	buildPageKernel(m, KernelName, false)
	buildPageKernel(m, StreamKernelName, true)
	return m.String()
}

// pageKernel holds the registers that live across the kernel's phases.
type pageKernel struct {
	*ptx.Kernel
	lane, lanebit, lanesBelow ptx.Reg // this lane, 1<<lane, the lanes before it
	dstSlot, metaAddr         ptx.Reg // 64-bit global addresses
	// The shared addresses of the warp's hash table and page copy. Like
	// every shared address in the kernel they are 32-bit registers (GPU-4):
	// an address adds without a carry.
	table, pg         ptx.Reg
	hostSlot          ptx.Reg // the page's slot at hostDst, 0 without hostDst
	toHost            ptx.Reg // hostDst is set
	base, cursor, out ptx.Reg // the parse state, the same in every lane
	isLane0           ptx.Reg
	chunked           bool // the stream variant: the page loaded chunk by chunk
	// The page's loads (loadPage): this lane's first byte of the page and
	// of its copy, the chunks on their way, the largest base and mp+off
	// whose reads the chunks stored so far hold (setStored), and, by
	// caller (siteGroup, siteExtend, siteExtendBoth), where storeNext is
	// entered and returns to.
	lsrc, lpg               ptx.Reg
	chunks                  [chunksAhead]ptx.Vec4
	site                    ptx.Reg
	groupLimit, extendLimit ptx.Reg
	storeNext               [sites]ptx.Label
	storeBack               [sites]ptx.Label
	// Per-lane constants: (lane-1)&31, the lane before (writeBlock's
	// literal starts), and those of the group's word loads.
	laneM1              ptx.Reg
	laneWord, laneShift ptx.Reg // lane&^3 and 8·(lane&3)
	// The aligned words 2 and after of the group's loads and 4 and after
	// of the candidates' (shortLength's words past u32(p+4) and u32(c+8)):
	// loaded only where they lie inside the page, so set once before the
	// loop, which leaves defined values, unused, in the other lanes.
	groupExtra, candExtra, cand2Extra []ptx.Reg
	raw                               ptx.Label
	// GPU-10: where the warp takes its next page, which lane 0 draws into
	// page from the counter at sched, bounded by bound.
	next                      ptx.Label
	page, sched, bound, warps ptx.Reg
	// The page's record area (RecSlot bytes at recs) and the next record.
	recBase, recPtr ptx.Reg
}

// buildPageKernel emits the page kernel as entry name: spec/gpu.md GPU-7, a
// transcription of PARSE-9; chunked loads each page chunk by chunk
// (GPU-9). warpModel in model_test.go is the same algorithm in Go.
func buildPageKernel(m *ptx.Module, name string, chunked bool) {
	k := &pageKernel{Kernel: m.Entry(name, "src", "dst", "meta", "npages", "hostDst", "recs", "sched"), chunked: chunked}
	smem := k.Shared("smem", SharedPerBlock, 16)
	k.raw = k.NewLabel("raw")
	k.next = k.NewLabel("next_page")

	k.Comment("GPU-10: warp w of block b compresses page 4b+w, then the pages it draws from the counter at sched; shared slice w: table[8192] then page[4096]")
	tid, warp, page := k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.lane, k.lanebit, k.lanesBelow = k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.Mov(tid, ptx.TidX)
	k.And(k.lane, tid, ptx.Imm(31))
	k.Shr(warp, tid, ptx.Imm(5))
	k.Shl(k.lanebit, ptx.Imm(1), k.lane)
	k.Sub(k.lanesBelow, k.lanebit, ptx.Imm(1))
	k.isLane0 = k.NewPred()
	k.SetpU(ptx.EQ, k.isLane0, k.lane, ptx.Imm(0))
	k.table, k.pg = k.NewReg32(), k.NewReg32()
	k.Mov(k.table, smem)
	k.Mad(k.table, warp, ptx.Imm(SharedPerWarp), k.table)
	k.Add(k.pg, k.table, ptx.Imm(tableBytes))
	sched, npages64 := k.NewReg64(), k.NewReg64()
	npages, bound := k.NewReg32(), k.NewReg32()
	k.Emit("ld.param.u64", sched, k.Param("sched"))
	k.CvtaGlobal(sched, sched)
	k.Emit("ld.param.u64", npages64, k.Param("npages"))
	k.Cvt32(npages, npages64)
	k.warps = k.NewReg32()
	k.Mov(k.warps, ptx.NctaidX)
	k.Mul(k.warps, k.warps, ptx.Imm(PagesPerBlock))
	k.Sub(bound, npages, ptx.Imm(1))
	k.Note("the launch draws npages times: its last draw wraps the counter to 0")
	if k.chunked {
		k.site = k.NewReg32()
		k.groupLimit, k.extendLimit = k.NewReg32(), k.NewReg32()
		for site := range k.storeNext {
			k.storeNext[site] = k.NewLabel("store_next")
		}
	}

	k.page, k.sched, k.bound = page, sched, bound
	k.Mov(page, ptx.CtaidX)
	k.Mad(page, page, ptx.Imm(PagesPerBlock), warp)
	k.Note("the warp's first page: 4b+w")
	k.Place(k.next)
	k.WarpSync(ptx.FullMask)
	k.Note("the last page's shared-memory accesses before this page's")
	k.ShflIdx(page, page, ptx.Imm(0), ptx.Imm(31), ptx.FullMask)
	beyond, exit := k.NewPred(), k.NewLabel("exit")
	k.SetpU(ptx.GE, beyond, page, npages)
	k.If(beyond).BraUni(exit)
	k.Note("uniform: every lane holds lane 0's page")

	src, tmp64 := k.NewReg64(), k.NewReg64()
	k.dstSlot, k.metaAddr = k.NewReg64(), k.NewReg64()
	k.Emit("ld.param.u64", src, k.Param("src"))
	k.Emit("ld.param.u64", k.dstSlot, k.Param("dst"))
	k.Emit("ld.param.u64", k.metaAddr, k.Param("meta"))
	k.CvtaGlobal(src, src)
	k.CvtaGlobal(k.dstSlot, k.dstSlot)
	k.CvtaGlobal(k.metaAddr, k.metaAddr)
	k.MulWide(tmp64, page, ptx.Imm(PageSize))
	k.Add(src, src, tmp64)
	k.MulWide(tmp64, page, ptx.Imm(OutSlot))
	k.Add(k.dstSlot, k.dstSlot, tmp64)
	k.MulWide(tmp64, page, ptx.Imm(4))
	k.Add(k.metaAddr, k.metaAddr, tmp64)
	k.hostSlot, k.toHost = k.NewReg64(), k.NewPred()
	k.Emit("ld.param.u64", k.hostSlot, k.Param("hostDst"))
	k.SetpU64(ptx.NE, k.toHost, k.hostSlot, ptx.Imm(0))
	k.CvtaGlobal(k.hostSlot, k.hostSlot)
	k.MulWide(tmp64, page, ptx.Imm(OutSlot))
	k.Add(k.hostSlot, k.hostSlot, tmp64)
	k.recBase, k.recPtr = k.NewReg64(), k.NewReg64()
	k.Emit("ld.param.u64", k.recBase, k.Param("recs"))
	k.CvtaGlobal(k.recBase, k.recBase)
	k.MulWide(tmp64, page, ptx.Imm(RecSlot))
	k.Add(k.recBase, k.recBase, tmp64)
	k.Mov(k.recPtr, k.recBase)

	k.loadPage(src)
	k.parse()

	k.Place(k.raw)
	k.Comment("PAGE-5: the block would reach 3072 bytes; the host stores the page itself")
	code := k.NewReg32()
	k.Mov(code, ptx.Imm(kindRaw<<MetaKindShift|PageSize))
	k.If(k.isLane0).St(ptx.Global, "u32", ptx.At(k.metaAddr, 0), code)
	k.nextPage()

	if k.chunked {
		k.emitStoreNext()
	}
	k.Place(exit)
	k.Ret()
}

// nextPage ends a page: lane 0 draws the warp's next page from the counter
// (GPU-10), draw d being page warps+d, the pages below warps being the
// warps' first, and the warp goes to next, whose shuffle gives the page to
// the other lanes. The draw is emitted where a page ends, beside the meta
// word's store, not at next: with one lane's atomic at the loop's head,
// ptxas (11.8 here, and the H100's on the device) doubled the code, every
// collective in the loop getting a path for diverged lanes, and the kernel
// ran 8 to 38% slower.
func (k *pageKernel) nextPage() {
	k.Mov(k.page, ptx.Imm(0))
	k.If(k.isLane0).AtomInc(k.page, ptx.At(k.sched, 0), k.bound)
	k.Add(k.page, k.page, k.warps)
	k.BraUni(k.next)
}

// The stream variant's page arrives in chunks of one 16-byte move per lane
// (GPU-9). A chunk is stored into the warp's slice just before the parse
// reads it, and the next ones are on their way meanwhile, held in
// chunksAhead sets of registers (chunk c in set c%chunksAhead): when the
// page comes over PCIe (RT-14), the warps' first chunks come first and the
// rest of each page while its parse runs, not the whole page before it
// starts.
const (
	chunkBytes  = 32 * 16
	pageChunks  = PageSize / chunkBytes
	chunksAhead = 3
	// groupReach and extendReach bound what a group's iteration and an
	// extension step read ahead of base and of the step's first position,
	// mp+off: the group words of g+2 end by base+100; an extension step's
	// words end by mp+off+132. The 32 bytes more of extendReach were for the
	// literals after a match, which the parse no longer reads (writeBlock
	// runs once every chunk is stored); kept, since they only store a chunk
	// a little earlier.
	groupReach  = 100
	extendReach = 132 + 32
)

// The callers of storeNext.
const (
	siteGroup = iota
	siteExtend
	siteExtendBoth
	sites
)

// loadChunk starts the load of chunk c into its set of registers.
func (k *pageKernel) loadChunk(c int) {
	k.LdV4(ptx.Global, k.chunks[c%chunksAhead], ptx.At(k.lsrc, int64(c*chunkBytes)))
}

// storeChunk stores chunk c, which waits for its load, and starts the
// loads that keep chunksAhead chunks on their way.
func (k *pageKernel) storeChunk(c int) {
	k.StV4(ptx.Shared, ptx.At(k.lpg, int64(c*chunkBytes)), k.chunks[c%chunksAhead])
	if c == 0 {
		for n := 1; n <= chunksAhead; n++ {
			k.loadChunk(n)
		}
	} else if c+chunksAhead < pageChunks {
		k.loadChunk(c + chunksAhead)
	}
}

// loadPage loads the page into the warp's slice while the lanes compare its
// 8-byte words with the first (PAGE-3). The page kernel loads the page at
// once. The stream variant loads the first chunk alone, so that every warp
// has its first chunk before the rest of any page crosses PCIe (RT-14,
// GPU-9): where a word of it differs, the parse starts with that chunk
// stored (setStored) and storeNext stores the others as the parse reaches
// them; where none does, the page may be same-filled and the rest is
// loaded at once. A same-filled page is finished here.
func (k *pageKernel) loadPage(src ptx.Reg) {
	k.Comment("load the page: lane l moves bytes 16l to 16l+15 of each 512-byte chunk")
	off, off64 := k.NewReg32(), k.NewReg64()
	k.lsrc, k.lpg = k.NewReg64(), k.NewReg32()
	k.Shl(off, k.lane, ptx.Imm(4))
	k.Cvt64(off64, off)
	k.Add(k.lsrc, src, off64)
	k.Add(k.lpg, k.pg, off)
	for i := range k.chunks {
		k.chunks[i] = ptx.Vec4{k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()}
	}
	first0, first1, diff, x := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	differs := k.NewPred()
	parse := k.NewLabel("parse")
	firstWord := func(v ptx.Vec4) {
		k.ShflIdx(first0, v[0], ptx.Imm(0), ptx.Imm(31), ptx.FullMask)
		k.ShflIdx(first1, v[1], ptx.Imm(0), ptx.Imm(31), ptx.FullMask)
		k.Mov(diff, ptx.Imm(0))
	}
	compare := func(v ptx.Vec4) {
		for j, w := range v {
			f := first0
			if j%2 == 1 {
				f = first1
			}
			k.Xor(x, w, f)
			k.Or(diff, diff, x)
		}
	}
	anyDiffers := func() {
		k.SetpU(ptx.NE, differs, diff, ptx.Imm(0))
		k.Ballot(x, differs, ptx.FullMask)
		k.SetpU(ptx.NE, differs, x, ptx.Imm(0))
	}
	// rest loads chunks from..7 at once, compares and stores them, and
	// decides. In the stream variant chunks 1 to chunksAhead are on their
	// way already.
	rest := func(from int) {
		v := make([]ptx.Vec4, pageChunks)
		for c := from; c < pageChunks; c++ {
			if k.chunked && c <= chunksAhead {
				v[c] = k.chunks[c%chunksAhead]
				continue
			}
			v[c] = ptx.Vec4{k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()}
			k.LdV4(ptx.Global, v[c], ptx.At(k.lsrc, int64(c*chunkBytes)))
		}
		if from == 0 {
			k.clearTable(off)
			firstWord(v[0])
		}
		for c := from; c < pageChunks; c++ {
			compare(v[c])
			k.StV4(ptx.Shared, ptx.At(k.lpg, int64(c*chunkBytes)), v[c])
		}
		if k.chunked {
			k.setStored(PageSize)
		}
		anyDiffers()
		k.If(differs).BraUni(parse)
	}
	if !k.chunked {
		rest(0)
	} else {
		k.loadChunk(0)
		k.clearTable(off)
		firstWord(k.chunks[0])
		compare(k.chunks[0])
		k.storeChunk(0)
		k.Note("set 0 now holds chunk 3's load")
		k.setStored(chunkBytes)
		anyDiffers()
		k.If(differs).BraUni(parse)
		k.Comment("the first chunk is same-filled: the rest decides, loaded at once")
		rest(1)
	}
	k.Comment("same-filled: the payload is the first 8 bytes, in the host's slot if there is one")
	slot := k.NewReg64()
	k.Mov(slot, k.dstSlot)
	k.If(k.toHost).Mov(slot, k.hostSlot)
	k.If(k.isLane0).St(ptx.Global, "u32", ptx.At(slot, 0), first0)
	k.If(k.isLane0).St(ptx.Global, "u32", ptx.At(slot, 4), first1)
	k.If(k.toHost).MembarSys()
	k.Note("the payload before the meta word, for a host that reads them as they come (RT-14)")
	k.Mov(x, ptx.Imm(kindSame<<MetaKindShift|8))
	k.If(k.isLane0).St(ptx.Global, "u32", ptx.At(k.metaAddr, 0), x)
	k.nextPage()
	k.Place(parse)
}

// setStored records that the page's first n bytes are stored as the
// limits beyond which a group's base or an extension step's mp+off read
// further (signed: base is -32 in the first iteration).
func (k *pageKernel) setStored(n int) {
	if n == PageSize {
		k.Mov(k.groupLimit, ptx.Hex(math.MaxInt32))
		k.Mov(k.extendLimit, ptx.Hex(math.MaxInt32))
		return
	}
	k.Mov(k.groupLimit, ptx.Imm(n-groupReach))
	k.Mov(k.extendLimit, ptx.Imm(n-extendReach))
}

// emitStoreNext places storeNext: it stores the chunk after those stored,
// which groupLimit tells, and returns to the caller that entered it.
func (k *pageKernel) emitStoreNext() {
	at, done, common := make([]ptx.Label, pageChunks), k.NewLabel("stored"), k.NewLabel("store_chunk")
	for site := range sites {
		k.Place(k.storeNext[site])
		k.Mov(k.site, ptx.Imm(site))
		if site < sites-1 {
			k.BraUni(common)
		}
	}
	k.Place(common)
	k.Comment("store the next chunk of the page, which the parse is about to read")
	q := k.NewPred()
	for c := 1; c < pageChunks-1; c++ {
		at[c] = k.NewLabel("chunk")
		k.SetpS(ptx.EQ, q, k.groupLimit, ptx.Imm(c*chunkBytes-groupReach))
		k.If(q).BraUni(at[c])
	}
	for c := pageChunks - 1; c >= 1; c-- {
		if c < pageChunks-1 {
			k.Place(at[c])
		}
		k.storeChunk(c)
		k.setStored((c + 1) * chunkBytes)
		k.BraUni(done)
	}
	k.Place(done)
	k.WarpSync(ptx.FullMask)
	k.Note("the lanes' stores before the parse reads them")
	for site := range sites - 1 {
		k.SetpU(ptx.EQ, q, k.site, ptx.Imm(site))
		k.If(q).BraUni(k.storeBack[site])
	}
	k.BraUni(k.storeBack[sites-1])
}

// clearTable fills the hash table with emptyEntry; off is 16·lane. In the
// stream variant it also fills the page's last chunk, whose last 8 bytes
// the iteration of the group before the first reads (and does not use)
// before the chunk is there: each lane the bytes that it stores later.
func (k *pageKernel) clearTable(off ptx.Reg) {
	k.Comment("clear the hash table: 0xffffffff is an empty entry")
	ones, lt := k.NewReg32(), k.NewReg32()
	k.Mov(ones, ptx.Hex(0xffffffff))
	k.Add(lt, k.table, off)
	for i := 0; i < tableBytes/16/32; i++ {
		k.StV4(ptx.Shared, ptx.At(lt, int64(i*32*16)), ptx.Vec4{ones, ones, ones, ones})
	}
	if k.chunked {
		k.StV4(ptx.Shared, ptx.At(k.lpg, PageSize-chunkBytes), ptx.Vec4{ones, ones, ones, ones})
	}
}

// lowestLane sets dst to the index of the lowest set bit of the nonzero
// mask.
func (k *pageKernel) lowestLane(dst, mask ptx.Reg) {
	rev := k.NewReg32()
	k.Brev(rev, mask)
	k.Clz(dst, rev)
}

// parse runs the groups of 32 positions (PARSE-9) and ends with the last
// literals and the meta word. The groups are software-pipelined: a group's
// table phase (hash, entry read, sets of equal hashes, the table's update)
// reads nothing the parse writes, only the table as the groups before it
// left it. So iteration g runs the table phase of group g+1 beside the
// verification and parse of group g, whose candidates the iteration before
// found, and their shared-memory round trips overlap; the table is still
// updated group after group. The first iteration is that of the group
// before the first (base -32): it has no valid lane and only runs group 0's
// table phase.
func (k *pageKernel) parse() {
	k.laneM1 = k.NewReg32()
	k.Add(k.laneM1, k.lane, ptx.Imm(31))
	k.And(k.laneM1, k.laneM1, ptx.Imm(31))
	k.Note("lane-1, and 31 at lane 0, which takes the step before's last end instead")
	k.laneWord, k.laneShift = k.NewReg32(), k.NewReg32()
	k.And(k.laneWord, k.lane, ptx.Hex(0xfffffffc))
	k.And(k.laneShift, k.lane, ptx.Imm(3))
	k.Shl(k.laneShift, k.laneShift, ptx.Imm(3))
	k.base, k.cursor, k.out = k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.Mov(k.cursor, ptx.Imm(0))
	k.Mov(k.out, ptx.Imm(0))
	group, selectMatch, nextGroup := k.NewLabel("group"), k.NewLabel("select"), k.NewLabel("next_group")

	// Iteration g has the candidates of groups g and g+1, and the hashes of
	// g+1 and, once it computes them, g+2.
	cand, tcand, h := k.NewReg32(), k.NewReg32(), k.NewReg32()
	cand2, tcand2 := k.NewReg32(), k.NewReg32()
	k.WarpSync(ptx.FullMask)
	k.Note("the page copy is complete")
	k.Mov(k.base, ptx.Imm(0))
	k.groupWords(k.base, h, nil)
	k.hash(h, h)
	k.groupExtra, k.candExtra, k.cand2Extra = k.regs(shortWords), k.regs(shortWords-2), k.regs(shortWords-2)
	for _, w := range append(append(k.groupExtra, k.candExtra...), k.cand2Extra...) {
		k.Mov(w, ptx.Imm(0))
	}
	k.Mov(k.base, ptx.Hex(0xffffffe0))
	k.Note("-32: the group before the first, whose lanes are all past the last position")
	k.Mov(cand, ptx.Imm(emptyPos))
	k.Mov(cand2, ptx.Imm(emptyPos))

	k.Place(group)
	k.storeBack[siteGroup] = group
	k.Comment("iteration g: lane l visits position base+l of group g and base+32+l of group g+1 (PARSE-2)")
	p, tbase, tp := k.NewReg32(), k.NewReg32(), k.NewReg32()
	if k.chunked {
		ahead := k.NewPred()
		k.SetpS(ptx.GT, ahead, k.base, k.groupLimit)
		k.If(ahead).BraUni(k.storeNext[siteGroup])
		k.Note("the group's reads go past the chunks stored")
	}
	valid, tvalid, more := k.NewPred(), k.NewPred(), k.NewPred()
	k.Add(p, k.base, k.lane)
	k.SetpU(ptx.LE, valid, p, ptx.Imm(lastPos))
	k.Add(tbase, k.base, ptx.Imm(32))
	k.Add(tp, tbase, k.lane)
	k.SetpU(ptx.LE, tvalid, tp, ptx.Imm(lastPos))
	k.SetpU(ptx.LE, more, tbase, ptx.Imm(lastPos))
	k.Note("group g+1 is a group: decided early, off the loop's path")
	entry := k.NewReg32()
	slot := k.NewReg32()
	k.Mad(slot, h, ptx.Imm(4), k.table)
	k.Ld(ptx.Shared, "u32", entry, ptx.At(slot, 0))
	k.Note("group g+1's entry before its update, after group g's")

	cur, next := k.NewReg32(), k.regs(shortWords)
	wanted, wanted2, ok, ok2 := k.NewPred(), k.NewPred(), k.NewPred(), k.NewPred()
	cv, cv2, matches := k.NewReg32(), k.NewReg32(), k.NewReg32()
	c0, cnext, c20, c2next, noMatch := k.NewReg32(), k.regs(shortWords), k.NewReg32(), k.regs(shortWords), k.NewPred()
	k.sets(tbase, tp, tvalid, slot, entry, tcand, tcand2, func() {
		k.Comment("group g+2's hash, and group g's verification, behind group g+1's store and read back (the loop's longest path)")
		acur, next2 := k.NewReg32(), k.NewReg32()
		k.Add(next2, k.base, ptx.Imm(64))
		k.groupWords(next2, acur, nil)
		k.hash(h, acur)
		k.Note("PARSE-1, group g+2, into h: group g+1's slot is computed")
		verified := k.NewLabel("verified")
		k.SetpU(ptx.GE, noMatch, k.cursor, tbase)
		k.If(noMatch).BraUni(verified)
		k.Note("a match covers group g: no lane to verify")
		k.groupWords(k.base, cur, next)
		k.Note("group g's words: loaded again rather than kept, which would take moves")
		k.Comment("PARSE-3, group g: which lanes at or after the cursor have a verified candidate")
		k.SetpU(ptx.GE, wanted, p, k.cursor)
		k.AndPred(wanted, wanted, valid)
		k.SetpU(ptx.NE, ok, cand, ptx.Imm(emptyPos))
		k.SetpU(ptx.NE, ok2, cand2, ptx.Imm(emptyPos))
		k.AndPred(wanted2, wanted, ok2)
		k.AndPred(wanted, wanted, ok)
		k.Selp(cv, cand, ptx.Imm(0), wanted)
		k.Selp(cv2, cand2, ptx.Imm(0), wanted2)
		k.Note("a lane not wanted reads the page's first words, as every lane does")
		k.candWords(cv, c0, cnext, k.candExtra)
		k.candWords(cv2, c20, c2next, k.cand2Extra)
		k.SetpU(ptx.EQ, ok, c0, cur)
		k.AndPred(ok, ok, wanted)
		k.SetpU(ptx.EQ, ok2, c20, cur)
		k.AndPred(ok2, ok2, wanted2)
		either := k.NewPred()
		k.OrPred(either, ok, ok2)
		k.Ballot(matches, either, ptx.FullMask)
		k.SetpU(ptx.EQ, noMatch, matches, ptx.Imm(0))
		k.Note("decided before the branch on lost lanes, so that the branch below needs no wait")
		k.Place(verified)
	})
	unmatched := k.NewLabel("unmatched")
	k.If(noMatch).BraUni(unmatched)
	laneLen, laneOffset, laneOffset2, longLanes := k.chooseCandidate(p, next, cnext, c2next, cand, cand2, ok, ok2)
	revMatches := k.NewReg32()
	k.Brev(revMatches, matches)
	k.Note("lane l at bit 31-l: the lowest lane is then one bfind, off the chain from one match to the next")
	nextIdx, laneEnd, laneRec := k.selectLanes(p, laneLen, revMatches)

	k.Place(selectMatch)
	k.Comment("PARSE-5: the lowest matching lane at or after the cursor")
	elig, none := k.NewReg32(), k.NewPred()
	eligible := func(rel ptx.Reg) {
		k.Shr(elig, ptx.Hex(0xffffffff), rel)
		k.And(elig, revMatches, elig)
		k.Note("the lanes at or after base+rel, reversed; none when it is past the group")
		k.SetpU(ptx.EQ, none, elig, ptx.Imm(0))
	}
	rel := k.NewReg32()
	k.Mov(elig, revMatches)
	k.Note("the group's matching lanes are all at or after the cursor (wanted), and there is one")
	selectFirst, selectBody, otherSeq := k.NewLabel("select_first"), k.NewLabel("select_body"), k.NewLabel("other_seq")
	m, mNext, t, offset := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	long, isM, again := k.NewPred(), k.NewPred(), k.NewPred()
	k.Place(selectFirst)
	k.BfindShiftAmt(m, elig)
	k.Place(selectBody)
	k.ShflIdx(mNext, nextIdx, m, ptx.Imm(31), ptx.FullMask)
	k.Note("the next match's lane, as lane m found it from its match's end (0xffffffff for none): the chain from one match to the next")
	k.Shr(t, longLanes, m)
	k.And(t, t, ptx.Imm(1))
	k.SetpU(ptx.NE, long, t, ptx.Imm(0))
	k.If(long).BraUni(otherSeq)
	k.Note("its match may go on")
	k.SetpU(ptx.EQ, isM, k.lane, m)
	k.If(isM).St(ptx.Global, "u32", ptx.At(k.recPtr, 0), laneRec)
	k.If(isM).St(ptx.Global, "u32", ptx.At(k.recPtr, 4), laneOffset)
	k.Note("the sequence's record, by the lane of its match; writeBlock writes the sequence")
	k.Add(k.recPtr, k.recPtr, ptx.Imm(recBytes))
	k.ShflIdx(k.cursor, laneEnd, m, ptx.Imm(31), ptx.FullMask)
	k.SetpU(ptx.LT, again, mNext, ptx.Imm(32))
	k.Mov(m, mNext)
	k.If(again).BraUni(selectBody)

	k.Place(nextGroup)
	k.Mov(cand, tcand)
	k.Mov(cand2, tcand2)
	k.Mov(k.base, tbase)
	k.If(more).BraUni(group)
	k.writeBlock()

	k.Place(unmatched)
	k.Comment("PAGE-5: no match before position 3072 leaves 3072 literals or more, and the block reaches 3072 bytes: the page is raw")
	noRecord := k.NewPred()
	k.SetpU(ptx.NE, noRecord, k.base, ptx.Imm(OutSlot-32))
	k.If(noRecord).BraUni(nextGroup)
	k.Note("decided where the group that ends at 3072 has no match")
	k.SetpU64(ptx.EQ, noRecord, k.recPtr, k.recBase)
	k.If(noRecord).BraUni(k.raw)
	k.BraUni(nextGroup)

	k.Place(otherSeq)
	k.Comment("a match that may go on: the warp extends it, and its other candidate's with it where that reached 16 bytes too (PARSE-4)")
	mp, length, rec, start, offset2 := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	single, extended, one := k.NewLabel("extend_one"), k.NewLabel("extended"), k.NewPred()
	k.Add(mp, k.base, m)
	k.ShflIdx(offset, laneOffset, m, ptx.Imm(31), ptx.FullMask)
	k.ShflIdx(offset2, laneOffset2, m, ptx.Imm(31), ptx.FullMask)
	k.Mov(start, ptx.Imm(shortCap))
	k.SetpU(ptx.EQ, one, offset2, ptx.Imm(0))
	k.If(one).BraUni(single)
	k.Note("c2's match is not as long: c1's or c2's alone")
	k.extendBoth(length, mp, offset, offset2, start, single, extended)
	k.Place(single)
	k.extend(length, mp, offset, start)
	k.Place(extended)
	k.Shl(rec, length, ptx.Imm(16))
	k.Or(rec, rec, mp)
	k.If(k.isLane0).St(ptx.Global, "u32", ptx.At(k.recPtr, 0), rec)
	k.If(k.isLane0).St(ptx.Global, "u32", ptx.At(k.recPtr, 4), offset)
	k.Add(k.recPtr, k.recPtr, ptx.Imm(recBytes))
	k.Add(rel, m, length)
	eligible(rel)
	k.Note("the next match's lanes from the match's end, as the select loop finds them")
	k.Add(k.cursor, mp, length)
	k.IfNot(none).BraUni(selectFirst)
	k.BraUni(nextGroup)
}

// recBytes is the size of one record: the match's position and length
// (p | L<<16), then its offset, two 32-bit words.
const recBytes = 8

// selectLanes computes what the select loop needs of each matching lane
// (PARSE-5), so that its chain from one match to the next is one shuffle:
// nextIdx, the lowest matching lane at or after the lane's match's end
// (0xffffffff for none); laneEnd, that end; laneRec, the first word of its
// record.
func (k *pageKernel) selectLanes(p, laneLen, revMatches ptx.Reg) (nextIdx, laneEnd, laneRec ptx.Reg) {
	nextIdx, laneEnd, laneRec = k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.Add(nextIdx, k.lane, laneLen)
	k.Shr(nextIdx, ptx.Hex(0xffffffff), nextIdx)
	k.And(nextIdx, nextIdx, revMatches)
	k.BfindShiftAmt(nextIdx, nextIdx)
	k.Add(laneEnd, p, laneLen)
	k.Shl(laneRec, laneLen, ptx.Imm(16))
	k.Or(laneRec, laneRec, p)
	return
}

// sets gives each lane of the group at base its candidate (PARSE-9): the
// nearest earlier lane of the group with the same hash, else entry, the
// table's entry before the group; and it leaves in the table, for each hash
// of the group, the last lane's position. match.any.sync would find the
// lanes with equal hashes, but it takes hundreds of cycles. So every valid
// lane stores its position at its hash's entry with st.relaxed: one lane of
// each set of equal hashes wins, and a read back shows each lane its set's
// winner. None lost: every set has one lane. Else the lanes that read back
// the same winner, found from five ballots of the winner's lane bits, are a
// set. Then the last lane of each set enters the table if another lane
// won. overlap emits work of the previous group to be done while the read
// back is on its way.
func (k *pageKernel) sets(base, p, valid, slot, entry, cand, cand2 ptx.Reg, overlap func()) {
	k.Comment("PARSE-9: sets of equal hashes")
	done := k.NewLabel("sets_done")
	won, lost, peers, x := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.And(cand, entry, ptx.Hex(0xffff))
	k.Shr(cand2, entry, ptx.Imm(16))
	k.Shl(x, entry, ptx.Imm(16))
	k.Or(x, x, p)
	k.Note("the lane's entry if its set is itself: p | c1<<16")
	k.WarpSync(ptx.FullMask)
	k.Note("every lane has read the table")
	k.If(valid).StAnyLane("u32", ptx.At(slot, 0), x)
	k.Note("one lane of each set of equal hashes wins")
	k.WarpSync(ptx.FullMask)
	lostHere, q := k.NewPred(), k.NewPred()
	k.Ld(ptx.Shared, "u32", won, ptx.At(slot, 0))
	k.And(won, won, ptx.Hex(0xffff))
	k.SetpU(ptx.NE, lostHere, won, p)
	k.AndPred(lostHere, lostHere, valid)
	k.Ballot(lost, lostHere, ptx.FullMask)
	overlap()
	k.SetpU(ptx.EQ, q, lost, ptx.Imm(0))
	k.If(q).BraUni(done)
	k.Note("every hash of the group is a set of one lane")
	k.Comment("some lost: every valid lane read back its set's winner, whose low 5 bits are its lane (base is a multiple of 32), one ballot per bit")
	bit, diff := k.NewPred(), k.NewReg32()
	k.Ballot(peers, valid, ptx.FullMask)
	for b := range 5 {
		k.And(x, won, ptx.Imm(1<<b))
		k.SetpU(ptx.NE, bit, x, ptx.Imm(0))
		k.Ballot(x, bit, ptx.FullMask)
		k.Not(diff, x)
		k.Selp(x, x, diff, bit)
		k.And(peers, peers, x)
	}
	k.Selp(peers, peers, k.lanebit, valid)
	k.Note("the valid lanes with the same winner; a lane past the last position is a set of its own")

	earlier, prev := k.NewPred(), k.NewReg32()
	k.And(x, peers, k.lanesBelow)
	k.SetpU(ptx.NE, earlier, x, ptx.Imm(0))
	k.Bfind(prev, x)
	k.Add(x, prev, base)
	k.Selp(cand, x, cand, earlier)
	k.Note("c1: the nearest earlier lane with the same hash, else the table")
	k.ShflIdx(x, cand, prev, ptx.Imm(31), ptx.FullMask)
	k.Selp(cand2, x, cand2, earlier)
	k.Note("c2: that lane's c1, else the table")
	k.WarpSync(ptx.FullMask)
	k.Note("every lane has read the winner")
	k.Shr(x, peers, k.lane)
	k.SetpU(ptx.EQ, q, x, ptx.Imm(1))
	k.AndPred(q, q, earlier)
	k.Shl(x, cand, ptx.Imm(16))
	k.Or(x, x, p)
	k.If(q).St(ptx.Shared, "u32", ptx.At(slot, 0), x)
	k.Note("the last lane of a set of more than one enters the table: p | c1<<16")
	k.WarpSync(ptx.FullMask)
	k.Note("the next group reads the table after these stores (with none lost, the read back orders it)")
	k.Place(done)
}

// hash sets h to PARSE-1's hash of the word w.
func (k *pageKernel) hash(h, w ptx.Reg) {
	k.Mul(h, w, ptx.Imm(hashPrime))
	k.Shr(h, h, ptx.Imm(32-11))
}

// candWords sets c0 to u32(c) of a lane's candidate c and next[j-1] to
// u32(c+4j), from the aligned words at c&^3 and after: c <= 4083, so the
// four aligned words from c&^3 lie inside the page; the words after them
// (extra) are loaded where they do too, which they do wherever the lane
// compares them (see loadExtra).
func (k *pageKernel) candWords(c, c0 ptx.Reg, next, extra []ptx.Reg) {
	w, sh, addr := append(k.regs(4), extra...), k.NewReg32(), k.NewReg32()
	k.And(sh, c, ptx.Hex(0xfffffffc))
	k.pageAt(addr, sh)
	for i := range 4 {
		k.Ld(ptx.Shared, "u32", w[i], ptx.At(addr, int64(4*i)))
	}
	k.loadExtra(w[4:], sh, addr, 16)
	k.And(sh, c, ptx.Imm(3))
	k.Shl(sh, sh, ptx.Imm(3))
	k.ShfR(c0, w[0], w[1], sh)
	for j, n := range next {
		k.ShfR(n, w[j+1], w[j+2], sh)
	}
}

// chooseCandidate gives each lane its match as far as shortLength measures
// it (PARSE-4): the longer of its candidates' that verify (ok, ok2), c1's
// of two as long; laneOffset is its offset; longLanes are the lanes whose
// match may go on past shortCap, lane l at bit l; laneOffset2 is c2's
// offset at a long lane whose two candidates both may go on (the warp
// extends both matches), else 0, no offset.
func (k *pageKernel) chooseCandidate(p ptx.Reg, next, cnext, c2next []ptx.Reg, cand, cand2, ok, ok2 ptx.Reg) (laneLen, laneOffset, laneOffset2, longLanes ptx.Reg) {
	maxL, bound, room := k.NewReg32(), k.NewReg32(), k.NewPred()
	k.Sub(maxL, ptx.Imm(matchEnd), p)
	k.MinU(bound, maxL, ptx.Imm(shortCap))
	k.SetpU(ptx.GT, room, maxL, ptx.Imm(shortCap))
	k.Note("a length of shortCap short of the bound may go on")
	len1, len2 := k.shortLength(bound, next, cnext), k.shortLength(bound, next, c2next)
	laneLen, laneOffset, laneOffset2, longLanes = k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	take2, long, both := k.NewPred(), k.NewPred(), k.NewPred()
	k.Selp(len1, len1, ptx.Imm(0), ok)
	k.Note("c1's length, 0 where c1 does not verify")
	k.SetpU(ptx.GT, take2, len2, len1)
	k.AndPred(take2, take2, ok2)
	k.Selp(laneLen, len2, len1, take2)
	k.Note("the longer, c1's of two as long")
	k.SetpU(ptx.EQ, long, laneLen, ptx.Imm(shortCap))
	k.AndPred(long, long, room)
	k.Ballot(longLanes, long, ptx.FullMask)
	k.Sub(laneOffset, p, cand)
	k.Sub(laneOffset2, p, cand2)
	k.Selp(laneOffset, laneOffset2, laneOffset, take2)
	k.SetpU(ptx.EQ, both, len2, len1)
	k.AndPred(both, both, ok2)
	k.Selp(laneOffset2, laneOffset2, ptx.Imm(0), both)
	k.Note("at a long lane, candidates as long both reach shortCap")
	return laneLen, laneOffset, laneOffset2, longLanes
}

// groupWords sets cur to u32(p) of each lane's position p = base+lane and,
// unless next is nil, next[j-1] to u32(p+4j) for j = 1 to shortWords, from
// the aligned words at p&^3 and after: base is a multiple of 32, so p&^3 =
// base + (lane&^3) and the shift is 8·(lane&3). The first four addresses
// stay inside the page: a valid lane p <= 4084 reads exactly its words
// there; a lane past the last position, or of the group after the last,
// or of the group before the first, reads words it does not use. The
// words from p&^3+8 on are loaded where they lie inside the page: a word
// that does not is past the bound, p+L <= 4091, so a length counts none
// of its bytes (shortLength), and a lane keeps the value of an earlier
// group there.
func (k *pageKernel) groupWords(base, cur ptx.Reg, next []ptx.Reg) {
	w, x, addr := k.NewReg32(), k.NewReg32(), k.NewReg32()
	words := k.regs(4)
	k.Add(w, base, k.laneWord)
	k.MinU(x, w, ptx.Imm(PageSize-8))
	k.pageAt(addr, x)
	k.Ld(ptx.Shared, "u32", words[0], ptx.At(addr, 0))
	k.Ld(ptx.Shared, "u32", words[1], ptx.At(addr, 4))
	if next == nil {
		k.ShfR(cur, words[0], words[1], k.laneShift)
		return
	}
	words = append(words[:2], k.groupExtra...)
	inPage := k.NewPred()
	for i, word := range words[2:] {
		k.SetpU(ptx.LE, inPage, w, ptx.Imm(PageSize-4-8-4*i))
		k.If(inPage).Ld(ptx.Shared, "u32", word, ptx.At(addr, int64(8+4*i)))
	}
	k.Note("the words from p&^3+8 on, where they lie inside the page (x = w there)")
	k.ShfR(cur, words[0], words[1], k.laneShift)
	for j, n := range next {
		k.ShfR(n, words[j+1], words[j+2], k.laneShift)
	}
}

// loadExtra loads the aligned words 4 and after from a (a multiple of 4),
// extra[i] = the word at a+16+4i, where it lies inside the page; addr is
// the shared address of a+16-delta. A lane compares word j of its position
// p (p&^3 = a) only while its bound is further, p+4j <= 4090, so the word
// it needs starts by 4092 and is loaded; a candidate's words lie before
// its position's.
func (k *pageKernel) loadExtra(extra []ptx.Reg, a, addr ptx.Reg, delta int) {
	inPage := k.NewPred()
	for i, w := range extra {
		k.SetpU(ptx.LE, inPage, a, ptx.Imm(PageSize-4-16-4*i))
		k.If(inPage).Ld(ptx.Shared, "u32", w, ptx.At(addr, int64(delta+4*i)))
	}
}

// regs returns n new 32-bit registers.
func (k *pageKernel) regs(n int) []ptx.Reg {
	r := make([]ptx.Reg, n)
	for i := range r {
		r[i] = k.NewReg32()
	}
	return r
}

// shortLength returns each lane's match length as far as its words after
// the first tell (PARSE-4): 4 plus the equal bytes of u32(p+4j) =
// u32(c+4j) for j = 1 to shortWords, at most bound = min(4091-p,
// shortCap). A length of shortCap at a lane whose bound is further is
// only a lower bound: extend goes on from there. Every lane computes it at
// once, so that a group's matches cost no extension step unless they are
// longer. It lies between the group's verification and its first match,
// and runs once per candidate, so its steps are kept few: the first xor
// that is not 0 and the bytes before it are selected first, and only that
// xor's equal bytes are counted (all xors 0 select the last, whose 4
// equal bytes make shortCap).
func (k *pageKernel) shortLength(bound ptx.Reg, a, b []ptx.Reg) ptx.Reg {
	k.Comment(fmt.Sprintf("PARSE-4: every lane's match length up to %d bytes, from the words after p and c", shortCap))
	d, x, before, n := k.regs(len(a)), k.NewReg32(), k.NewReg32(), k.NewReg32()
	for j := range d {
		k.Xor(d[j], a[j], b[j])
	}
	last := len(d) - 1
	differs := make([]ptx.Reg, last)
	for j := range differs {
		differs[j] = k.NewPred()
		k.SetpU(ptx.NE, differs[j], d[j], ptx.Imm(0))
	}
	k.Selp(x, d[last-1], d[last], differs[last-1])
	k.Selp(before, ptx.Imm(4*last), ptx.Imm(4*(last+1)), differs[last-1])
	for j := last - 2; j >= 0; j-- {
		k.Selp(x, d[j], x, differs[j])
		k.Selp(before, ptx.Imm(4*(j+1)), before, differs[j])
	}
	k.Note("the first xor that is not 0, and the bytes before it")
	k.Brev(n, x)
	k.Clz(n, n)
	k.Shr(n, n, ptx.Imm(3))
	k.Add(n, n, before)
	k.MinU(n, n, bound)
	return n
}

// shortWords is the number of words after u32(p) that shortLength
// compares, and shortCap the longest length it finds.
const (
	shortWords = 3
	shortCap   = 4 + 4*shortWords
)

// extend sets length to that of the match at mp with offset, whose first
// off bytes are equal short of the bound (shortCap ones that shortLength
// found, longLanes, or more that extendBoth found; PARSE-4): the warp
// compares 128 bytes per step, 4 per lane, from off on.
func (k *pageKernel) extend(length, mp, offset, off ptx.Reg) {
	k.Comment(fmt.Sprintf("PARSE-4: a match of %d bytes or more goes on 128 bytes a step; a lane stops at a mismatch or at p+L = 4091", shortCap))
	maxL, mc, lane4, i, a, b, e, stops := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.Sub(maxL, ptx.Imm(matchEnd), mp)
	k.Sub(mc, mp, offset)
	k.Shl(lane4, k.lane, ptx.Imm(2))
	step := k.NewLabel("extend")
	k.extendSite(siteExtend, mp, off, step)
	stop := k.compareStep(e, stops, i, a, b, mp, mc, off, lane4, maxL, "a lane past the bound reads inside the page and compares nothing")
	k.SetpU(ptx.NE, stop, stops, ptx.Imm(0))
	k.Add(off, off, ptx.Imm(128))
	k.IfNot(stop).BraUni(step)
	k.stepLength(length, stops, e, off, 128)
}

// compareStep is one step of extend and extendBoth: each lane compares the
// 4 bytes at i = off+lane4 of the match at mp (at most maxL bytes on) with
// those mc earlier, e being how many are equal, and stops the ballot of the
// lanes that found a difference; it returns the predicate it used, free
// for the caller. i, a and b are scratch; note, when set, says what a lane
// past the bound does.
func (k *pageKernel) compareStep(e, stops, i, a, b, mp, mc, off, lane4, maxL ptx.Reg, note string) ptx.Reg {
	k.Add(i, off, lane4)
	k.MinU(a, i, maxL)
	if note != "" {
		k.Note(note)
	}
	k.Add(b, mc, a)
	k.Add(a, mp, a)
	k.wordAt(a, a)
	k.wordAt(b, b)
	lim := k.NewReg32()
	k.laneRoom(lim, maxL, i)
	k.equalBytes(e, a, b, lim)
	stop := k.NewPred()
	k.SetpU(ptx.LT, stop, e, ptx.Imm(4))
	k.Ballot(stops, stop, ptx.FullMask)
	return stop
}

// extendBoth extends the match at mp with both its candidates' offsets,
// whose first off bytes are equal short of the bound, in one loop: lanes 0
// to 15 compare 4 bytes each of the position with c1's (offset), lanes 16
// to 31 with c2's (offset2), 64 bytes of each a step (most such matches
// end within 64 bytes of the first 16). At the first step where either
// stops, the other, where it goes on, is the longer: offset becomes its
// offset, off the bytes known equal, and extend (at single) finishes it.
// Where both stop in one step, length and offset become the longer's,
// offset's (c1's) of two as long, and it branches to done. The result is
// that of extending each alone and keeping the longer.
func (k *pageKernel) extendBoth(length, mp, offset, offset2, off ptx.Reg, single, done ptx.Label) {
	k.Comment("PARSE-4: both candidates' matches go on 64 bytes a step each, until one stops")
	maxL, mc, mc2, lane4, i, a, b, e, stops, stops2 := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	upper := k.NewPred()
	k.Sub(maxL, ptx.Imm(matchEnd), mp)
	k.Sub(mc, mp, offset)
	k.Sub(mc2, mp, offset2)
	k.SetpU(ptx.GE, upper, k.lane, ptx.Imm(16))
	k.Selp(mc, mc2, mc, upper)
	k.Note("lanes 16 to 31 compare with c2's")
	k.And(lane4, k.lane, ptx.Imm(15))
	k.Shl(lane4, lane4, ptx.Imm(2))
	step := k.NewLabel("extend_both")
	k.extendSite(siteExtendBoth, mp, off, step)
	stop := k.compareStep(e, stops, i, a, b, mp, mc, off, lane4, maxL, "")
	k.SetpU(ptx.EQ, stop, stops, ptx.Imm(0))
	k.Add(off, off, ptx.Imm(64))
	k.If(stop).BraUni(step)
	k.And(stops2, stops, ptx.Hex(0xffff0000))
	k.And(stops, stops, ptx.Hex(0xffff))
	k.SetpU(ptx.EQ, stop, stops, ptx.Imm(0))
	k.If(stop).BraUni(single)
	k.Note("c1's goes on past c2's end: the longer")
	k.SetpU(ptx.EQ, stop, stops2, ptx.Imm(0))
	k.If(stop).Mov(offset, offset2)
	k.If(stop).BraUni(single)
	k.Note("c2's goes on past c1's end: the longer")
	k.stepLength(length, stops, e, off, 64)
	k.stepLength(b, stops2, e, off, 64+64)
	k.Note("c2's lanes are 16 to 31: 64 more back")
	k.SetpU(ptx.GT, stop, b, length)
	k.Selp(length, b, length, stop)
	k.Selp(offset, offset2, offset, stop)
	k.Note("both end in this step: the longer, c1's of two as long")
	k.BraUni(done)
}

// extendSite places an extension loop's head, step, for caller site: in
// the stream variant, a step whose reads (up to mp+off+132) go past the
// chunks stored first stores the next one.
func (k *pageKernel) extendSite(site int, mp, off ptx.Reg, step ptx.Label) {
	offLimit, ahead := k.NewReg32(), k.NewPred()
	if k.chunked {
		k.storeBack[site] = k.NewLabel("extend_stored")
		k.Place(k.storeBack[site])
		k.Sub(offLimit, k.extendLimit, mp)
	}
	k.Place(step)
	if k.chunked {
		k.SetpS(ptx.GT, ahead, off, offLimit)
		k.If(ahead).BraUni(k.storeNext[site])
		k.Note("the step's reads go past the chunks stored")
	}
}

// equalBytes sets e to the equal low bytes of the words a and b, at most
// lim (the lane's bytes short of the bound).
func (k *pageKernel) equalBytes(e, a, b, lim ptx.Reg) {
	k.Xor(e, a, b)
	k.Brev(e, e)
	k.Clz(e, e)
	k.Shr(e, e, ptx.Imm(3))
	k.MinS(e, e, lim)
	k.Note("the equal bytes of this lane's 4, none past the bound")
}

// laneRoom sets lim to the bytes from the lane's first, i, to the bound
// maxL, 0 past it.
func (k *pageKernel) laneRoom(lim, maxL, i ptx.Reg) {
	k.Sub(lim, maxL, i)
	k.MaxS(lim, lim, ptx.Imm(0))
}

// stepLength sets length to the match's length from the step that ended
// it: stops, the lanes that stopped, the lowest lane's equal bytes e, and
// off, back bytes past the first byte of lane 0's 4 (the step's first byte
// plus 4 per lane before the match's first lane).
func (k *pageKernel) stepLength(length, stops, e, off ptx.Reg, back int) {
	s, es := k.NewReg32(), k.NewReg32()
	k.lowestLane(s, stops)
	k.ShflIdx(es, e, s, ptx.Imm(31), ptx.FullMask)
	k.Mad(length, s, ptx.Imm(4), es)
	k.Add(length, length, off)
	k.Sub(length, length, ptx.Imm(back))
}

// wordAt sets dst to u32(pos) of the page copy for pos <= 4091: the
// aligned words at pos&^3 and after lie inside the page.
func (k *pageKernel) wordAt(dst, pos ptx.Reg) {
	w, sh, lo, hi, addr := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.And(w, pos, ptx.Hex(0xfffffffc))
	k.pageAt(addr, w)
	k.Ld(ptx.Shared, "u32", lo, ptx.At(addr, 0))
	k.Ld(ptx.Shared, "u32", hi, ptx.At(addr, 4))
	k.And(sh, pos, ptx.Imm(3))
	k.Shl(sh, sh, ptx.Imm(3))
	k.ShfR(dst, lo, hi, sh)
}

// extCount sets dst to extBytes(v).
func (k *pageKernel) extCount(dst, v ptx.Reg) {
	long := k.NewPred()
	k.Sub(dst, v, ptx.Imm(15))
	k.Mul(dst, dst, ptx.Imm(0x8081))
	k.Shr(dst, dst, ptx.Imm(23))
	k.Add(dst, dst, ptx.Imm(1))
	k.SetpU(ptx.GE, long, v, ptx.Imm(15))
	k.Selp(dst, dst, ptx.Imm(0), long)
}

// inlineLits is the longest literal run that writeBlock's lanes copy
// byte by byte, each its own; the warp copies longer ones together.
const inlineLits = 16

// writeBlock writes the block (PARSE-7) from the page's records into the
// table's part of the warp's slice, which the parse no longer needs: 32
// records a step, a sequence per lane, placed by a warp prefix sum of
// their lengths. Each lane writes its token, offset and length bytes and
// copies up to inlineLits literals byte by byte; the warp copies longer
// runs together, and then the last literals (PARSE-6). A block that would
// reach OutSlot bytes jumps to raw (PAGE-5). copyOut then copies the block
// to the page's slots, and lane 0 writes the meta word.
func (k *pageKernel) writeBlock() {
	k.Comment("PARSE-7: the block from the records, 32 a step, in the table's part of the slice")
	nrec, b0, prevEnd, x, t := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	q, valid := k.NewPred(), k.NewPred()
	k.Cvt32(nrec, k.recPtr)
	k.Cvt32(x, k.recBase)
	k.Sub(nrec, nrec, x)
	k.Shr(nrec, nrec, ptx.Imm(3))
	k.Mov(b0, ptx.Imm(0))
	k.Mov(prevEnd, ptx.Imm(0))
	k.WarpSync(ptx.FullMask)
	k.Note("the lanes' records, and their reads of the table, before the block overwrites it")
	batch, last := k.NewLabel("records"), k.NewLabel("last_literals")
	i, w0, off, mp, ln, end, prev := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	litLen, ml4, e1, e2, size, incl, start := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	nextW0, nextOff := k.NewReg32(), k.NewReg32()
	addr := k.NewReg64()
	// loadRecords starts the loads of the records of the step at from, which
	// the step before uses while they are on their way.
	loadRecords := func(from ptx.Reg) {
		k.Add(i, from, k.lane)
		k.SetpU(ptx.LT, q, i, nrec)
		k.MulWide(addr, i, ptx.Imm(recBytes))
		k.Add(addr, addr, k.recBase)
		k.If(q).Ld(ptx.Global, "u32", nextW0, ptx.At(addr, 0))
		k.If(q).Ld(ptx.Global, "u32", nextOff, ptx.At(addr, 4))
	}
	k.Mov(nextW0, ptx.Imm(0))
	k.Mov(nextOff, ptx.Imm(0))
	loadRecords(b0)
	k.Place(batch)
	k.SetpU(ptx.GE, q, b0, nrec)
	k.If(q).BraUni(last)
	k.Add(i, b0, k.lane)
	k.SetpU(ptx.LT, valid, i, nrec)
	k.Mov(w0, nextW0)
	k.Mov(off, nextOff)
	k.Add(t, b0, ptx.Imm(32))
	loadRecords(t)
	k.Note("the next step's records, on their way during this one")
	k.And(mp, w0, ptx.Hex(0xffff))
	k.Shr(ln, w0, ptx.Imm(16))
	k.Add(end, mp, ln)
	k.ShflIdx(prev, end, k.laneM1, ptx.Imm(31), ptx.FullMask)
	k.Selp(prev, prevEnd, prev, k.isLane0)
	k.Note("the literals start at the end of the match before, the step's first at the step before's last")
	k.Sub(litLen, mp, prev)
	k.Sub(ml4, ln, ptx.Imm(4))
	k.extCount(e1, litLen)
	k.extCount(e2, ml4)
	k.Add(size, litLen, e1)
	k.Add(size, size, e2)
	k.Add(size, size, ptx.Imm(3))
	k.Selp(size, size, ptx.Imm(0), valid)
	k.Mov(incl, size)
	src := k.NewReg32()
	for d := 1; d < 32; d *= 2 {
		k.Sub(src, k.lane, ptx.Imm(d))
		k.ShflIdx(t, incl, src, ptx.Imm(31), ptx.FullMask)
		k.SetpU(ptx.GE, q, k.lane, ptx.Imm(d))
		k.If(q).Add(incl, incl, t)
	}
	k.Note("the sequences' lengths summed up to each lane's")
	k.Sub(start, k.out, size)
	k.Add(start, start, incl)
	k.ShflIdx(t, incl, ptx.Imm(31), ptx.Imm(31), ptx.FullMask)
	k.Add(k.out, k.out, t)
	k.SetpU(ptx.GT, q, k.out, ptx.Imm(maxPayload))
	k.If(q).BraUni(k.raw)
	k.Sub(t, nrec, b0)
	k.Sub(t, t, ptx.Imm(1))
	k.MinU(t, t, ptx.Imm(31))
	k.ShflIdx(prevEnd, end, t, ptx.Imm(31), ptx.FullMask)
	k.Add(b0, b0, ptx.Imm(32))

	k.Comment("each lane's token and offset")
	token, litAt, offAt := k.NewReg32(), k.NewReg32(), k.NewReg32()
	baddr := k.NewReg32()
	k.MinU(token, litLen, ptx.Imm(15))
	k.MinU(t, ml4, ptx.Imm(15))
	k.Mad(token, token, ptx.Imm(16), t)
	k.blkAt(baddr, start)
	k.If(valid).St(ptx.Shared, "u8", ptx.At(baddr, 0), token)
	k.Add(litAt, start, e1)
	k.Add(litAt, litAt, ptx.Imm(1))
	k.Add(offAt, litAt, litLen)
	k.blkAt(baddr, offAt)
	k.If(valid).St(ptx.Shared, "u8", ptx.At(baddr, 0), off)
	k.Shr(t, off, ptx.Imm(8))
	k.If(valid).St(ptx.Shared, "u8", ptx.At(baddr, 1), t)

	k.Comment("length bytes, where a lane has any: byte j of each is min(n-15-255j, 255)")
	noExt, ext, litsDone := k.NewLabel("no_ext"), k.NewLabel("ext"), k.NewLabel("lits_done")
	litIn, litByte := make([]ptx.Reg, inlineLits/2), make([]ptx.Reg, inlineLits/2)
	for j := range litIn {
		litIn[j], litByte[j] = k.NewPred(), k.NewReg32()
	}
	j, v := k.NewReg32(), k.NewReg32()
	k.Or(t, e1, e2)
	k.SetpU(ptx.NE, q, t, ptx.Imm(0))
	k.AndPred(q, q, valid)
	k.Ballot(t, q, ptx.FullMask)
	k.SetpU(ptx.EQ, q, t, ptx.Imm(0))
	k.If(q).BraUni(noExt)
	k.Mov(j, ptx.Imm(0))
	k.Place(ext)
	// storeLengthByte stores byte j of n's cnt length bytes at at+disp+j.
	storeLengthByte := func(n, at, cnt ptx.Reg, disp int64) {
		k.lengthByte(v, n, j)
		k.Add(t, at, j)
		k.blkAt(baddr, t)
		k.SetpU(ptx.LT, q, j, cnt)
		k.AndPred(q, q, valid)
		k.If(q).St(ptx.Shared, "u8", ptx.At(baddr, disp), v)
	}
	storeLengthByte(litLen, start, e1, 1)
	storeLengthByte(ml4, offAt, e2, 2)
	k.Add(j, j, ptx.Imm(1))
	k.MaxU(t, e1, e2)
	k.SetpU(ptx.LT, q, j, t)
	k.AndPred(q, q, valid)
	k.Ballot(t, q, ptx.FullMask)
	k.SetpU(ptx.NE, q, t, ptx.Imm(0))
	k.If(q).BraUni(ext)
	k.Place(noExt)

	k.Comment("literal runs of up to 16 bytes: each lane its own, all its loads before its stores")
	n, paddr := k.NewReg32(), k.NewReg32()
	inl, longs := k.NewPred(), k.NewReg32()
	k.SetpU(ptx.LE, inl, litLen, ptx.Imm(inlineLits))
	k.AndPred(inl, inl, valid)
	k.Selp(n, litLen, ptx.Imm(0), inl)
	k.SetpU(ptx.GT, q, litLen, ptx.Imm(inlineLits))
	k.AndPred(q, q, valid)
	k.Ballot(longs, q, ptx.FullMask)
	k.Note("the lanes with longer runs")
	k.pageAt(paddr, prev)
	k.blkAt(baddr, litAt)
	for half := 0; half < inlineLits; half += inlineLits / 2 {
		if half > 0 {
			k.SetpU(ptx.GT, q, n, ptx.Imm(half))
			k.Ballot(t, q, ptx.FullMask)
			k.SetpU(ptx.EQ, q, t, ptx.Imm(0))
			k.If(q).BraUni(litsDone)
			k.Note("no lane has more than 8")
		}
		for i := range inlineLits / 2 {
			k.SetpU(ptx.GT, litIn[i], n, ptx.Imm(half+i))
			k.If(litIn[i]).Ld(ptx.Shared, "u8", litByte[i], ptx.At(paddr, int64(half+i)))
		}
		for i := range inlineLits / 2 {
			k.If(litIn[i]).St(ptx.Shared, "u8", ptx.At(baddr, int64(half+i)), litByte[i])
		}
	}
	k.Place(litsDone)

	k.Comment("longer literal runs: the warp copies each, 128 bytes a step")
	runs, runsDone := k.NewLabel("runs"), k.NewLabel("runs_done")
	from, to, cnt := k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.SetpU(ptx.EQ, q, longs, ptx.Imm(0))
	k.If(q).BraUni(runsDone)
	k.Place(runs)
	k.lowestLane(t, longs)
	k.ShflIdx(from, prev, t, ptx.Imm(31), ptx.FullMask)
	k.ShflIdx(to, litAt, t, ptx.Imm(31), ptx.FullMask)
	k.ShflIdx(cnt, litLen, t, ptx.Imm(31), ptx.FullMask)
	k.copyLiterals(to, from, cnt)
	k.Sub(t, longs, ptx.Imm(1))
	k.And(longs, longs, t)
	k.SetpU(ptx.NE, q, longs, ptx.Imm(0))
	k.If(q).BraUni(runs)
	k.Place(runsDone)
	k.BraUni(batch)

	k.Place(last)
	k.Comment("PARSE-6: the last sequence holds the literals from the last match's end")
	k.Sub(litLen, ptx.Imm(PageSize), prevEnd)
	k.extCount(e1, litLen)
	k.Add(size, litLen, e1)
	k.Add(size, size, ptx.Imm(1))
	k.Add(t, k.out, size)
	k.SetpU(ptx.GT, q, t, ptx.Imm(maxPayload))
	k.If(q).BraUni(k.raw)
	k.Note("lane 0 the token, lanes 1 to e1 the length bytes")
	k.Sub(j, k.lane, ptx.Imm(1))
	k.lengthByte(v, litLen, j)
	k.MinU(token, litLen, ptx.Imm(15))
	k.Shl(token, token, ptx.Imm(4))
	k.Selp(v, token, v, k.isLane0)
	k.Add(t, k.out, k.lane)
	k.blkAt(baddr, t)
	k.SetpU(ptx.LE, q, k.lane, e1)
	k.If(q).St(ptx.Shared, "u8", ptx.At(baddr, 0), v)
	k.Add(to, k.out, e1)
	k.Add(to, to, ptx.Imm(1))
	k.copyLiterals(to, prevEnd, litLen)
	k.Add(k.out, k.out, size)
	k.copyOut()
	code := k.NewReg32()
	k.Or(code, k.out, ptx.Imm(kindLZ4<<MetaKindShift))
	k.If(k.isLane0).St(ptx.Global, "u32", ptx.At(k.metaAddr, 0), code)
	k.nextPage()
}

// lengthByte sets dst to byte j of the length bytes of a 4-bit field
// holding n (PARSE-7): min(n-15-255j, 255); only j < extBytes(n) is used.
func (k *pageKernel) lengthByte(dst, n, j ptx.Reg) {
	k.Mad(dst, j, ptx.Imm(-255), n)
	k.Sub(dst, dst, ptx.Imm(15))
	k.MinS(dst, dst, ptx.Imm(255))
}

// copyLiterals copies the cnt > 0 bytes of the page at from to the block
// at to, 128 a step, lane l bytes l, l+32, l+64 and l+96 of each, its four
// loads before its stores.
func (k *pageKernel) copyLiterals(to, from, cnt ptx.Reg) {
	const unroll = 4
	j0, rem, x := k.NewReg32(), k.NewReg32(), k.NewReg32()
	q := k.NewPred()
	in, v := make([]ptx.Reg, unroll), make([]ptx.Reg, unroll)
	for u := range in {
		in[u], v[u] = k.NewPred(), k.NewReg32()
	}
	paddr, baddr := k.NewReg32(), k.NewReg32()
	step := k.NewLabel("copy_lits")
	k.Mov(j0, ptx.Imm(0))
	k.Sub(rem, cnt, k.lane)
	k.Add(x, from, k.lane)
	k.pageAt(paddr, x)
	k.Add(x, to, k.lane)
	k.blkAt(baddr, x)
	k.Place(step)
	for u := range unroll {
		k.SetpS(ptx.GT, in[u], rem, ptx.Imm(32*u))
		k.If(in[u]).Ld(ptx.Shared, "u8", v[u], ptx.At(paddr, int64(32*u)))
	}
	for u := range unroll {
		k.If(in[u]).St(ptx.Shared, "u8", ptx.At(baddr, int64(32*u)), v[u])
	}
	k.Add(paddr, paddr, ptx.Imm(32*unroll))
	k.Add(baddr, baddr, ptx.Imm(32*unroll))
	k.Sub(rem, rem, ptx.Imm(32*unroll))
	k.Add(j0, j0, ptx.Imm(32*unroll))
	k.SetpU(ptx.LT, q, j0, cnt)
	k.If(q).BraUni(step)
}

// copyOut copies the block's out bytes from the warp's slice to the page's
// slot at dst and, with hostDst, to its slot there, 16 bytes a lane and
// step and the last out%16 byte by byte, so that nothing past the payload
// is written (GPU-5), all before the meta word: a host that reads the slot
// through the mapping gets it page by page as the kernel finishes them
// (GPU-1, RT-14).
func (k *pageKernel) copyOut() {
	k.WarpSync(ptx.FullMask)
	k.Note("the lanes' bytes of the block before other lanes load them")
	j0, j, whole, b := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	q, host := k.NewPred(), k.NewPred()
	baddr, to, off := k.NewReg32(), k.NewReg64(), k.NewReg64()
	v := ptx.Vec4{k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()}
	k.And(whole, k.out, ptx.Hex(0xfffffff0))
	k.Mov(j0, ptx.Imm(0))
	step, tail := k.NewLabel("copy_out"), k.NewLabel("copy_tail")
	k.SetpU(ptx.EQ, q, whole, ptx.Imm(0))
	k.If(q).BraUni(tail)
	k.Place(step)
	k.Mad(j, k.lane, ptx.Imm(16), j0)
	k.SetpU(ptx.LT, q, j, whole)
	k.blkAt(baddr, j)
	for w := range v {
		k.If(q).Ld(ptx.Shared, "u32", v[w], ptx.At(baddr, int64(4*w)))
	}
	k.Cvt64(off, j)
	k.Add(to, k.dstSlot, off)
	k.If(q).StV4(ptx.Global, ptx.At(to, 0), v)
	k.AndPred(host, q, k.toHost)
	k.Add(to, k.hostSlot, off)
	k.If(host).StV4(ptx.Global, ptx.At(to, 0), v)
	k.Add(j0, j0, ptx.Imm(512))
	k.SetpU(ptx.LT, q, j0, whole)
	k.If(q).BraUni(step)
	k.Place(tail)
	k.Add(j, whole, k.lane)
	k.SetpU(ptx.LT, q, j, k.out)
	k.blkAt(baddr, j)
	k.If(q).Ld(ptx.Shared, "u8", b, ptx.At(baddr, 0))
	k.Cvt64(off, j)
	k.Add(to, k.dstSlot, off)
	k.If(q).St(ptx.Global, "u8", ptx.At(to, 0), b)
	k.AndPred(host, q, k.toHost)
	k.Add(to, k.hostSlot, off)
	k.If(host).St(ptx.Global, "u8", ptx.At(to, 0), b)
	k.Note("the last out%16 bytes")
	done := k.NewLabel("copied")
	k.IfNot(k.toHost).BraUni(done)
	k.MembarSys()
	k.WarpSync(ptx.FullMask)
	k.Note("every lane's moves before lane 0's meta word, for a host that reads them as they come (RT-14)")
	k.Place(done)
}

// pageAt sets addr to the shared address of byte pos of the page copy.
func (k *pageKernel) pageAt(addr, pos ptx.Reg) {
	k.Add(addr, k.pg, pos)
}

// blkAt sets addr to the shared address of byte pos of the block, which
// writeBlock builds where the table was.
func (k *pageKernel) blkAt(addr, pos ptx.Reg) {
	k.Add(addr, k.table, pos)
}
