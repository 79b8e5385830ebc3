package ptxexec

import (
	"encoding/binary"
	"errors"
	"testing"
)

// runWarp runs a one-warp kernel whose body stores %r20 and %r21 of every
// lane to out[8*tid] and out[8*tid+4], and returns them.
func runWarp(t *testing.T, threads int, lines ...string) ([]uint32, []uint32, error) {
	t.Helper()
	all := body(prologue, lines, []string{
		"mul.wide.u32 %rd15, %r0, 8;",
		"add.u64 %rd15, %rd1, %rd15;",
		"st.global.u32 [%rd15], %r20;",
		"st.global.u32 [%rd15+4], %r21;",
		"ret;",
	})
	m := mustLoad(t, entry([]string{"in", "out"}, 0, all...))
	mem := NewMemory()
	in, out := mem.Alloc(256), mem.Alloc(8*threads)
	if err := m.Launch("t", 1, threads, []uint64{in, out}, mem); err != nil {
		return nil, nil, err
	}
	ob := mem.Bytes(out)
	a, b := make([]uint32, threads), make([]uint32, threads)
	for i := range threads {
		a[i] = binary.LittleEndian.Uint32(ob[8*i:])
		b[i] = binary.LittleEndian.Uint32(ob[8*i+4:])
	}
	return a, b, nil
}

func wantLanes(t *testing.T, what string, got []uint32, want func(l int) uint32) {
	t.Helper()
	for l, g := range got {
		if w := want(l); g != w {
			t.Errorf("%s lane %d: got %#x, want %#x", what, l, g, w)
		}
	}
}

// Checks EXEC-5: match.any, ballot (with a negated predicate), shfl.idx with
// its clamp and segment rules, and bar.warp.sync.
func TestWarpForms(t *testing.T) {
	a, b, err := runWarp(t, 32,
		"and.b32 %r1, %r0, 3;",
		"match.any.sync.b32 %r20, %r1, 0xffffffff;", // lanes with the same lane%4
		"setp.lt.u32 %p1, %r1, 1;",
		"vote.sync.ballot.b32 %r21, !%p1, 0xffffffff;", // lanes with lane%4 != 0
		"bar.warp.sync 0xffffffff;",
	)
	if err != nil {
		t.Fatal(err)
	}
	wantLanes(t, "match.any", a, func(l int) uint32 { return 0x11111111 << (l % 4) })
	wantLanes(t, "ballot", b, func(int) uint32 { return 0xeeeeeeee })

	a, b, err = runWarp(t, 32,
		"mul.lo.u32 %r1, %r0, 10;",
		"mov.u32 %r2, 40;", // 40 & 31 = 8
		"shfl.sync.idx.b32 %r20, %r1, %r2, 31, 0xffffffff;",
		"sub.u32 %r3, 31, %r0;",
		"shfl.sync.idx.b32 %r21, %r1, %r3, 0x181f, 0xffffffff;", // segments of 8 lanes
	)
	if err != nil {
		t.Fatal(err)
	}
	wantLanes(t, "shfl from lane 40", a, func(int) uint32 { return 80 })
	// In segments of 8, source lane (31-l)&7 of the lane's own segment.
	wantLanes(t, "shfl in segments", b, func(l int) uint32 { return uint32(10 * (l&^7 | (31-l)&7)) })

	a, _, err = runWarp(t, 32,
		"mul.lo.u32 %r1, %r0, 10;",
		"mov.u32 %r21, 0;",
		"shfl.sync.idx.b32 %r20, %r1, 7, 3, 0xffffffff;", // clamp 3: lanes 0-3 would read lane 7 > 3: own value
	)
	if err != nil {
		t.Fatal(err)
	}
	wantLanes(t, "shfl beyond the clamp", a, func(l int) uint32 { return uint32(10 * l) })

	// Part of a warp with a member mask of the executing lanes.
	a, b, err = runWarp(t, 32,
		"setp.lt.u32 %p1, %r0, 8;",
		"mov.u32 %r20, 0;",
		"mov.u32 %r21, 0;",
		"@%p1 match.any.sync.b32 %r20, 5, 0xff;",
		"@%p1 vote.sync.ballot.b32 %r21, %p1, 0xff;",
	)
	if err != nil {
		t.Fatal(err)
	}
	wantLanes(t, "match.any of 8 lanes", a, func(l int) uint32 { return map[bool]uint32{true: 0xff}[l < 8] })
	wantLanes(t, "ballot of 8 lanes", b, func(l int) uint32 { return map[bool]uint32{true: 0xff}[l < 8] })
}

// Checks EXEC-5 and EXEC-6: member-mask misuse and reads of registers never
// written are faults, never invented values.
func TestWarpFormFaults(t *testing.T) {
	cases := []struct {
		name string
		line []string
		err  error
	}{
		{"executing lane outside the mask", []string{"vote.sync.ballot.b32 %r20, %p0, 0xffff;"}, ErrMemberMask},
		{"member guarded off", []string{"setp.lt.u32 %p1, %r0, 8;", "@%p1 bar.warp.sync 0xffffffff;"}, ErrMemberMask},
		{"mask differs between lanes", []string{"shl.b32 %r1, 1, %r0;", "bar.warp.sync %r1;"}, ErrMemberMask},
		{"shuffle from a lane outside", []string{"setp.lt.u32 %p1, %r0, 16;", "@%p1 shfl.sync.idx.b32 %r20, %r0, 20, 31, 0xffff;"}, ErrMemberMask},
		{"members on another path", []string{
			"setp.lt.u32 %p1, %r0, 16;",
			"@%p1 bra L1;",
			"bar.warp.sync 0xffffffff;",
			"bra.uni L2;",
			"L1:",
			"bar.warp.sync 0xffffffff;",
			"L2:",
			"mov.u32 %r20, 0;",
		}, ErrDeadlock},
		{"divergent bra.uni", []string{"setp.lt.u32 %p1, %r0, 16;", "@%p1 bra.uni L1;", "L1:", "mov.u32 %r20, 0;"}, ErrDivergent},
		{"register never written", []string{"add.u32 %r20, %r5, 1;"}, ErrUndefinedReg},
		{"register written in some lanes", []string{"setp.lt.u32 %p1, %r0, 16;", "@%p1 mov.u32 %r5, 1;", "add.u32 %r20, %r5, 1;"}, ErrUndefinedReg},
		{"guard never written", []string{"@%p9 mov.u32 %r20, 1;"}, ErrUndefinedReg},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lines := append([]string{"setp.eq.u32 %p0, %r0, 0;", "mov.u32 %r20, 1;", "mov.u32 %r21, 1;"}, c.line...)
			_, _, err := runWarp(t, 32, lines...)
			var f *Fault
			if !errors.As(err, &f) || !errors.Is(err, c.err) {
				t.Fatalf("got %v, want %v", err, c.err)
			}
		})
	}
}

// Checks EXEC-4: divergent branches run both paths and reconverge; loops
// with per-lane trip counts reconverge at their exit; lanes that exit are
// not waited for; lanes at a .sync instruction wait for members that are
// still on another path.
func TestDivergence(t *testing.T) {
	// if/else: odd lanes add 100, even lanes add 200; then a full-warp ballot.
	a, b, err := runWarp(t, 32,
		"and.b32 %r1, %r0, 1;",
		"setp.eq.u32 %p1, %r1, 1;",
		"@%p1 bra ODD;",
		"add.u32 %r20, %r0, 200;",
		"bra END;",
		"ODD:",
		"add.u32 %r20, %r0, 100;",
		"END:",
		"vote.sync.ballot.b32 %r21, %p1, 0xffffffff;",
	)
	if err != nil {
		t.Fatal(err)
	}
	wantLanes(t, "if/else", a, func(l int) uint32 { return uint32(l + 200 - 100*(l&1)) })
	wantLanes(t, "ballot after the if", b, func(int) uint32 { return 0xaaaaaaaa })

	// A loop run lane+1 times, a ballot inside it (the lanes still looping),
	// and a full ballot after it.
	_, _, err = runWarp(t, 32,
		"mov.u32 %r1, 0;",
		"mov.u32 %r20, 0;",
		"LOOP:",
		"setp.le.u32 %p1, %r1, %r0;",
		"vote.sync.ballot.b32 %r2, %p1, 0xffffffff;", // only while every lane loops
		"@!%p1 bra DONE;",
		"add.u32 %r20, %r20, %r1;",
		"add.u32 %r1, %r1, 1;",
		"bra LOOP;",
		"DONE:",
		"setp.ne.u32 %p2, %r0, 99;",
		"vote.sync.ballot.b32 %r21, %p2, 0xffffffff;",
	)
	var f *Fault
	if !errors.As(err, &f) || !errors.Is(err, ErrDeadlock) {
		// Lane 0 leaves the loop after one ballot; the others wait for it at
		// the ballot inside the loop, which lane 0 never reaches again.
		t.Fatalf("a full-mask ballot inside a divergent loop: %v, want a deadlock fault", err)
	}
	a, b, err = runWarp(t, 32,
		"mov.u32 %r1, 0;",
		"mov.u32 %r20, 0;",
		"LOOP:",
		"setp.le.u32 %p1, %r1, %r0;",
		"@!%p1 bra DONE;",
		"add.u32 %r20, %r20, %r1;",
		"add.u32 %r1, %r1, 1;",
		"bra LOOP;",
		"DONE:",
		"setp.ne.u32 %p2, %r0, 99;",
		"vote.sync.ballot.b32 %r21, %p2, 0xffffffff;",
	)
	if err != nil {
		t.Fatal(err)
	}
	wantLanes(t, "loop sum", a, func(l int) uint32 { return uint32(l * (l + 1) / 2) })
	wantLanes(t, "ballot after the loop", b, func(int) uint32 { return 0xffffffff })

	// Lanes 16-31 reach the ballot first and wait; lanes 0-15 take a detour
	// and jump back to it; the ballot then sees the whole warp.
	a, b, err = runWarp(t, 32,
		"mov.u32 %r20, 0;",
		"setp.lt.u32 %p1, %r0, 16;",
		"@%p1 bra AHEAD;",
		"BACK:",
		"vote.sync.ballot.b32 %r21, %p1, 0xffffffff;",
		"bra.uni END;",
		"AHEAD:",
		"add.u32 %r20, %r0, 1000;",
		"bra BACK;",
		"END:",
	)
	if err != nil {
		t.Fatal(err)
	}
	wantLanes(t, "detour", a, func(l int) uint32 { return map[bool]uint32{true: uint32(l + 1000)}[l < 16] })
	wantLanes(t, "ballot after waiting", b, func(int) uint32 { return 0x0000ffff })

	// Lanes that exit are not waited for, and contribute nothing.
	all := body(prologue, []string{
		"setp.ge.u32 %p1, %r0, 20;",
		"@%p1 ret;",
		"vote.sync.ballot.b32 %r21, %p1, 0xffffffff;",
		"not.pred %p2, %p1;",
		"vote.sync.ballot.b32 %r22, %p2, 0xffffffff;",
		"add.u64 %rd3, %rd1, %rd2;",
		"st.global.u32 [%rd3], %r22;",
		"ret;",
	})
	m := mustLoad(t, entry([]string{"in", "out"}, 0, all...))
	mem := NewMemory()
	in, out := mem.Alloc(4), mem.Alloc(128)
	if err := m.Launch("t", 1, 32, []uint64{in, out}, mem); err != nil {
		t.Fatal(err)
	}
	for l := 0; l < 32; l++ {
		want := uint32(0)
		if l < 20 {
			want = 0xfffff
		}
		if got := binary.LittleEndian.Uint32(mem.Bytes(out)[4*l:]); got != want {
			t.Errorf("lane %d after exits: ballot %#x, want %#x", l, got, want)
		}
	}
}

// Checks EXEC-3: special registers, several blocks, and a partial last warp.
func TestSpecialRegisters(t *testing.T) {
	all := []string{
		"ld.param.u64 %rd1, [out];",
		"mov.u32 %r0, %tid.x;",
		"mov.u32 %r1, %ntid.x;",
		"mov.u32 %r2, %ctaid.x;",
		"mov.u32 %r3, %laneid;",
		"mad.lo.u32 %r4, %r2, %r1, %r0;",
		"mul.wide.u32 %rd2, %r4, 16;",
		"add.u64 %rd2, %rd1, %rd2;",
		"st.global.u32 [%rd2], %r0;",
		"st.global.u32 [%rd2+4], %r1;",
		"st.global.u32 [%rd2+8], %r2;",
		"st.global.u32 [%rd2+12], %r3;",
		"ret;",
	}
	m := mustLoad(t, entry([]string{"out"}, 0, all...))
	const grid, block = 3, 40
	mem := NewMemory()
	out := mem.Alloc(16 * grid * block)
	m.Workers = 2
	if err := m.Launch("t", grid, block, []uint64{out}, mem); err != nil {
		t.Fatal(err)
	}
	ob := mem.Bytes(out)
	for b := 0; b < grid; b++ {
		for tid := 0; tid < block; tid++ {
			i := 16 * (b*block + tid)
			got := [4]uint32{binary.LittleEndian.Uint32(ob[i:]), binary.LittleEndian.Uint32(ob[i+4:]),
				binary.LittleEndian.Uint32(ob[i+8:]), binary.LittleEndian.Uint32(ob[i+12:])}
			if want := [4]uint32{uint32(tid), block, uint32(b), uint32(tid % 32)}; got != want {
				t.Errorf("block %d thread %d: %v, want %v", b, tid, got, want)
			}
		}
	}
}

// Checks EXEC-3 and EXEC-4: the fault of the lowest failing block is
// returned whatever the number of workers; a runaway loop hits the step
// limit; invalid launches are refused.
func TestLaunchErrors(t *testing.T) {
	text := entry([]string{"out"}, 0,
		"ld.param.u64 %rd1, [out];",
		"mov.u32 %r2, %ctaid.x;",
		"mul.wide.u32 %rd2, %r2, 4;",
		"add.u64 %rd2, %rd1, %rd2;",
		"st.global.u32 [%rd2], %r2;", // blocks 16 and on write past the 64 bytes
		"ret;")
	m := mustLoad(t, text)
	for _, workers := range []int{1, 2, 8} {
		m.Workers = workers
		mem := NewMemory()
		err := m.Launch("t", 40, 32, []uint64{mem.Alloc(64)}, mem)
		var f *Fault
		if !errors.As(err, &f) || f.Block != 16 || f.Thread != 0 {
			t.Errorf("%d workers: %v, want a fault of block 16 thread 0", workers, err)
		}
	}
	loop := mustLoad(t, entry(nil, 0, "L:", "bra.uni L;"))
	loop.StepLimit = 1000
	if err := loop.Launch("t", 1, 32, nil, nil); !errors.Is(err, ErrStepLimit) {
		t.Errorf("endless loop: %v", err)
	}
	for _, c := range []struct {
		kernel      string
		grid, block int
		params      []uint64
		err         error
	}{
		{"nope", 1, 32, []uint64{0}, ErrUnknownKernel},
		{"t", 1, 0, []uint64{0}, ErrLaunch},
		{"t", 1, 1025, []uint64{0}, ErrLaunch},
		{"t", -1, 32, []uint64{0}, ErrLaunch},
		{"t", 1, 32, nil, ErrLaunch},
	} {
		if err := m.Launch(c.kernel, c.grid, c.block, c.params, NewMemory()); !errors.Is(err, c.err) {
			t.Errorf("Launch(%q, %d, %d, %v): %v, want %v", c.kernel, c.grid, c.block, c.params, err, c.err)
		}
	}
}

// Checks EXEC-3: the profile counts each instruction once per warp that
// executes it.
func TestProfile(t *testing.T) {
	m := mustLoad(t, entry(nil, 0,
		"mov.u32 %r0, %laneid;",
		"mov.u32 %r1, 0;",
		"L:",
		"add.u32 %r1, %r1, 1;",
		"setp.lt.u32 %p0, %r1, %r0;", // lane l loops max(l, 1) times
		"@%p0 bra L;",
		"ret;"))
	m.EnableProfile()
	if err := m.Launch("t", 3, 64, nil, nil); err != nil {
		t.Fatal(err)
	}
	prof := m.Profile("t")
	want := []int64{6, 6, 6 * 31, 6 * 31, 6 * 31, 6}
	for i, lc := range prof {
		if lc.Count != want[i] {
			t.Errorf("line %d %q: %d, want %d", lc.Line, lc.Text, lc.Count, want[i])
		}
	}
}

// Checks EXEC-4 and EXEC-5: bar.sync takes its barrier from a register or
// an immediate, the same in every lane.
func TestBarSyncOperand(t *testing.T) {
	for _, c := range []struct {
		lines []string
		err   error
	}{
		{[]string{"mov.u32 %r5, 0;", "bar.sync %r5;"}, nil},
		{[]string{"bar.sync 3;"}, nil},
		{[]string{"and.b32 %r5, %r0, 1;", "bar.sync %r5;"}, ErrDivergent},
		{[]string{"bar.sync 16;"}, ErrDivergent},
		{[]string{"setp.lt.u32 %p1, %r0, 40;", "@%p1 bar.sync 0;"}, ErrDivergent},
	} {
		lines := append([]string{"mov.u32 %r20, 1;", "mov.u32 %r21, 1;"}, c.lines...)
		_, _, err := runWarp(t, 64, lines...)
		if !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
			t.Errorf("%v: %v, want %v", c.lines, err, c.err)
		}
	}
}

// Checks EXEC-4 and EXEC-5: lanes waiting at a .sync instruction go on when
// the members they wait for exit instead of arriving.
func TestWaitersReleasedByExits(t *testing.T) {
	all := body(prologue, []string{
		"setp.ge.u32 %p1, %r0, 16;",
		"@%p1 bra EXIT;",
		"vote.sync.ballot.b32 %r21, %p1, 0xffffffff;", // lanes 0-15 wait for 16-31, which exit
		"not.pred %p2, %p1;",
		"vote.sync.ballot.b32 %r22, %p2, 0xffffffff;",
		"add.u64 %rd3, %rd1, %rd2;",
		"st.global.u32 [%rd3], %r22;",
		"ret;",
		"EXIT:",
		"ret;",
	})
	m := mustLoad(t, entry([]string{"in", "out"}, 0, all...))
	mem := NewMemory()
	in, out := mem.Alloc(4), mem.Alloc(128)
	if err := m.Launch("t", 1, 32, []uint64{in, out}, mem); err != nil {
		t.Fatal(err)
	}
	for l := 0; l < 32; l++ {
		want := uint32(0)
		if l < 16 {
			want = 0xffff
		}
		if got := binary.LittleEndian.Uint32(mem.Bytes(out)[4*l:]); got != want {
			t.Errorf("lane %d: ballot %#x, want %#x", l, got, want)
		}
	}
}
