package ptxexec

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"sync/atomic"
	"unsafe"
)

const fullMask = 0xffffffff

// Shadow states of a shared-memory byte: never written in this block,
// written before the last bar.sync, or written by warp w since it (w+1).
const (
	shadowUnwritten = 0
	shadowSettled   = 255
)

// cta runs the blocks of one launch, one after another, on one goroutine.
type cta struct {
	k       *kernel
	threads int
	params  []uint64
	mem     *Memory
	limit   int64
	ctaid   int
	shared  []byte
	state   []byteState // per shared byte
	serial  uint32      // store instructions executed in this block
	epoch   uint32      // warp synchronisations in this block
	warps   []*warp
	cache   *allocation // the allocation of the last global access
	steps   int64
	counts  []int64 // per instruction, when profiling
}

func newCTA(k *kernel, grid, threads int, params []uint64, mem *Memory, limit int64) *cta {
	c := &cta{k: k, threads: threads, params: params, mem: mem, limit: limit,
		shared: make([]byte, k.sharedSize), state: make([]byteState, k.sharedSize)}
	n32 := k.nregs[class32] + numSpecials + len(k.consts32)
	n64 := k.nregs[class64] + len(k.consts64)
	for wid := 0; wid*32 < threads; wid++ {
		w := &warp{c: c, id: wid,
			r32: make([][32]uint32, n32), def32: make([]uint32, n32),
			r64: make([][32]uint64, n64), def64: make([]uint32, n64),
			pred: make([]uint32, k.nregs[classPred]), defP: make([]uint32, k.nregs[classPred]),
		}
		lanes := min(32, threads-wid*32)
		w.exists = uint32(1<<lanes - 1)
		base := k.nregs[class32]
		for l := 0; l < 32; l++ {
			w.r32[base+specTidX][l] = uint32(wid*32 + l)
			w.r32[base+specNtidX][l] = uint32(threads)
			w.r32[base+specNctaidX][l] = uint32(grid)
			w.r32[base+specLaneID][l] = uint32(l)
		}
		for i, v := range k.consts32 {
			for l := range 32 {
				w.r32[base+numSpecials+i][l] = v
			}
		}
		for i := base; i < n32; i++ {
			w.def32[i] = fullMask
		}
		for i, v := range k.consts64 {
			for l := range 32 {
				w.r64[k.nregs[class64]+i][l] = v
			}
			w.def64[k.nregs[class64]+i] = fullMask
		}
		c.warps = append(c.warps, w)
	}
	return c
}

// run executes block b: the warps in turn, each until it exits or reaches
// bar.sync; when every warp that has not exited waits at the barrier, they
// are released together.
func (c *cta) run(b int) error {
	c.ctaid = b
	clear(c.state)
	c.serial, c.epoch = 0, 0
	for _, w := range c.warps {
		w.reset(b)
	}
	for {
		waiting := 0
		for _, w := range c.warps {
			if w.live == 0 {
				continue
			}
			err := w.run()
			c.steps += w.steps
			w.steps = 0
			if err != nil {
				return err
			}
			if w.live != 0 {
				waiting++
			}
		}
		if waiting == 0 {
			return nil
		}
		// Every live warp waits at bar.sync: release them, and what was
		// written before the barrier is visible to every warp.
		for i := range c.state {
			if c.state[i].owner != shadowUnwritten {
				c.state[i].owner = shadowSettled
			}
		}
		for _, w := range c.warps {
			w.sync()
		}
	}
}

// byteState is what the executor knows of one byte of shared memory.
type byteState struct {
	owner  uint8  // shadowUnwritten, shadowSettled, or the writing warp + 1
	wLane  uint8  // the lane that wrote it last
	wEpoch uint32 // the writer warp's epoch at that write
	rEpoch uint32 // the epoch of rLanes
	rLanes uint32 // the lanes of the owner warp that read it in rEpoch
	stamp  uint32 // the store instruction that wrote it last
}

// warp is one warp's registers and control state.
type warp struct {
	c      *cta
	id     int
	exists uint32 // lanes inside the block
	r32    [][32]uint32
	r64    [][32]uint64
	pred   []uint32 // one bit per lane
	// Lanes that have written each register; read-only registers are
	// written in every lane.
	def32, def64, defP []uint32

	live       uint32     // lanes that have not exited
	waiting    uint32     // lanes blocked at a .sync instruction
	waitFor    [32]uint32 // the member mask each waiting lane waits for
	uniform    bool       // every live lane is at upc and none waits
	upc        int32      // the pc of every live lane when uniform
	pcs        [32]int32  // per-lane pcs when not uniform
	steps      int64
	total      int64
	epoch      uint32 // this warp's interval between synchronisations
	viaGeneric bool   // the access being checked is a generic one into shared memory
	t32        [32]uint32
	t64        [32]uint64
}

func (w *warp) reset(ctaid int) {
	n := w.c.k.nregs
	clear(w.def32[:n[class32]])
	clear(w.def64[:n[class64]])
	clear(w.defP)
	for l := range 32 {
		w.r32[n[class32]+specCtaidX][l] = uint32(ctaid)
	}
	w.live, w.waiting, w.uniform, w.upc, w.total = w.exists, 0, true, 0, 0
	w.sync()
}

// sync starts a new interval between synchronisations of the warp's lanes
// (bar.warp.sync, bar.sync): shared-memory accesses of different lanes in
// one interval are unordered (EXEC-7).
func (w *warp) sync() {
	w.c.epoch++
	w.epoch = w.c.epoch
}

func (w *warp) fault(in *inst, lane int, err error, format string, args ...any) *Fault {
	f := &Fault{Kernel: w.c.k.name, Line: int(in.line), Text: in.text, Block: w.c.ctaid, Thread: -1,
		Err: err, Detail: fmt.Sprintf(format, args...)}
	if lane >= 0 {
		f.Thread = w.id*32 + lane
	}
	return f
}

func (w *warp) memFault(in *inst, lane int, addr uint64, err error, format string, args ...any) *Fault {
	f := w.fault(in, lane, err, format, args...)
	f.Space, f.Addr = spaceNames[in.space], addr
	if w.viaGeneric {
		f.Space, f.Addr = "shared (generic)", addr+sharedWindow
	}
	return f
}

// advance moves the lanes of mask past the instruction at pc: those in
// taken to target, the others to pc+1.
func (w *warp) advance(pc int32, mask, taken uint32, target int32) {
	if w.uniform {
		switch taken {
		case 0:
			w.upc = pc + 1
		case mask:
			w.upc = target
		default:
			w.uniform = false
			for l := range 32 {
				if taken>>l&1 != 0 {
					w.pcs[l] = target
				} else {
					w.pcs[l] = pc + 1
				}
			}
		}
		return
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		if taken>>l&1 != 0 {
			w.pcs[l] = target
		} else {
			w.pcs[l] = pc + 1
		}
	}
}

// pick chooses what a divergent warp runs next: the lanes at the lowest pc
// among the lanes that do not wait (spec/executor.md, EXEC-4).
func (w *warp) pick() (int32, uint32, error) {
	runnable := w.live &^ w.waiting
	if runnable == 0 {
		return w.unblock()
	}
	lowest := int32(1<<31 - 1)
	for m := runnable; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		lowest = min(lowest, w.pcs[l])
	}
	var mask uint32
	for m := w.live; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		if w.pcs[l] == lowest {
			mask |= 1 << l
		}
	}
	w.waiting &^= mask
	if mask == w.live {
		w.uniform, w.upc = true, lowest
	}
	return lowest, mask, nil
}

// unblock runs when every live lane waits at a .sync instruction: members
// that have exited since are no longer waited for, so the lowest group whose
// remaining members are all there goes on; if there is none, nothing can.
func (w *warp) unblock() (int32, uint32, error) {
	for todo := w.waiting; todo != 0; {
		pc := w.pcs[bits.TrailingZeros32(todo)]
		var group, need uint32
		for m := todo; m != 0; m &= m - 1 {
			if l := bits.TrailingZeros32(m); w.pcs[l] == pc {
				group |= 1 << l
				need |= w.waitFor[l]
			}
		}
		if need&w.live&^group == 0 {
			w.waiting &^= group
			if group == w.live {
				w.uniform, w.upc = true, pc
			}
			return pc, group, nil
		}
		todo &^= group
	}
	l := bits.TrailingZeros32(w.waiting)
	in := &w.c.k.code[w.pcs[l]]
	return 0, 0, w.fault(in, -1, ErrDeadlock, "lanes %#08x wait here for member lanes that have left this path", w.waiting)
}

// memberMask reads a .sync instruction's member mask, which must be the same
// in every executing lane, and checks PTX's rules: every executing lane is a
// member, and every member that has not exited executes the instruction
// (EXEC-5). wait reports that members are still on another path.
func (w *warp) memberMask(in *inst, mask, exec uint32) (mm uint32, wait bool, err error) {
	reg := &w.r32[in.mask]
	first := bits.TrailingZeros32(exec)
	mm = reg[first]
	for m := exec; m != 0; m &= m - 1 {
		if l := bits.TrailingZeros32(m); reg[l] != mm {
			return 0, false, w.fault(in, l, ErrMemberMask, "member mask %#08x differs from lane %d's %#08x", reg[l], first, mm)
		}
	}
	if out := exec &^ mm; out != 0 {
		return 0, false, w.fault(in, bits.TrailingZeros32(out), ErrMemberMask, "lanes %#08x execute it but are not in the member mask %#08x", out, mm)
	}
	missing := mm & w.live &^ exec
	if missing == 0 {
		return mm, false, nil
	}
	if skip := missing & mask; skip != 0 {
		return 0, false, w.fault(in, bits.TrailingZeros32(skip), ErrMemberMask, "member lanes %#08x of mask %#08x skip it (guard false)", skip, mm)
	}
	return mm, true, nil
}

func (w *warp) set32(d int32, exec uint32, v *[32]uint32) {
	dst := &w.r32[d]
	if exec == fullMask {
		*dst = *v
	} else {
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			dst[l] = v[l]
		}
	}
	w.def32[d] |= exec
}

// out32 is where an instruction computes its 32-bit results: the
// destination itself when every lane executes (a lane reads its sources
// before it writes), else scratch space that commit32 merges.
func (w *warp) out32(d int32, exec uint32) *[32]uint32 {
	if exec == fullMask {
		return &w.r32[d]
	}
	return &w.t32
}

func (w *warp) commit32(d int32, exec uint32) {
	if exec != fullMask {
		dst := &w.r32[d]
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			dst[l] = w.t32[l]
		}
	}
	w.def32[d] |= exec
}

func (w *warp) out64(d int32, exec uint32) *[32]uint64 {
	if exec == fullMask {
		return &w.r64[d]
	}
	return &w.t64
}

func (w *warp) commit64(d int32, exec uint32) {
	if exec != fullMask {
		dst := &w.r64[d]
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			dst[l] = w.t64[l]
		}
	}
	w.def64[d] |= exec
}

func (w *warp) set64(d int32, exec uint32, v *[32]uint64) {
	dst := &w.r64[d]
	if exec == fullMask {
		*dst = *v
	} else {
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			dst[l] = v[l]
		}
	}
	w.def64[d] |= exec
}

func (w *warp) setPred(d int32, exec, v uint32) {
	w.pred[d] = w.pred[d]&^exec | v&exec
	w.defP[d] |= exec
}

var regPrefix = [...]string{"%p", "%h", "%r", "%rd"}

// checkReads reports a source register some executing lane never wrote
// (EXEC-6).
func (w *warp) checkReads(in *inst, exec uint32) error {
	for _, r := range in.reads {
		var def uint32
		switch r.class {
		case class32:
			def = w.def32[r.idx]
		case class64:
			def = w.def64[r.idx]
		case classPred:
			def = w.defP[r.idx]
		}
		if undef := exec &^ def; undef != 0 {
			return w.fault(in, bits.TrailingZeros32(undef), ErrUndefinedReg, "%s%d is read before it is written (lanes %#08x)",
				regPrefix[r.class], r.idx, undef)
		}
	}
	return nil
}

// run executes the warp until every lane has exited, or the warp reaches
// bar.sync, or a fault.
func (w *warp) run() error {
	c := w.c
	code := c.k.code
	for {
		var pc int32
		var mask uint32
		if w.uniform {
			if w.live == 0 {
				return nil
			}
			pc, mask = w.upc, w.live
		} else {
			if w.live == 0 {
				return nil
			}
			var err error
			if pc, mask, err = w.pick(); err != nil {
				return err
			}
		}
		in := &code[pc]
		if c.counts != nil {
			c.counts[pc]++
		}
		w.steps++
		w.total++
		if w.total > c.limit {
			return w.fault(in, -1, ErrStepLimit, "warp %d executed %d instructions", w.id, c.limit)
		}
		exec := mask
		if in.guard >= 0 {
			if undef := mask &^ w.defP[in.guard]; undef != 0 {
				return w.fault(in, bits.TrailingZeros32(undef), ErrUndefinedReg, "guard %%p%d is read before it is written (lanes %#08x)", in.guard, undef)
			}
			g := w.pred[in.guard]
			if in.guardNeg {
				g = ^g
			}
			exec &= g
		}
		if exec != 0 {
			if err := w.checkReads(in, exec); err != nil {
				return err
			}
		}
		switch in.op {
		case opBra:
			w.advance(pc, mask, exec, in.target)
			continue
		case opBraUni:
			if exec != 0 && exec != mask {
				return w.fault(in, -1, ErrDivergent, "bra.uni taken by lanes %#08x of %#08x", exec, mask)
			}
			w.advance(pc, mask, exec, in.target)
			continue
		case opRet:
			w.live &^= exec
			w.waiting &^= exec
			w.advance(pc, mask&^exec, 0, 0)
			continue
		case opBarSync:
			if exec == 0 {
				break
			}
			if !w.uniform || exec != w.live {
				return w.fault(in, -1, ErrDivergent, "bar.sync reached by lanes %#08x of the live %#08x", exec, w.live)
			}
			id := &w.r32[in.a]
			for m := exec; m != 0; m &= m - 1 {
				if l := bits.TrailingZeros32(m); id[l] >= 16 || id[l] != id[bits.TrailingZeros32(exec)] {
					return w.fault(in, l, ErrDivergent, "barrier %d: barriers are 0 to 15, the same in every lane", id[l])
				}
			}
			w.upc = pc + 1
			return nil
		}
		if exec == 0 {
			w.advance(pc, mask, 0, 0)
			continue
		}
		if err := w.exec(in, pc, mask, exec); err != nil {
			if err == errWait {
				continue
			}
			return err
		}
		w.advance(pc, mask, 0, 0)
	}
}

// errWait reports that the executing lanes wait at a .sync instruction.
var errWait = fmt.Errorf("wait")

// exec runs one non-branch instruction in the lanes of exec.
func (w *warp) exec(in *inst, pc int32, mask, exec uint32) error {
	var t *[32]uint32
	switch in.op {
	case opMov32:
		w.set32(in.d, exec, &w.r32[in.a])
	case opMov64, opCvtaGlobal:
		w.set64(in.d, exec, &w.r64[in.a])
	case opCvtaShared:
		t64 := w.out64(in.d, exec)
		a := &w.r64[in.a]
		for l := range t64 {
			t64[l] = a[l] + sharedWindow
		}
		w.commit64(in.d, exec)
	case opCvt64from32:
		t64 := w.out64(in.d, exec)
		a := &w.r32[in.a]
		for l := range t64 {
			t64[l] = uint64(a[l])
		}
		w.commit64(in.d, exec)
	case opCvt32from64:
		t = w.out32(in.d, exec)
		a := &w.r64[in.a]
		for l := range t {
			t[l] = uint32(a[l])
		}
		w.commit32(in.d, exec)
	case opAdd32:
		t = w.out32(in.d, exec)
		a, b := &w.r32[in.a], &w.r32[in.b]
		for l := range t {
			t[l] = a[l] + b[l]
		}
		w.commit32(in.d, exec)
	case opSub32:
		t = w.out32(in.d, exec)
		a, b := &w.r32[in.a], &w.r32[in.b]
		for l := range t {
			t[l] = a[l] - b[l]
		}
		w.commit32(in.d, exec)
	case opMulLo32:
		t = w.out32(in.d, exec)
		a, b := &w.r32[in.a], &w.r32[in.b]
		for l := range t {
			t[l] = a[l] * b[l]
		}
		w.commit32(in.d, exec)
	case opMadLo32:
		t = w.out32(in.d, exec)
		a, b, cc := &w.r32[in.a], &w.r32[in.b], &w.r32[in.c]
		for l := range t {
			t[l] = a[l]*b[l] + cc[l]
		}
		w.commit32(in.d, exec)
	case opMulWide32:
		t64 := w.out64(in.d, exec)
		a, b := &w.r32[in.a], &w.r32[in.b]
		for l := range t64 {
			t64[l] = uint64(a[l]) * uint64(b[l])
		}
		w.commit64(in.d, exec)
	case opAdd64:
		t64 := w.out64(in.d, exec)
		a, b := &w.r64[in.a], &w.r64[in.b]
		for l := range t64 {
			t64[l] = a[l] + b[l]
		}
		w.commit64(in.d, exec)
	case opShl32:
		t = w.out32(in.d, exec)
		// PTX clamps shift counts above the width: the result is 0. Go's
		// shifts of 32 or more also give 0.
		a, b := &w.r32[in.a], &w.r32[in.b]
		for l := range t {
			t[l] = a[l] << b[l]
		}
		w.commit32(in.d, exec)
	case opShr32:
		t = w.out32(in.d, exec)
		a, b := &w.r32[in.a], &w.r32[in.b]
		for l := range t {
			t[l] = a[l] >> b[l]
		}
		w.commit32(in.d, exec)
	case opAnd32:
		t = w.out32(in.d, exec)
		a, b := &w.r32[in.a], &w.r32[in.b]
		for l := range t {
			t[l] = a[l] & b[l]
		}
		w.commit32(in.d, exec)
	case opOr32:
		t = w.out32(in.d, exec)
		a, b := &w.r32[in.a], &w.r32[in.b]
		for l := range t {
			t[l] = a[l] | b[l]
		}
		w.commit32(in.d, exec)
	case opXor32:
		t = w.out32(in.d, exec)
		a, b := &w.r32[in.a], &w.r32[in.b]
		for l := range t {
			t[l] = a[l] ^ b[l]
		}
		w.commit32(in.d, exec)
	case opNot32:
		t = w.out32(in.d, exec)
		a := &w.r32[in.a]
		for l := range t {
			t[l] = ^a[l]
		}
		w.commit32(in.d, exec)
	case opNeg32:
		t = w.out32(in.d, exec)
		a := &w.r32[in.a]
		for l := range t {
			t[l] = -a[l]
		}
		w.commit32(in.d, exec)
	case opMinU32:
		t = w.out32(in.d, exec)
		a, b := &w.r32[in.a], &w.r32[in.b]
		for l := range t {
			t[l] = min(a[l], b[l])
		}
		w.commit32(in.d, exec)
	case opMaxU32:
		t = w.out32(in.d, exec)
		a, b := &w.r32[in.a], &w.r32[in.b]
		for l := range t {
			t[l] = max(a[l], b[l])
		}
		w.commit32(in.d, exec)
	case opMinS32:
		t = w.out32(in.d, exec)
		a, b := &w.r32[in.a], &w.r32[in.b]
		for l := range t {
			t[l] = uint32(min(int32(a[l]), int32(b[l])))
		}
		w.commit32(in.d, exec)
	case opMaxS32:
		t = w.out32(in.d, exec)
		a, b := &w.r32[in.a], &w.r32[in.b]
		for l := range t {
			t[l] = uint32(max(int32(a[l]), int32(b[l])))
		}
		w.commit32(in.d, exec)
	case opSelp32:
		t = w.out32(in.d, exec)
		a, b, p := &w.r32[in.a], &w.r32[in.b], w.pred[in.c]
		for l := range t {
			if p>>l&1 != 0 {
				t[l] = a[l]
			} else {
				t[l] = b[l]
			}
		}
		w.commit32(in.d, exec)
	case opShfRClamp:
		t = w.out32(in.d, exec)
		lo, hi, n := &w.r32[in.a], &w.r32[in.b], &w.r32[in.c]
		for l := range t {
			t[l] = uint32((uint64(hi[l])<<32 | uint64(lo[l])) >> min(n[l], 32))
		}
		w.commit32(in.d, exec)
	case opBfind:
		t = w.out32(in.d, exec)
		a := &w.r32[in.a]
		for l := range t {
			t[l] = uint32(bits.Len32(a[l])) - 1 // 0xffffffff for 0
		}
		w.commit32(in.d, exec)
	case opBfindShift:
		t = w.out32(in.d, exec)
		a := &w.r32[in.a]
		for l := range t {
			v := uint32(0xffffffff)
			if a[l] != 0 {
				v = uint32(bits.LeadingZeros32(a[l]))
			}
			t[l] = v // after the read: t may be a itself
		}
		w.commit32(in.d, exec)
	case opBrev:
		t = w.out32(in.d, exec)
		a := &w.r32[in.a]
		for l := range t {
			t[l] = bits.Reverse32(a[l])
		}
		w.commit32(in.d, exec)
	case opClz:
		t = w.out32(in.d, exec)
		a := &w.r32[in.a]
		for l := range t {
			t[l] = uint32(bits.LeadingZeros32(a[l]))
		}
		w.commit32(in.d, exec)
	case opPopc:
		t = w.out32(in.d, exec)
		a := &w.r32[in.a]
		for l := range t {
			t[l] = uint32(bits.OnesCount32(a[l]))
		}
		w.commit32(in.d, exec)
	case opAndPred:
		w.setPred(in.d, exec, w.pred[in.a]&w.pred[in.b])
	case opOrPred:
		w.setPred(in.d, exec, w.pred[in.a]|w.pred[in.b])
	case opNotPred:
		w.setPred(in.d, exec, ^w.pred[in.a])
	case opSetpU32:
		w.setPred(in.d, exec, compareU(in.cmp, &w.r32[in.a], &w.r32[in.b]))
	case opSetpS32:
		w.setPred(in.d, exec, compareS32(in.cmp, &w.r32[in.a], &w.r32[in.b]))
	case opSetpU64:
		w.setPred(in.d, exec, compareU(in.cmp, &w.r64[in.a], &w.r64[in.b]))
	case opLdParam64:
		v := w.c.params[in.base]
		for l := range w.t64 {
			w.t64[l] = v
		}
		w.set64(in.d, exec, &w.t64)
	case opLd:
		t = &w.t32
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			b, err := w.access(in, l, w.addr(in, l))
			if err != nil {
				return err
			}
			switch in.width {
			case 1:
				t[l] = uint32(b[0])
			case 2:
				t[l] = uint32(binary.LittleEndian.Uint16(b))
			default:
				t[l] = binary.LittleEndian.Uint32(b)
			}
		}
		w.set32(in.d, exec, t)
	case opLdV4:
		var v [4][32]uint32
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			b, err := w.access(in, l, w.addr(in, l))
			if err != nil {
				return err
			}
			for j := range 4 {
				v[j][l] = binary.LittleEndian.Uint32(b[4*j:])
			}
		}
		for j := range 4 {
			w.set32(in.vec[j], exec, &v[j])
		}
	case opSt:
		w.c.serial++
		src := &w.r32[in.a]
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			var v [4]byte
			binary.LittleEndian.PutUint32(v[:], src[l])
			if err := w.store(in, l, w.addr(in, l), v[:in.width]); err != nil {
				return err
			}
		}
		// After the bounds checks, which come first; a fault voids the
		// launch's memory anyway.
		if in.space != spaceShared && exec&(exec-1) != 0 {
			if err := w.storeConflicts(in, exec, uint64(in.width), func(l int, i uint64) byte { return byte(src[l] >> (8 * i)) }); err != nil {
				return err
			}
		}
	case opStV4:
		w.c.serial++
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			var v [16]byte
			for j := range 4 {
				binary.LittleEndian.PutUint32(v[4*j:], w.r32[in.vec[j]][l])
			}
			if err := w.store(in, l, w.addr(in, l), v[:]); err != nil {
				return err
			}
		}
		if in.space != spaceShared && exec&(exec-1) != 0 {
			vec := &in.vec
			byteAt := func(l int, i uint64) byte { return byte(w.r32[vec[i/4]][l] >> (8 * (i % 4))) }
			if err := w.storeConflicts(in, exec, 16, byteAt); err != nil {
				return err
			}
		}
	case opAtomInc:
		// Lane by lane, in lane order (PTX leaves the order open); atomic
		// against the other blocks' goroutines.
		t = &w.t32
		bound := &w.r32[in.a]
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			b, err := w.access(in, l, w.addr(in, l))
			if err != nil {
				return err
			}
			t[l] = atomicInc(b, bound[l])
		}
		w.set32(in.d, exec, t)
	case opMatchAny, opBallot, opShflIdx, opWarpSync:
		mm, wait, err := w.memberMask(in, mask, exec)
		if err != nil {
			return err
		}
		if wait {
			for m := exec; m != 0; m &= m - 1 {
				w.waitFor[bits.TrailingZeros32(m)] = mm
			}
			w.waiting |= exec
			w.advance(pc, mask&^exec, 0, 0)
			return errWait
		}
		if err := w.warpOp(in, exec); err != nil {
			return err
		}
	case opMembar:
		// The executor runs one thread's memory operations at a time, in
		// program order: every observer sees them in that order already.
	default:
		return w.fault(in, -1, ErrUnknownInstruction, "opcode %d has no implementation", in.op)
	}
	return nil
}

// warpOp runs a warp-wide instruction whose members all execute it.
func (w *warp) warpOp(in *inst, exec uint32) error {
	t := &w.t32
	switch in.op {
	case opMatchAny:
		a := &w.r32[in.a]
		for todo := exec; todo != 0; {
			v := a[bits.TrailingZeros32(todo)]
			var peers uint32
			for o := range 32 {
				peers |= b2u(a[o] == v) << o
			}
			peers &= exec
			for n := peers; n != 0; n &= n - 1 {
				t[bits.TrailingZeros32(n)] = peers
			}
			todo &^= peers
		}
		w.set32(in.d, exec, t)
	case opBallot:
		p := w.pred[in.a]
		if in.negPred {
			p = ^p
		}
		p &= exec
		for l := range t {
			t[l] = p
		}
		w.set32(in.d, exec, t)
	case opShflIdx:
		// PTX ISA, shfl.sync .idx: c holds the clamp (bits 0-4) and the
		// segment mask (bits 8-12).
		a, b, cc := &w.r32[in.a], &w.r32[in.b], &w.r32[in.c]
		var src [32]int
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			seg := cc[l] >> 8 & 31
			maxLane := uint32(l)&seg | cc[l]&31&^seg
			j := uint32(l)&seg | b[l]&31&^seg
			if j > maxLane {
				j = uint32(l)
			}
			src[l] = int(j)
		}
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			if exec>>src[l]&1 == 0 {
				// Reading a lane that does not execute the shuffle is
				// undefined in PTX: report it rather than invent a value.
				return w.fault(in, l, ErrMemberMask, "source lane %d does not execute the shuffle", src[l])
			}
			t[l] = a[src[l]]
		}
		w.set32(in.d, exec, t)
	case opWarpSync:
		w.sync()
	}
	return nil
}

// compareU compares lane by lane and returns the lanes where the comparison
// holds; uint32 and uint64 get instantiations of their own.
func compareU[T uint32 | uint64](cmp uint8, a, b *[32]T) uint32 {
	var r uint32
	switch cmp {
	case cmpEQ:
		for l := range 32 {
			r |= b2u(a[l] == b[l]) << l
		}
	case cmpNE:
		for l := range 32 {
			r |= b2u(a[l] != b[l]) << l
		}
	case cmpLT:
		for l := range 32 {
			r |= b2u(a[l] < b[l]) << l
		}
	case cmpLE:
		for l := range 32 {
			r |= b2u(a[l] <= b[l]) << l
		}
	case cmpGT:
		for l := range 32 {
			r |= b2u(a[l] > b[l]) << l
		}
	case cmpGE:
		for l := range 32 {
			r |= b2u(a[l] >= b[l]) << l
		}
	}
	return r
}

func compareS32(cmp uint8, a, b *[32]uint32) uint32 {
	var x, y [32]uint32
	for l := range 32 {
		// Flipping the sign bit maps signed order onto unsigned order.
		x[l], y[l] = a[l]^1<<31, b[l]^1<<31
	}
	return compareU(cmp, &x, &y)
}

// atomicInc is atom.inc on the 4-byte aligned little-endian word b: it
// returns the old word w and stores w >= bound ? 0 : w+1.
func atomicInc(b []byte, bound uint32) uint32 {
	p := (*uint32)(unsafe.Pointer(&b[0]))
	for {
		raw := atomic.LoadUint32(p)
		old := littleEndian(raw)
		next := old + 1
		if old >= bound {
			next = 0
		}
		if atomic.CompareAndSwapUint32(p, raw, littleEndian(next)) {
			return old
		}
	}
}

// littleEndian converts between a native 32-bit word and the same bytes
// read as little-endian (a swap on big-endian machines, either way).
func littleEndian(x uint32) uint32 {
	if nativeLittleEndian {
		return x
	}
	return bits.ReverseBytes32(x)
}

var nativeLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// addr is lane l's address of in's memory operand: its base register plus
// its offset, in 64 bits, so that a 32-bit shared base plus an offset that
// would wrap 32 bits lies past shared memory and faults, as does a
// negative offset past the base (it wraps 64 bits).
func (w *warp) addr(in *inst, l int) uint64 {
	if in.base32 {
		return uint64(w.r32[in.base][l]) + uint64(in.off)
	}
	return w.r64[in.base][l] + uint64(in.off)
}

// access checks a load of in.width bytes at addr by lane l and returns the
// bytes (EXEC-7).
func (w *warp) access(in *inst, l int, addr uint64) ([]byte, error) {
	width := uint64(in.width)
	if addr&(width-1) != 0 {
		return nil, w.memFault(in, l, addr, ErrMisaligned, "%d-byte access not aligned to %d", width, width)
	}
	shared := in.space == spaceShared
	w.viaGeneric = in.space == spaceGeneric && addr-sharedWindow < sharedWindowSize
	if w.viaGeneric {
		shared, addr = true, addr-sharedWindow
	}
	if shared {
		c := w.c
		if addr >= uint64(len(c.shared)) || addr+width > uint64(len(c.shared)) {
			return nil, w.memFault(in, l, addr, ErrOutOfBounds, "outside the %d bytes of shared memory", len(c.shared))
		}
		own := uint8(w.id + 1)
		for i := addr; i < addr+width; i++ {
			st := &c.state[i]
			switch st.owner {
			case own, shadowSettled:
			case shadowUnwritten:
				return nil, w.memFault(in, l, i, ErrUninitShared, "byte never written in this block")
			default:
				return nil, w.memFault(in, l, i, ErrSharedRace, "byte written by warp %d with no bar.sync between", st.owner-1)
			}
			if st.wEpoch == w.epoch && int(st.wLane) != l {
				return nil, w.memFault(in, l, i, ErrSharedRace, "byte written by lane %d of this warp with no bar.warp.sync between", st.wLane)
			}
			if st.rEpoch != w.epoch {
				st.rEpoch, st.rLanes = w.epoch, 0
			}
			st.rLanes |= 1 << l
		}
		return c.shared[addr : addr+width], nil
	}
	return w.global(in, l, addr, width)
}

func (w *warp) global(in *inst, l int, addr, width uint64) ([]byte, error) {
	a := w.c.cache
	if a == nil || addr < a.base || addr-a.base+width > uint64(len(a.data)) {
		a = w.c.mem.find(addr)
		if a == nil || addr-a.base >= uint64(len(a.data)) || addr-a.base+width > uint64(len(a.data)) {
			return nil, w.memFault(in, l, addr, ErrOutOfBounds, "%d bytes outside every global allocation", width)
		}
		w.c.cache = a
	}
	off := addr - a.base
	return a.data[off : off+width], nil
}

// store writes v at addr for lane l: bounds, alignment, and in shared
// memory, races with other warps and with other lanes of the same store.
func (w *warp) store(in *inst, l int, addr uint64, v []byte) error {
	width := uint64(len(v))
	if addr&(width-1) != 0 {
		return w.memFault(in, l, addr, ErrMisaligned, "%d-byte access not aligned to %d", width, width)
	}
	shared := in.space == spaceShared
	w.viaGeneric = in.space == spaceGeneric && addr-sharedWindow < sharedWindowSize
	if w.viaGeneric {
		shared, addr = true, addr-sharedWindow
	}
	if !shared {
		b, err := w.global(in, l, addr, width)
		if err != nil {
			return err
		}
		copy(b, v)
		return nil
	}
	c := w.c
	if addr >= uint64(len(c.shared)) || addr+width > uint64(len(c.shared)) {
		return w.memFault(in, l, addr, ErrOutOfBounds, "outside the %d bytes of shared memory", len(c.shared))
	}
	own := uint8(w.id + 1)
	for i, x := range v {
		at := addr + uint64(i)
		st := &c.state[at]
		switch st.owner {
		case own, shadowSettled, shadowUnwritten:
		default:
			return w.memFault(in, l, at, ErrSharedRace, "byte written by warp %d with no bar.sync between", st.owner-1)
		}
		if st.stamp == c.serial {
			if in.anyLane {
				continue // a lower lane of this relaxed store has written it: it wins
			}
			if c.shared[at] != x {
				return w.memFault(in, l, at, ErrSharedRace, "lane %d of this store wrote a different value", st.wLane)
			}
		} else if st.wEpoch == w.epoch && int(st.wLane) != l && c.shared[at] != x {
			return w.memFault(in, l, at, ErrSharedRace, "byte written by lane %d of this warp with no bar.warp.sync between", st.wLane)
		}
		if st.rEpoch == w.epoch {
			if others := st.rLanes &^ (1 << l); others != 0 {
				return w.memFault(in, l, at, ErrSharedRace, "byte read by lanes %#08x of this warp with no bar.warp.sync between", others)
			}
		}
		st.owner, st.wLane, st.wEpoch, st.stamp = own, uint8(l), w.epoch, c.serial
		c.shared[at] = x
	}
	return nil
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// storeConflicts reports lanes of one global (or generic) store that write
// different values to the same byte, which the GPU resolves in no defined
// order (EXEC-7). Coalesced stores, whose addresses rise with the lane, are
// recognised in one pass.
func (w *warp) storeConflicts(in *inst, exec uint32, width uint64, byteAt func(lane int, i uint64) byte) error {
	rising, prev, first := true, uint64(0), true
	for m := exec; m != 0; m &= m - 1 {
		a := w.addr(in, bits.TrailingZeros32(m))
		if !first && a < prev+width {
			rising = false
			break
		}
		prev, first = a, false
	}
	if rising {
		return nil
	}
	for m := exec; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		a := w.addr(in, l)
		for n := m & (m - 1); n != 0; n &= n - 1 {
			o := bits.TrailingZeros32(n)
			b := w.addr(in, o)
			for x := max(a, b); x < min(a, b)+width && x < a+width && x < b+width; x++ {
				if byteAt(l, x-a) != byteAt(o, x-b) {
					return w.memFault(in, o, x, ErrStoreConflict, "lane %d of this store writes a different value to the same byte", l)
				}
			}
		}
	}
	return nil
}
