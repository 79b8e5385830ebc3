package gpuimpl

import (
	"fmt"

	"github.com/lz4warp/lz4warp/internal/fastlz4"
	"github.com/lz4warp/lz4warp/internal/ptx"
)

// The decode kernel's interface (spec/gpu.md, GPU-11).
const (
	// DecodeKernelName is the decode kernel's PTX entry point.
	DecodeKernelName = "lz4warp_decode"
	// DecodeThreads is the block size of a decode launch: four warps, one
	// page each.
	DecodeThreads = 128
	// DecodePagesPerBlock is the number of pages one block decodes.
	DecodePagesPerBlock = DecodeThreads / 32
	// DecodeWarpBytes is a warp's slice of shared memory: its page's 4,096
	// bytes and 96 more. An LZ4 payload is staged at the slice's end, below
	// decodePad zero bytes, and decoded in place; so it is at most
	// DecodeWarpBytes - decodePad = 4,160 bytes long (no block that decodes
	// to a page is longer than 4,114 bytes: a token and 17 length bytes on
	// 4,096 literals).
	DecodeWarpBytes = PageSize + 96
	// DecodeShared is the decode kernel's static shared memory: one slice
	// per warp.
	DecodeShared = DecodePagesPerBlock * DecodeWarpBytes
	// DescBytes is the size of one page's descriptor: the payload's offset
	// in src (a multiple of PayloadAlign), its length, its kind, a zero
	// word.
	DescBytes = 16
	// PayloadAlign aligns every payload in src, so that raw and same-filled
	// payloads are read a word or 16 bytes at a time.
	PayloadAlign = 16
	// DecodeMaxRegisters is the decode kernel's register budget (GPU-6): at
	// 64 registers a thread, an SM's 65,536 registers still hold 8 blocks,
	// 32 warps, whose latencies hide one another.
	DecodeMaxRegisters = 64
)

// Decode status codes (GPU-11): a page's status word is 0 when it decoded,
// else code<<24 | the bytes its block had written when the code was found.
const (
	DecodeOK          = 0
	DecodeCorrupt     = 1 // fastlz4.ErrCorrupt: the block is malformed
	DecodeShortBuffer = 2 // fastlz4.ErrShortBuffer: the block writes past the page
	DecodeShortPage   = 3 // the block ends before the page: fastlz4.ShortPageError
	DecodeBadPayload  = 4 // an unknown kind, a payload of the wrong length, or a block for the CPU
)

// decodePad is the zero bytes staged after an LZ4 payload: a sequence's
// token, literals and offset, at most 17 bytes past its start, are read
// at once before the checks that they lie inside the payload (GPU-11).
const decodePad = 32

// decodeMaxLength is fastlz4's bound on a length field: a longer one is
// corrupt, whatever follows.
const decodeMaxLength = fastlz4.MaxLengthField

// DecodeBlocks is the grid of a decode launch of npages pages.
func DecodeBlocks(npages int) int { return (npages + DecodePagesPerBlock - 1) / DecodePagesPerBlock }

// SplitStatus splits a status word into its code and the bytes written.
func SplitStatus(status uint32) (code, written int) {
	return int(status >> 24), int(status & (1<<24 - 1))
}

// StatusError is the error fastlz4.DecodePage returns for the LZ4 page
// whose status word is status, nil for DecodeOK; DecodeBadPayload has no
// error of its own (the payload's kind and length give it:
// fastlz4.PayloadError).
func StatusError(status uint32) error {
	code, n := SplitStatus(status)
	switch code {
	case DecodeOK:
		return nil
	case DecodeCorrupt:
		return fastlz4.ErrCorrupt
	case DecodeShortBuffer:
		return fastlz4.ErrShortBuffer
	case DecodeShortPage:
		return fastlz4.ShortPageError(n)
	}
	return fmt.Errorf("%w: status %#x", fastlz4.ErrBadKind, status)
}

// DecodePTX returns the PTX module holding the decode kernel for sm_<sm>
// (a target of GPU-2). The text is the same on every call.
func DecodePTX(sm int) string {
	m := ptx.NewModule(sm)
	buildDecodeKernel(m)
	return m.String()
}

// decodeKernel holds the registers that live across the decode kernel's
// phases; all but lane's derivatives hold the same value in every lane.
type decodeKernel struct {
	*ptx.Kernel
	lane, lane16 ptx.Reg // this lane and 16 × lane
	src          ptx.Reg // 64-bit global address of the payload
	buf          ptx.Reg // 32-bit shared address of the warp's slice: its page
	page         ptx.Reg // the page's index in the launch
	length       ptx.Reg // the payload's length
	// The parse's state: ip and op are the shared addresses of the next
	// payload byte and the next page byte, inLeft and outLeft the bytes
	// left of each. The page is built in place below the staged payload,
	// op <= ip at every sequence's start. Like buf and every shared
	// address, ip and op are 32-bit registers (GPU-4): they add and
	// compare without a carry.
	ip, op          ptx.Reg
	inLeft, outLeft ptx.Reg
	isLane0, q      ptx.Reg // predicates
	// fail[c] sets the status of code c with the bytes written so far and
	// stores it; badPayload stores DecodeBadPayload's.
	fail       map[int]ptx.Label
	badPayload ptx.Label
}

// buildDecodeKernel emits the decode kernel (GPU-11): warp w of block b
// decodes page 4b+w; an LZ4 payload is staged at the end of the warp's
// slice of shared memory with 16-byte loads, then every lane runs the same
// parse of it, with every bounds check of fastlz4's decoder in its order,
// and the lanes copy literals and matches together into the page, built in
// place at the slice's start, which they store to dst once the block has
// decoded to exactly a page.
func buildDecodeKernel(m *ptx.Module) {
	k := &decodeKernel{Kernel: m.Entry(DecodeKernelName, "desc", "src", "dst", "status", "npages")}
	smem := k.Shared("pages", DecodeShared, 16)

	k.Comment("GPU-11: warp w of block b decodes page 4b+w in its slice of shared memory")
	tid, warp, page := k.NewReg32(), k.NewReg32(), k.NewReg32()
	k.page = page
	k.lane, k.lane16 = k.NewReg32(), k.NewReg32()
	k.Mov(tid, ptx.TidX)
	k.And(k.lane, tid, ptx.Imm(31))
	k.Shl(k.lane16, k.lane, ptx.Imm(4))
	k.Shr(warp, tid, ptx.Imm(5))
	k.Mov(page, ptx.CtaidX)
	k.Mad(page, page, ptx.Imm(DecodePagesPerBlock), warp)
	k.isLane0, k.q = k.NewPred(), k.NewPred()
	k.SetpU(ptx.EQ, k.isLane0, k.lane, ptx.Imm(0))
	npages64, npages := k.NewReg64(), k.NewReg32()
	k.Emit("ld.param.u64", npages64, k.Param("npages"))
	k.Cvt32(npages, npages64)
	exit := k.NewLabel("exit")
	k.SetpU(ptx.GE, k.q, page, npages)
	k.If(k.q).BraUni(exit)
	k.Note("a warp past the last page of the launch")

	desc, tmp := k.NewReg64(), k.NewReg64()
	k.src, k.buf = k.NewReg64(), k.NewReg32()
	for _, p := range []struct {
		reg  ptx.Reg
		name string
	}{{desc, "desc"}, {k.src, "src"}} {
		k.Emit("ld.param.u64", p.reg, k.Param(p.name))
		k.CvtaGlobal(p.reg, p.reg)
	}
	k.MulWide(tmp, page, ptx.Imm(DescBytes))
	k.Add(desc, desc, tmp)
	k.Mov(k.buf, smem)
	k.Mad(k.buf, warp, ptx.Imm(DecodeWarpBytes), k.buf)
	d := ptx.Vec4{k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()}
	k.LdV4(ptx.Global, d, ptx.At(desc, 0))
	k.Note("the page's offset, length and kind")
	k.Cvt64(tmp, d[0])
	k.Add(k.src, k.src, tmp)
	k.length = d[1]
	kind := d[2]

	k.ip, k.op = k.NewReg32(), k.NewReg32()
	k.inLeft, k.outLeft = k.NewReg32(), k.NewReg32()
	k.fail = map[int]ptx.Label{}
	for _, c := range []int{DecodeCorrupt, DecodeShortBuffer, DecodeShortPage} {
		k.fail[c] = k.NewLabel(fmt.Sprintf("fail%d", c))
	}
	k.badPayload = k.NewLabel("bad_payload")
	lz4, same := k.NewLabel("lz4"), k.NewLabel("same")
	k.SetpU(ptx.EQ, k.q, kind, ptx.Imm(kindLZ4))
	k.If(k.q).BraUni(lz4)
	k.SetpU(ptx.EQ, k.q, kind, ptx.Imm(kindSame))
	k.If(k.q).BraUni(same)
	k.SetpU(ptx.NE, k.q, kind, ptx.Imm(kindRaw))
	k.If(k.q).BraUni(k.badPayload)
	k.SetpU(ptx.NE, k.q, k.length, ptx.Imm(PageSize))
	k.If(k.q).BraUni(k.badPayload)
	k.raw()
	k.Place(same)
	k.SetpU(ptx.NE, k.q, k.length, ptx.Imm(8))
	k.If(k.q).BraUni(k.badPayload)
	k.sameFilled()
	k.Place(lz4)
	k.SetpU(ptx.GT, k.q, k.length, ptx.Imm(maxDecodePayload))
	k.If(k.q).BraUni(k.badPayload)
	k.Note("longer than the slice: the CPU's to decode")
	k.stage()
	k.block()

	k.Comment("a failed page: its status holds the code and the bytes written; nothing of it is stored")
	status := k.NewReg32()
	for _, c := range []int{DecodeCorrupt, DecodeShortBuffer, DecodeShortPage} {
		k.Place(k.fail[c])
		k.Sub(status, ptx.Imm(PageSize|c<<24), k.outLeft)
		k.storeStatus(status)
		k.Ret()
	}
	k.Place(k.badPayload)
	k.Mov(status, ptx.Imm(DecodeBadPayload<<24))
	k.storeStatus(status)
	k.Place(exit)
	k.Ret()
}

// pageAddress is the global address of the page's element of the
// parameter name, an array of size bytes an element; the kernel computes
// it where it stores there, so that no register holds it while the page
// decodes.
func (k *decodeKernel) pageAddress(name string, size int) ptx.Reg {
	addr, off := k.NewReg64(), k.NewReg64()
	k.Emit("ld.param.u64", addr, k.Param(name))
	k.CvtaGlobal(addr, addr)
	k.MulWide(off, k.page, ptx.Imm(size))
	k.Add(addr, addr, off)
	return addr
}

// storeStatus stores the page's status word from lane 0.
func (k *decodeKernel) storeStatus(status ptx.Reg) {
	k.If(k.isLane0).St(ptx.Global, "u32", ptx.At(k.pageAddress("status", 4), 0), status)
}

// done stores the page's status word, DecodeOK, and ends the warp.
func (k *decodeKernel) done() {
	zero := k.NewReg32()
	k.Mov(zero, ptx.Imm(DecodeOK))
	k.storeStatus(zero)
	k.Ret()
}

// raw copies the 4,096-byte payload to the page's output, 16 bytes a lane
// and step.
func (k *decodeKernel) raw() {
	k.Comment("PAGE-6: a raw payload is the page")
	from, to := k.NewReg64(), k.NewReg64()
	off := k.NewReg64()
	k.Cvt64(off, k.lane16)
	k.Add(from, k.src, off)
	k.Add(to, k.pageAddress("dst", PageSize), off)
	v := make([]ptx.Vec4, PageSize/512)
	for i := range v {
		v[i] = ptx.Vec4{k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()}
		k.LdV4(ptx.Global, v[i], ptx.At(from, int64(512*i)))
	}
	for i := range v {
		k.StV4(ptx.Global, ptx.At(to, int64(512*i)), v[i])
	}
	k.done()
}

// sameFilled stores the 8-byte payload in every 8 bytes of the output
// (PAGE-3), 16 bytes a lane and step.
func (k *decodeKernel) sameFilled() {
	k.Comment("PAGE-3: a same-filled payload is the page's every 8-byte word")
	w := ptx.Vec4{k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()}
	k.Ld(ptx.Global, "u32", w[0], ptx.At(k.src, 0))
	k.Ld(ptx.Global, "u32", w[1], ptx.At(k.src, 4))
	k.Mov(w[2], w[0])
	k.Mov(w[3], w[1])
	to, off := k.NewReg64(), k.NewReg64()
	k.Cvt64(off, k.lane16)
	k.Add(to, k.pageAddress("dst", PageSize), off)
	for i := range PageSize / 512 {
		k.StV4(ptx.Global, ptx.At(to, int64(512*i)), w)
	}
	k.done()
}

// stageUnroll is the 16-byte loads a lane has in flight while staging.
const stageUnroll = 4

// stage copies the LZ4 payload (at most maxDecodePayload bytes) to the end
// of the warp's slice, at the multiple of 16 bytes that ends it 49 to 64
// bytes past the page's 4,096 and before the slice's last decodePad bytes:
// its whole 16-byte pieces with coalesced 16-byte loads, lane l piece l,
// l+32, ... (stageUnroll loads in flight), then its last length%16 bytes
// a byte a lane, and decodePad zero bytes after it. Nothing past the
// payload is read. It sets ip to the staged payload's first byte and op to
// the page's.
func (k *decodeKernel) stage() {
	k.Comment("GPU-11: the payload to the slice's end with 16-byte loads; the page is built in place below it")
	x, pieces, base, c, to := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	off, from := k.NewReg64(), k.NewReg64()
	k.Sub(x, ptx.Imm(maxDecodePayload), k.length)
	k.And(x, x, ptx.Hex(^uint32(PayloadAlign-1)))
	k.Add(k.ip, k.buf, x)
	k.Mov(k.op, k.buf)
	k.Mov(k.inLeft, k.length)
	k.Mov(k.outLeft, ptx.Imm(PageSize))
	k.Shr(pieces, k.length, ptx.Imm(4))
	k.Cvt64(off, k.lane16)
	k.Add(from, k.src, off)
	k.Add(to, k.ip, k.lane16)
	k.Mov(base, ptx.Imm(0))
	in, v := make([]ptx.Reg, stageUnroll), make([]ptx.Vec4, stageUnroll)
	for u := range in {
		in[u], v[u] = k.NewPred(), ptx.Vec4{k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()}
	}
	step, tail := k.NewLabel("stage"), k.NewLabel("stage_tail")
	k.SetpU(ptx.EQ, k.q, pieces, ptx.Imm(0))
	k.If(k.q).BraUni(tail)
	k.Place(step)
	k.Add(c, base, k.lane)
	for u := range stageUnroll {
		k.Add(x, c, ptx.Imm(32*u))
		k.SetpU(ptx.LT, in[u], x, pieces)
		k.If(in[u]).LdV4(ptx.Global, v[u], ptx.At(from, int64(512*u)))
	}
	for u := range stageUnroll {
		k.If(in[u]).StV4(ptx.Shared, ptx.At(to, int64(512*u)), v[u])
	}
	k.Add(from, from, ptx.Imm(512*stageUnroll))
	k.Add(to, to, ptx.Imm(512*stageUnroll))
	k.Add(base, base, ptx.Imm(32*stageUnroll))
	k.SetpU(ptx.LT, k.q, base, pieces)
	k.If(k.q).BraUni(step)
	k.Place(tail)
	b := k.NewReg32()
	k.And(x, k.length, ptx.Imm(PayloadAlign-1))
	k.SetpU(ptx.LT, in[0], k.lane, x)
	k.And(x, k.length, ptx.Hex(^uint32(PayloadAlign-1)))
	k.Add(x, x, k.lane)
	k.Cvt64(off, x)
	k.Add(from, k.src, off)
	k.Add(to, k.ip, x)
	k.If(in[0]).Ld(ptx.Global, "u8", b, ptx.At(from, 0))
	k.If(in[0]).St(ptx.Shared, "u8", ptx.At(to, 0), b)
	k.Add(to, k.ip, k.length)
	k.Add(to, to, k.lane)
	k.Mov(b, ptx.Imm(0))
	k.St(ptx.Shared, "u8", ptx.At(to, 0), b)
	k.Note("decodePad (32) zero bytes after the payload, a byte a lane")
	k.WarpSync(ptx.FullMask)
	k.Note("every lane's staged bytes before the parse reads them")
}

// failIf ends the page with code where p holds (in every lane alike).
func (k *decodeKernel) failIf(p ptx.Reg, code int) { k.If(p).BraUni(k.fail[code]) }

// nextByte loads the payload's next byte, which the caller has checked is
// there, into dst and steps past it.
func (k *decodeKernel) nextByte(dst ptx.Reg) {
	k.Ld(ptx.Shared, "u8", dst, ptx.At(k.ip, 0))
	k.Add(k.ip, k.ip, ptx.Imm(1))
	k.Sub(k.inLeft, k.inLeft, ptx.Imm(1))
}

// readLength adds the extension bytes of a 4-bit length field to v when
// it holds 15, as fastlz4's readLength: the payload ending first, or a sum
// past decodeMaxLength, is corrupt.
func (k *decodeKernel) readLength(v ptx.Reg) {
	done, more := k.NewLabel("length_done"), k.NewLabel("length_byte")
	b := k.NewReg32()
	k.SetpU(ptx.NE, k.q, v, ptx.Imm(15))
	k.If(k.q).BraUni(done)
	k.Place(more)
	k.SetpU(ptx.EQ, k.q, k.inLeft, ptx.Imm(0))
	k.failIf(k.q, DecodeCorrupt)
	k.nextByte(b)
	k.Add(v, v, b)
	k.SetpU(ptx.GT, k.q, v, ptx.Imm(decodeMaxLength))
	k.failIf(k.q, DecodeCorrupt)
	k.SetpU(ptx.EQ, k.q, b, ptx.Imm(255))
	k.If(k.q).BraUni(more)
	k.Place(done)
}

// copyUnroll is the bytes of a copy step per lane: a step moves 128 bytes.
const copyUnroll = 4

// block decodes the staged LZ4 payload sequence by sequence (PAGE-6) with
// the checks of fastlz4's sequence in their order, then stores the page.
// Decoding in place, a match whose last byte would reach the payload's
// next unread byte (op + length > ip) ends the page with DecodeBadPayload,
// the CPU's to decode: no block that decodes to a page does (the 49 to 64
// bytes the payload ends past the page exceed the most a valid block's
// later headers can outgrow its later output by), and a literal copy from
// ip to op <= ip moves its bytes forward.
func (k *decodeKernel) block() {
	k.Comment("PAGE-6: an LZ4 block, sequence by sequence, every check of fastlz4.sequence in its order")
	token, litLen, matchLen, offset := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	pos, back, x, to := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	fast, seq, tail := k.NewLabel("fast_sequence"), k.NewLabel("sequence"), k.NewLabel("block_tail")
	k.Place(fast)
	k.fastSequence(fast, seq)
	k.Place(seq)
	k.Note("any other sequence, with its checks one by one")
	k.SetpU(ptx.EQ, k.q, k.inLeft, ptx.Imm(0))
	k.failIf(k.q, DecodeCorrupt)
	k.Note("no token")
	k.nextByte(token)
	k.Shr(litLen, token, ptx.Imm(4))
	k.readLength(litLen)
	k.SetpU(ptx.GT, k.q, litLen, k.inLeft)
	k.failIf(k.q, DecodeCorrupt)
	k.Note("literals past the payload")
	k.SetpU(ptx.GT, k.q, litLen, k.outLeft)
	k.failIf(k.q, DecodeShortBuffer)
	k.Note("literals past the page")
	k.copyLiterals(litLen)
	k.Add(k.ip, k.ip, litLen)
	k.Add(k.op, k.op, litLen)
	k.Sub(k.inLeft, k.inLeft, litLen)
	k.Sub(k.outLeft, k.outLeft, litLen)
	k.SetpU(ptx.LT, k.q, k.inLeft, ptx.Imm(2))
	k.If(k.q).BraUni(tail)
	k.Note("the last sequence (literals only), or no room for an offset")
	k.Ld(ptx.Shared, "u8", offset, ptx.At(k.ip, 0))
	k.Ld(ptx.Shared, "u8", x, ptx.At(k.ip, 1))
	k.Add(k.ip, k.ip, ptx.Imm(2))
	k.Sub(k.inLeft, k.inLeft, ptx.Imm(2))
	k.Shl(x, x, ptx.Imm(8))
	k.Or(offset, offset, x)
	k.Sub(pos, ptx.Imm(PageSize), k.outLeft)
	k.Sub(back, pos, offset)
	k.SetpU(ptx.GE, k.q, back, pos)
	k.failIf(k.q, DecodeCorrupt)
	k.Note("an offset of 0 (back = pos) or before the page (back wraps past pos)")
	k.And(matchLen, token, ptx.Imm(15))
	k.readLength(matchLen)
	k.Add(matchLen, matchLen, ptx.Imm(minMatch))
	k.SetpU(ptx.GT, k.q, matchLen, k.outLeft)
	k.failIf(k.q, DecodeShortBuffer)
	k.Note("a match past the page")
	k.Add(to, k.op, k.lane)
	k.Add(k.op, k.op, matchLen)
	k.SetpU(ptx.GT, k.q, k.op, k.ip)
	k.If(k.q).BraUni(k.badPayload)
	k.Note("the match would reach the unread payload: the CPU's to decode")
	k.copyMatch(offset, matchLen, pos, back, to)
	k.Sub(k.outLeft, k.outLeft, matchLen)
	k.BraUni(fast)

	k.Place(tail)
	k.SetpU(ptx.NE, k.q, k.inLeft, ptx.Imm(0))
	k.failIf(k.q, DecodeCorrupt)
	k.Note("a byte left: no offset")
	k.SetpU(ptx.NE, k.q, k.outLeft, ptx.Imm(0))
	k.failIf(k.q, DecodeShortPage)
	k.Note("the block ends before the page")
	k.storePage()
}

// fastSequence decodes the common sequence in one stretch of code with one
// branch, for the GPU to overlap its loads: no length byte, fewer than 15
// literals, a match of 4 to 18 bytes no longer than its offset, none of
// fastlz4's checks failing, not the last sequence, and not reaching the
// unread payload. It loads the token, the offset and the literals at once
// (each within the payload and its decodePad zero bytes, as ip is at most
// the payload's end and they are at most 17 bytes past it), then checks
// that the sequence is such a one, else branches to general, which
// decodes it with its checks one by one; it copies the literals and the
// match a byte a lane, each after a bar.warp.sync, and branches to again.
func (k *decodeKernel) fastSequence(again, general ptx.Label) {
	token, lit, ml, offset, hi := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	pos, back, need, total, v, x := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	at, from, to := k.NewReg32(), k.NewReg32(), k.NewReg32()
	bad, p, inLit, inMatch := k.NewPred(), k.NewPred(), k.NewPred(), k.NewPred()
	k.Ld(ptx.Shared, "u8", token, ptx.At(k.ip, 0))
	k.Shr(lit, token, ptx.Imm(4))
	k.And(ml, token, ptx.Imm(15))
	k.Add(at, k.ip, lit)
	k.Ld(ptx.Shared, "u8", offset, ptx.At(at, 1))
	k.Ld(ptx.Shared, "u8", hi, ptx.At(at, 2))
	k.Add(from, k.ip, k.lane)
	k.SetpU(ptx.LT, inLit, k.lane, lit)
	k.If(inLit).Ld(ptx.Shared, "u8", v, ptx.At(from, 1))
	k.Add(need, lit, ptx.Imm(3))
	k.SetpU(ptx.GT, bad, need, k.inLeft)
	k.Note("no token, literals past the payload, the last sequence or no offset")
	k.SetpU(ptx.EQ, p, lit, ptx.Imm(15))
	k.OrPred(bad, bad, p)
	k.SetpU(ptx.EQ, p, ml, ptx.Imm(15))
	k.OrPred(bad, bad, p)
	k.Note("a length byte")
	k.Add(ml, ml, ptx.Imm(minMatch))
	k.Add(total, lit, ml)
	k.SetpU(ptx.GT, p, total, k.outLeft)
	k.OrPred(bad, bad, p)
	k.Note("past the page")
	k.Shl(hi, hi, ptx.Imm(8))
	k.Or(offset, offset, hi)
	k.Sub(pos, ptx.Imm(PageSize), k.outLeft)
	k.Add(pos, pos, lit)
	k.Sub(back, pos, offset)
	k.SetpU(ptx.GE, p, back, pos)
	k.OrPred(bad, bad, p)
	k.Note("an offset of 0 or before the page")
	k.SetpU(ptx.GT, p, ml, offset)
	k.OrPred(bad, bad, p)
	k.Note("a match that overlaps itself")
	k.Sub(x, ml, ptx.Imm(3))
	k.Add(at, k.op, x)
	k.SetpU(ptx.GT, p, at, k.ip)
	k.OrPred(bad, bad, p)
	k.Note("a match reaching the unread payload: op + ml - 3 > ip")
	k.If(bad).BraUni(general)
	k.WarpSync(ptx.FullMask)
	k.Note("the literals loaded before any lane stores over them, in place")
	k.Add(to, k.op, k.lane)
	k.If(inLit).St(ptx.Shared, "u8", ptx.At(to, 0), v)
	k.WarpSync(ptx.FullMask)
	k.Note("the literals other lanes stored before the match reads them")
	k.SetpU(ptx.LT, inMatch, k.lane, ml)
	k.Add(x, back, k.lane)
	k.Add(from, k.buf, x)
	k.If(inMatch).Ld(ptx.Shared, "u8", v, ptx.At(from, 0))
	k.Add(to, to, lit)
	k.If(inMatch).St(ptx.Shared, "u8", ptx.At(to, 0), v)
	k.Add(k.ip, k.ip, need)
	k.Sub(k.inLeft, k.inLeft, need)
	k.Add(k.op, k.op, total)
	k.Sub(k.outLeft, k.outLeft, total)
	k.BraUni(again)
}

// minMatch is LZ4's shortest match, which a match's 4-bit field counts
// from.
const minMatch = 4

// copyLiterals copies n bytes of the staged payload at ip to the page at
// op <= ip, 128 a step, lane l bytes l, l+32, l+64 and l+96 of each, a run
// of up to 32 bytes in one step of a byte a lane. A step's loads come
// before a bar.warp.sync and its stores after it, as its stores may
// overwrite payload bytes other lanes read (in place, op + n may pass ip);
// a later step's loads are past the earlier steps' stores.
func (k *decodeKernel) copyLiterals(n ptx.Reg) {
	left, x, from, to := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	in, v := make([]ptx.Reg, copyUnroll), make([]ptx.Reg, copyUnroll)
	for u := range in {
		in[u], v[u] = k.NewPred(), k.NewReg32()
	}
	step, done := k.NewLabel("literals"), k.NewLabel("literals_done")
	k.Add(from, k.ip, k.lane)
	k.Add(to, k.op, k.lane)
	k.SetpU(ptx.GT, k.q, n, ptx.Imm(32))
	k.If(k.q).BraUni(step)
	k.Note("a run of up to 32 bytes: a byte a lane")
	k.SetpU(ptx.LT, in[0], k.lane, n)
	k.If(in[0]).Ld(ptx.Shared, "u8", v[0], ptx.At(from, 0))
	k.WarpSync(ptx.FullMask)
	k.If(in[0]).St(ptx.Shared, "u8", ptx.At(to, 0), v[0])
	k.BraUni(done)
	k.Place(step)
	k.Mov(left, n)
	loop := k.NewLabel("literals_loop")
	k.Place(loop)
	for u := range copyUnroll {
		k.Add(x, k.lane, ptx.Imm(32*u))
		k.SetpU(ptx.LT, in[u], x, left)
		k.If(in[u]).Ld(ptx.Shared, "u8", v[u], ptx.At(from, int64(32*u)))
	}
	k.WarpSync(ptx.FullMask)
	for u := range copyUnroll {
		k.If(in[u]).St(ptx.Shared, "u8", ptx.At(to, int64(32*u)), v[u])
	}
	k.Add(from, from, ptx.Imm(32*copyUnroll))
	k.Add(to, to, ptx.Imm(32*copyUnroll))
	k.SetpU(ptx.GT, k.q, left, ptx.Imm(32*copyUnroll))
	k.Sub(left, left, ptx.Imm(32*copyUnroll))
	k.If(k.q).BraUni(loop)
	k.Place(done)
}

// copyMatch copies n bytes from offset bytes back to the page's byte pos,
// to holding its shared address plus lane and back pos - offset; the
// source overlaps the destination where offset < n.
// A step copies s = min(dist, 128, bytes left) bytes from dist bytes back,
// lane l bytes l, l+32, l+64 and l+96 of them, each a byte written before
// the step (s <= dist); dist starts at offset and doubles while under 128,
// always a multiple of offset, so that the byte dist back equals the one
// offset back: a match of offset 1 takes 5 small steps, then 128 bytes a
// step. A bar.warp.sync before each step orders the bytes other lanes
// wrote before it reads them.
func (k *decodeKernel) copyMatch(offset, n, pos, back, to ptx.Reg) {
	dist, s, left, at, x, from := k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()
	in, v := make([]ptx.Reg, copyUnroll), make([]ptx.Reg, copyUnroll)
	for u := range in {
		in[u], v[u] = k.NewPred(), k.NewReg32()
	}
	small := k.NewPred()
	step, done := k.NewLabel("match"), k.NewLabel("match_done")
	k.MinU(s, offset, ptx.Imm(32))
	k.SetpU(ptx.GT, small, n, s)
	k.If(small).BraUni(step)
	k.Note("a match of up to 32 bytes and no longer than its offset: a byte a lane")
	k.WarpSync(ptx.FullMask)
	k.Note("the bytes other lanes wrote before this match reads them")
	k.SetpU(ptx.LT, in[0], k.lane, n)
	k.Add(from, k.buf, back)
	k.Add(from, from, k.lane)
	k.If(in[0]).Ld(ptx.Shared, "u8", v[0], ptx.At(from, 0))
	k.If(in[0]).St(ptx.Shared, "u8", ptx.At(to, 0), v[0])
	k.BraUni(done)
	k.Place(step)
	k.Mov(dist, offset)
	k.Mov(left, n)
	k.Add(at, pos, k.lane)
	loop := k.NewLabel("match_step")
	k.Place(loop)
	k.MinU(s, dist, ptx.Imm(32*copyUnroll))
	k.MinU(s, s, left)
	k.WarpSync(ptx.FullMask)
	k.Note("the bytes other lanes wrote before this step reads them")
	for u := range copyUnroll {
		k.Add(x, k.lane, ptx.Imm(32*u))
		k.SetpU(ptx.LT, in[u], x, s)
	}
	k.Sub(x, at, dist)
	k.Note("pos + lane - dist, at least 0: dist <= pos")
	k.Add(from, k.buf, x)
	for u := range copyUnroll {
		k.If(in[u]).Ld(ptx.Shared, "u8", v[u], ptx.At(from, int64(32*u)))
	}
	for u := range copyUnroll {
		k.If(in[u]).St(ptx.Shared, "u8", ptx.At(to, int64(32*u)), v[u])
	}
	k.Add(to, to, s)
	k.Add(at, at, s)
	k.Sub(left, left, s)
	k.SetpU(ptx.LT, small, dist, ptx.Imm(32*copyUnroll))
	k.If(small).Shl(dist, dist, ptx.Imm(1))
	k.SetpU(ptx.NE, k.q, left, ptx.Imm(0))
	k.If(k.q).BraUni(loop)
	k.Place(done)
}

// storePage stores the decoded page from shared memory to its output, 16
// bytes a lane and step, and ends the warp with DecodeOK.
func (k *decodeKernel) storePage() {
	k.WarpSync(ptx.FullMask)
	k.Note("every lane's bytes of the page before other lanes load them")
	from, to, off := k.NewReg32(), k.NewReg64(), k.NewReg64()
	k.Add(from, k.buf, k.lane16)
	k.Cvt64(off, k.lane16)
	k.Add(to, k.pageAddress("dst", PageSize), off)
	v := make([]ptx.Vec4, PageSize/512)
	for i := range v {
		v[i] = ptx.Vec4{k.NewReg32(), k.NewReg32(), k.NewReg32(), k.NewReg32()}
		k.LdV4(ptx.Shared, v[i], ptx.At(from, int64(512*i)))
	}
	for i := range v {
		k.StV4(ptx.Global, ptx.At(to, int64(512*i)), v[i])
	}
	k.done()
}
