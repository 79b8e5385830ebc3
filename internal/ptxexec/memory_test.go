package ptxexec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// entry renders a kernel named t with the given .u64 parameters, shared
// array size (0: none) and body lines; registers %p<16>, %r<32>, %rd<16>.
func entry(params []string, shared int, body ...string) string {
	var b strings.Builder
	b.WriteString(testHeader + ".visible .entry t(\n")
	for i, p := range params {
		sep := ","
		if i == len(params)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "\t.param .u64 %s%s\n", p, sep)
	}
	b.WriteString(")\n{\n\t.reg .pred %p<16>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<16>;\n")
	if shared > 0 {
		fmt.Fprintf(&b, "\t.shared .align 16 .b8 sm[%d];\n", shared)
	}
	b.WriteString("\n")
	for _, l := range body {
		if strings.HasSuffix(l, ":") {
			b.WriteString(l + "\n")
		} else {
			b.WriteString("\t" + l + "\n")
		}
	}
	b.WriteString("}\n")
	return b.String()
}

func mustLoad(t *testing.T, text string) *Module {
	t.Helper()
	m, err := Load(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return m
}

// prologue: %r0 = tid, %rd0 = in, %rd1 = out, %rd2 = 4*tid.
var prologue = []string{
	"ld.param.u64 %rd0, [in];",
	"ld.param.u64 %rd1, [out];",
	"cvta.to.global.u64 %rd0, %rd0;",
	"cvta.to.global.u64 %rd1, %rd1;",
	"mov.u32 %r0, %tid.x;",
	"mul.wide.u32 %rd2, %r0, 4;",
}

func body(lines ...[]string) []string {
	var out []string
	for _, l := range lines {
		out = append(out, l...)
	}
	return out
}

// Checks EXEC-3 and EXEC-9: loads zero-extend, stores keep the low bits,
// memory is little-endian, vectors move 16 bytes, and shared memory holds
// what was stored.
func TestMemoryForms(t *testing.T) {
	text := entry([]string{"in", "out"}, 1024, body(prologue, []string{
		"add.u64 %rd3, %rd0, %rd2;",
		"ld.global.u32 %r1, [%rd3];", // in[tid] as a word
		"cvt.u64.u32 %rd4, %r0;",
		"add.u64 %rd5, %rd0, %rd4;",
		"ld.global.u8 %r2, [%rd5+128];", // byte 128+tid
		"mul.wide.u32 %rd6, %r0, 16;",
		"add.u64 %rd7, %rd0, %rd6;",
		"ld.global.v4.u32 {%r3, %r4, %r5, %r6}, [%rd7];", // 16 bytes at 16*tid
		"mov.u64 %rd8, sm;",
		"add.u64 %rd9, %rd8, %rd6;",
		"st.shared.v4.u32 [%rd9], {%r6, %r5, %r4, %r3};", // reversed words
		"bar.warp.sync 0xffffffff;",
		"ld.shared.u32 %r7, [%rd9+12];",                      // = %r3
		"ld.shared.u16 %r8, [%rd9+2];",                       // high half of %r6
		"ld.shared.u8 %r9, [%rd9+1];",                        // byte 1 of %r6
		"ld.shared.v4.u32 {%r13, %r14, %r15, %r16}, [%rd9];", // = %r6, %r5, %r4, %r3
		"add.u64 %rd10, %rd8, %rd4;",
		"bar.warp.sync 0xffffffff;", // the loads above are done before other lanes overwrite
		"st.shared.u8 [%rd10+0], %r1;",
		"bar.warp.sync 0xffffffff;",
		"ld.shared.u8 %r10, [sm+3];", // lane 3's byte: in[3]'s low byte
		"mul.wide.u32 %rd11, %r0, 2;",
		"add.u64 %rd11, %rd8, %rd11;",
		"st.shared.u16 [%rd11+64], %r1;",
		"ld.shared.u16 %r11, [%rd11+64];",
		"st.shared.u32 [%rd9+512], %r1;",
		"ld.shared.u32 %r12, [%rd9+512];",
		"mul.wide.u32 %rd12, %r0, 48;",
		"add.u64 %rd12, %rd1, %rd12;",
		"st.global.u32 [%rd12], %r7;",
		"st.global.u32 [%rd12+4], %r8;",
		"st.global.u32 [%rd12+8], %r9;",
		"st.global.u32 [%rd12+12], %r10;",
		"st.global.u32 [%rd12+16], %r11;",
		"st.global.u32 [%rd12+20], %r12;",
		"st.global.u8 [%rd12+24], %r2;",
		"st.global.u8 [%rd12+25], %r1;",
		"st.global.u8 [%rd12+26], %r1;",
		"st.global.u8 [%rd12+27], %r1;",
		"st.global.u32 [%rd12+28], %r13;",
		"st.global.u32 [%rd12+32], %r14;",
		"st.global.u32 [%rd12+36], %r15;",
		"st.global.u32 [%rd12+40], %r16;",
		"ret;",
	}, nil)...)
	m := mustLoad(t, text)
	mem := NewMemory()
	in, out := mem.Alloc(512), mem.Alloc(32*48)
	inb := mem.Bytes(in)
	for i := range inb {
		inb[i] = byte(i*7 + 3)
	}
	if err := m.Launch("t", 1, 32, []uint64{in, out}, mem); err != nil {
		t.Fatal(err)
	}
	ob := mem.Bytes(out)
	word := func(at int) uint32 { return binary.LittleEndian.Uint32(inb[at:]) }
	for l := 0; l < 32; l++ {
		got := ob[48*l:]
		r1 := word(4 * l)
		want := []uint32{
			word(16 * l),              // %r7: the first word, stored last
			word(16*l+12) >> 16,       // %r8
			word(16*l+12) >> 8 & 0xff, // %r9
			uint32(inb[12]),           // %r10: lane 3 stored in[3]'s low byte
			r1 & 0xffff,               // %r11
			r1,                        // %r12
			uint32(inb[128+l]) | r1<<8&0xff00 | r1<<16&0xff0000 | r1<<24&0xff000000, // bytes 24-27
			word(16*l + 12), word(16*l + 8), word(16*l + 4), word(16 * l), // %r13 to %r16: the reversed words loaded back
		}
		for i, w := range want {
			if g := binary.LittleEndian.Uint32(got[4*i:]); g != w {
				t.Errorf("lane %d value %d: got %#x, want %#x", l, i, g, w)
			}
		}
	}
}

// Checks EXEC-3 and EXEC-9: a 32-bit register holds a shared address
// (mov.u32 of a shared variable is its offset, as mov.u64's), and every
// shared load and store takes it as its base, with a positive or negative
// offset, reaching the bytes the 64-bit address of the same value does.
func TestSharedForms32BitBase(t *testing.T) {
	text := entry([]string{"in", "out"}, 1024, body(prologue, []string{
		"mov.u32 %r20, sm;", // 32: after pad
		"mov.u64 %rd8, sm;",
		"cvt.u64.u32 %rd9, %r20;",
		"setp.eq.u64 %p1, %rd8, %rd9;",
		"selp.b32 %r19, 1, 0, %p1;",
		"shl.b32 %r21, %r0, 4;",
		"add.u32 %r21, %r20, %r21;", // this lane's 16 bytes
		"mul.wide.u32 %rd6, %r0, 16;",
		"add.u64 %rd7, %rd0, %rd6;",
		"ld.global.v4.u32 {%r3, %r4, %r5, %r6}, [%rd7];",
		"st.shared.v4.u32 [%r21], {%r6, %r5, %r4, %r3};", // reversed words
		"bar.warp.sync 0xffffffff;",
		"cvt.u64.u32 %rd10, %r21;",
		"ld.shared.u32 %r7, [%rd10+12];", // = %r3, through the 64-bit address
		"ld.shared.u16 %r8, [%r21+2];",   // high half of %r6
		"ld.shared.u8 %r9, [%r21+1];",    // byte 1 of %r6
		"add.u32 %r22, %r21, 16;",
		"ld.shared.u32 %r10, [%r22-8];", // = %r4
		"ld.shared.u8 %r25, [%r22-1];",  // the top byte of %r3
		"ld.shared.v4.u32 {%r13, %r14, %r15, %r16}, [%r21];",
		"st.shared.u16 [%r21+512], %r0;",
		"st.shared.u8 [%r21+514], %r0;",
		"st.shared.u32 [%r21+516], %r3;",
		"ld.shared.u16 %r11, [%r21+512];",
		"ld.shared.u8 %r12, [%r21+514];",
		"ld.shared.u32 %r17, [%r21+516];",
		"add.u32 %r23, %r0, 100;",
		"st.relaxed.cta.shared.u32 [%r20+1020], %r23;", // every lane: the lowest wins
		"st.relaxed.cta.shared.u16 [%r20+1016], %r23;",
		"bar.warp.sync 0xffffffff;",
		"ld.shared.u32 %r18, [%r20+1020];",
		"ld.shared.u16 %r24, [%r20+1016];",
		"mul.wide.u32 %rd12, %r0, 64;",
		"add.u64 %rd12, %rd1, %rd12;",
		"st.global.u32 [%rd12], %r20;",
		"st.global.u32 [%rd12+4], %r19;",
		"st.global.u32 [%rd12+8], %r7;",
		"st.global.u32 [%rd12+12], %r8;",
		"st.global.u32 [%rd12+16], %r9;",
		"st.global.u32 [%rd12+20], %r10;",
		"st.global.u32 [%rd12+24], %r11;",
		"st.global.u32 [%rd12+28], %r12;",
		"st.global.u32 [%rd12+32], %r17;",
		"st.global.v4.u32 [%rd12+48], {%r13, %r14, %r15, %r16};",
		"st.global.u32 [%rd12+36], %r18;",
		"st.global.u32 [%rd12+40], %r24;",
		"st.global.u32 [%rd12+44], %r25;",
		"ret;",
	}, nil)...)
	text = strings.Replace(text, "\t.shared .align 16 .b8 sm[1024];\n", "\t.shared .align 4 .b8 pad[20];\n\t.shared .align 16 .b8 sm[1024];\n", 1)
	m := mustLoad(t, text)
	mem := NewMemory()
	in, out := mem.Alloc(512), mem.Alloc(32*64)
	inb := mem.Bytes(in)
	for i := range inb {
		inb[i] = byte(i*11 + 5)
	}
	if err := m.Launch("t", 1, 32, []uint64{in, out}, mem); err != nil {
		t.Fatal(err)
	}
	ob := mem.Bytes(out)
	word := func(at int) uint32 { return binary.LittleEndian.Uint32(inb[at:]) }
	for l := range 32 {
		want := []uint32{
			32, 1, // sm's address in 32 bits, and equal to its 64-bit one
			word(16 * l),              // the first word, stored last, through the 64-bit address
			word(16*l+12) >> 16,       // u16
			word(16*l+12) >> 8 & 0xff, // u8
			word(16*l + 4),            // at a negative offset
			uint32(l), uint32(l),      // u16 and u8 stored and loaded back
			word(16 * l), // u32 stored and loaded back
			100, 100,     // the relaxed stores: lane 0's value
			word(16*l) >> 24,                                              // u8 at a negative offset
			word(16*l + 12), word(16*l + 8), word(16*l + 4), word(16 * l), // the v4 load
		}
		for i, w := range want {
			if g := binary.LittleEndian.Uint32(ob[64*l+4*i:]); g != w {
				t.Errorf("lane %d value %d: got %#x, want %#x", l, i, g, w)
			}
		}
	}
	_, err := launchErr(t, entry([]string{"in", "out"}, 128, "ld.shared.u8 %r1, [%r5+1];", "ret;"), 1, 32, inOut(128))
	if !errors.Is(err, ErrUndefinedReg) {
		t.Errorf("a 32-bit base never written: %v, want %v", err, ErrUndefinedReg)
	}
}

// Checks EXEC-3: a .v4 global store writes its four words in order, 16
// bytes per lane.
func TestGlobalVectorStore(t *testing.T) {
	text := entry([]string{"in", "out"}, 0, body(prologue, []string{
		"mul.wide.u32 %rd6, %r0, 16;",
		"add.u64 %rd7, %rd0, %rd6;",
		"ld.global.v4.u32 {%r3, %r4, %r5, %r6}, [%rd7];",
		"add.u64 %rd8, %rd1, %rd6;",
		"st.global.v4.u32 [%rd8], {%r6, %r5, %r4, %r3};", // reversed words
		"ret;",
	}, nil)...)
	m := mustLoad(t, text)
	mem := NewMemory()
	in, out := mem.Alloc(512), mem.Alloc(512)
	inb := mem.Bytes(in)
	for i := range inb {
		inb[i] = byte(i*5 + 1)
	}
	if err := m.Launch("t", 1, 32, []uint64{in, out}, mem); err != nil {
		t.Fatal(err)
	}
	ob := mem.Bytes(out)
	for w := 0; w < 128; w++ {
		want := binary.LittleEndian.Uint32(inb[4*(w^3):])
		if got := binary.LittleEndian.Uint32(ob[4*w:]); got != want {
			t.Fatalf("word %d: got %#x, want %#x", w, got, want)
		}
	}
}

// Checks EXEC-2 for membar.sys: the executor, which runs a thread's memory
// operations in program order, takes it (guarded too) and changes nothing:
// the stores around it land as written.
func TestMembarSys(t *testing.T) {
	text := entry([]string{"in", "out"}, 0, body(prologue, []string{
		"mul.wide.u32 %rd6, %r0, 8;",
		"add.u64 %rd7, %rd1, %rd6;",
		"st.global.u32 [%rd7], %r0;",
		"membar.sys;",
		"setp.lt.u32 %p0, %r0, 16;",
		"@%p0 membar.sys;",
		"add.u32 %r3, %r0, 100;",
		"st.global.u32 [%rd7+4], %r3;",
		"ret;",
	}, nil)...)
	m := mustLoad(t, text)
	mem := NewMemory()
	in, out := mem.Alloc(256), mem.Alloc(256)
	if err := m.Launch("t", 1, 32, []uint64{in, out}, mem); err != nil {
		t.Fatal(err)
	}
	ob := mem.Bytes(out)
	for l := uint32(0); l < 32; l++ {
		if a, b := binary.LittleEndian.Uint32(ob[8*l:]), binary.LittleEndian.Uint32(ob[8*l+4:]); a != l || b != l+100 {
			t.Fatalf("lane %d: %d, %d; want %d, %d", l, a, b, l, l+100)
		}
	}
}

func launchErr(t *testing.T, text string, grid, block int, args func(mem *Memory) []uint64) (*Memory, error) {
	t.Helper()
	m := mustLoad(t, text)
	mem := NewMemory()
	return mem, m.Launch("t", grid, block, args(mem), mem)
}

func inOut(n int) func(mem *Memory) []uint64 {
	return func(mem *Memory) []uint64 { return []uint64{mem.Alloc(n), mem.Alloc(n)} }
}

// Checks EXEC-7: out-of-bounds and misaligned accesses fail with a fault
// naming the instruction, its line, the thread and the address.
func TestMemoryFaults(t *testing.T) {
	cases := []struct {
		name   string
		lines  []string
		shared int
		err    error
		text   string // the faulting instruction
		thread int
		addr   func(in, out uint64) uint64
	}{
		{"global past the end", []string{"add.u64 %rd3, %rd0, %rd2;", "ld.global.u32 %r1, [%rd3+4];", "ret;"}, 0,
			ErrOutOfBounds, "ld.global.u32 %r1, [%rd3+4];", 31, func(in, _ uint64) uint64 { return in + 128 }},
		{"global before the start", []string{"ld.global.u8 %r1, [%rd1-1];", "ret;"}, 0,
			ErrOutOfBounds, "ld.global.u8 %r1, [%rd1-1];", 0, func(_, out uint64) uint64 { return out - 1 }},
		{"global store past the end", []string{"add.u64 %rd3, %rd1, %rd2;", "st.global.u32 [%rd3+64], %r0;", "ret;"}, 0,
			ErrOutOfBounds, "st.global.u32 [%rd3+64], %r0;", 16, func(_, out uint64) uint64 { return out + 128 }},
		{"global misaligned", []string{"ld.global.u32 %r1, [%rd0+2];", "ret;"}, 0,
			ErrMisaligned, "ld.global.u32 %r1, [%rd0+2];", 0, func(in, _ uint64) uint64 { return in + 2 }},
		{"vector misaligned", []string{"ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd0+8];", "ret;"}, 0,
			ErrMisaligned, "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd0+8];", 0, func(in, _ uint64) uint64 { return in + 8 }},
		{"shared past the end", []string{"mov.u64 %rd3, sm;", "add.u64 %rd3, %rd3, %rd2;", "st.shared.u32 [%rd3+4], %r0;", "ret;"}, 128,
			ErrOutOfBounds, "st.shared.u32 [%rd3+4], %r0;", 31, func(_, _ uint64) uint64 { return 128 }},
		{"shared misaligned", []string{"mov.u64 %rd3, sm;", "st.shared.u16 [%rd3+1], %r0;", "ret;"}, 128,
			ErrMisaligned, "st.shared.u16 [%rd3+1], %r0;", 0, func(_, _ uint64) uint64 { return 1 }},
		{"shared never written", []string{"mov.u64 %rd3, sm;", "mov.u32 %r3, 7;", "st.shared.u8 [%rd3+5], %r3;", "ld.shared.u16 %r1, [%rd3+4];", "ret;"}, 128,
			ErrUninitShared, "ld.shared.u16 %r1, [%rd3+4];", 0, func(_, _ uint64) uint64 { return 4 }},
		{"shared past the end, 32-bit base", []string{"mov.u32 %r3, sm;", "shl.b32 %r4, %r0, 2;", "add.u32 %r3, %r3, %r4;",
			"st.shared.u32 [%r3+4], %r0;", "ret;"}, 128,
			ErrOutOfBounds, "st.shared.u32 [%r3+4], %r0;", 31, func(_, _ uint64) uint64 { return 128 }},
		{"shared before the start, 32-bit base", []string{"mov.u32 %r3, sm;", "ld.shared.u8 %r1, [%r3-1];", "ret;"}, 128,
			ErrOutOfBounds, "ld.shared.u8 %r1, [%r3-1];", 0, func(_, _ uint64) uint64 { return 1<<64 - 1 }},
		{"32-bit base and offset past 32 bits", []string{"mov.u32 %r3, 0xffffffff;", "ld.shared.u8 %r1, [%r3+1];", "ret;"}, 128,
			ErrOutOfBounds, "ld.shared.u8 %r1, [%r3+1];", 0, func(_, _ uint64) uint64 { return 1 << 32 }},
		{"vector past the end, 32-bit base", []string{"mov.u32 %r3, 112;", "ld.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r3+16];", "ret;"}, 128,
			ErrOutOfBounds, "ld.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r3+16];", 0, func(_, _ uint64) uint64 { return 128 }},
		{"shared misaligned, 32-bit base", []string{"mov.u32 %r3, sm;", "st.shared.v4.u32 [%r3+4], {%r0, %r0, %r0, %r0};", "ret;"}, 128,
			ErrMisaligned, "st.shared.v4.u32 [%r3+4], {%r0, %r0, %r0, %r0};", 0, func(_, _ uint64) uint64 { return 4 }},
		{"shared never written, 32-bit base", []string{"mov.u32 %r3, sm;", "ld.shared.u32 %r1, [%r3+8];", "ret;"}, 128,
			ErrUninitShared, "ld.shared.u32 %r1, [%r3+8];", 0, func(_, _ uint64) uint64 { return 8 }},
		{"lanes store different values at one address, 32-bit base", []string{"mov.u32 %r3, sm;", "st.shared.u16 [%r3+2], %r0;", "ret;"}, 128,
			ErrSharedRace, "st.shared.u16 [%r3+2], %r0;", 1, func(_, _ uint64) uint64 { return 2 }},
		{"lanes store different values at one address", []string{"mov.u64 %rd3, sm;", "st.shared.u32 [%rd3+8], %r0;", "ret;"}, 128,
			ErrSharedRace, "st.shared.u32 [%rd3+8], %r0;", 1, func(_, _ uint64) uint64 { return 8 }},
		{"lanes store different values at one global byte", []string{"and.b32 %r1, %r0, 0xfffffffc;", "cvt.u64.u32 %rd3, %r1;",
			"add.u64 %rd3, %rd1, %rd3;", "st.global.u8 [%rd3], %r0;", "ret;"}, 0,
			ErrStoreConflict, "st.global.u8 [%rd3], %r0;", 1, func(_, out uint64) uint64 { return out }},
		{"global words of different values", []string{"mov.u32 %r1, 5;", "setp.eq.u32 %p1, %r0, 3;", "@%p1 mov.u32 %r1, 0x700;",
			"mul.wide.u32 %rd3, %r0, 1;", "add.u64 %rd3, %rd1, %rd3;", "and.b32 %r2, %r0, 0xfffffffc;", "cvt.u64.u32 %rd3, %r2;",
			"add.u64 %rd3, %rd1, %rd3;", "st.global.u32 [%rd3+32], %r1;", "ret;"}, 0,
			ErrStoreConflict, "st.global.u32 [%rd3+32], %r1;", 3, func(_, out uint64) uint64 { return out + 32 }},
		{"vector stores of different values at one global address", []string{"st.global.v4.u32 [%rd1], {%r0, %r0, %r0, %r0};", "ret;"}, 0,
			ErrStoreConflict, "st.global.v4.u32 [%rd1], {%r0, %r0, %r0, %r0};", 1, func(_, out uint64) uint64 { return out }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := entry([]string{"in", "out"}, c.shared, body(prologue, c.lines)...)
			var in, out uint64
			_, err := launchErr(t, text, 1, 32, func(mem *Memory) []uint64 {
				in, out = mem.Alloc(128), mem.Alloc(128)
				return []uint64{in, out}
			})
			var f *Fault
			if !errors.As(err, &f) || !errors.Is(err, c.err) {
				t.Fatalf("got %v, want a %v fault", err, c.err)
			}
			want := c.addr(in, out)
			if f.Text != c.text || f.Thread != c.thread || f.Addr != want || f.Block != 0 {
				t.Errorf("fault %+v, want %q thread %d address %#x", f, c.text, c.thread, want)
			}
			line := strings.Split(text, "\n")[f.Line-1]
			if strings.TrimSpace(line) != c.text {
				t.Errorf("fault line %d is %q", f.Line, line)
			}
			msg := err.Error()
			for _, part := range []string{c.text, fmt.Sprintf("line %d", f.Line), fmt.Sprintf("thread %d", c.thread), fmt.Sprintf("%#x", want)} {
				if !strings.Contains(msg, part) {
					t.Errorf("message %q lacks %q", msg, part)
				}
			}
		})
	}
}

// Checks EXEC-3 and EXEC-7: allocations are separated by unmapped gaps, and
// Bytes aliases the allocation.
func TestMemoryLayout(t *testing.T) {
	mem := NewMemory()
	a, b := mem.Alloc(100), mem.Alloc(0)
	c := mem.Alloc(1 << 17)
	if a%allocAlign != 0 || b-a < allocAlign+guardGap || c-b < guardGap {
		t.Errorf("addresses %#x %#x %#x are not aligned or not separated", a, b, c)
	}
	if got := mem.Bytes(a + 99); len(got) != 1 {
		t.Errorf("Bytes(a+99) has %d bytes, want 1", len(got))
	}
	for _, addr := range []uint64{a + 100, b, a - 1, 0, c + 1<<17} {
		if mem.Bytes(addr) != nil {
			t.Errorf("Bytes(%#x) is mapped", addr)
		}
	}
	mem.Bytes(c)[5] = 9
	if mem.Bytes(c + 5)[0] != 9 {
		t.Error("Bytes does not alias the allocation")
	}
}

// Checks EXEC-3, EXEC-5 and EXEC-7: warps of a block exchange data through
// shared memory across bar.sync; without it, the read is a race.
func TestBarSyncAndSharedRaces(t *testing.T) {
	exchange := func(barrier bool) string {
		lines := body(prologue, []string{
			"mov.u64 %rd3, sm;",
			"add.u64 %rd4, %rd3, %rd2;",
			"st.shared.u32 [%rd4], %r0;", // every thread stores its tid
		})
		if barrier {
			lines = append(lines, "bar.sync 0;")
		}
		return entry([]string{"in", "out"}, 256, append(lines,
			"xor.b32 %r1, %r0, 32;", // the thread of the other warp
			"mul.wide.u32 %rd5, %r1, 4;",
			"add.u64 %rd5, %rd3, %rd5;",
			"ld.shared.u32 %r2, [%rd5];",
			"add.u64 %rd6, %rd1, %rd2;",
			"st.global.u32 [%rd6], %r2;",
			"ret;")...)
	}
	mem, err := launchErr(t, exchange(true), 1, 64, inOut(256))
	if err != nil {
		t.Fatal(err)
	}
	out := mem.Bytes(memBase + allocAlign + guardGap)
	for tid := 0; tid < 64; tid++ {
		if got := binary.LittleEndian.Uint32(out[4*tid:]); got != uint32(tid^32) {
			t.Errorf("thread %d read %d, want %d", tid, got, tid^32)
		}
	}
	_, err = launchErr(t, exchange(false), 1, 64, inOut(256))
	var f *Fault
	if !errors.As(err, &f) || !errors.Is(err, ErrUninitShared) || f.Thread != 0 {
		// Warp 0 runs first and reads warp 1's words before warp 1 wrote them.
		t.Fatalf("without bar.sync: %v, want an uninitialised read by thread 0", err)
	}
	// Warp 1 reading what warp 0 wrote, with no barrier, is a race.
	raceText := entry([]string{"in", "out"}, 256, body(prologue, []string{
		"mov.u64 %rd3, sm;",
		"add.u64 %rd4, %rd3, %rd2;",
		"st.shared.u32 [%rd4], %r0;",
		"setp.lt.u32 %p0, %r0, 32;",
		"@%p0 ret;",
		"ld.shared.u32 %r2, [%rd3];",
		"ret;",
	})...)
	_, err = launchErr(t, raceText, 1, 64, inOut(256))
	if !errors.As(err, &f) || !errors.Is(err, ErrSharedRace) || f.Thread != 32 || f.Addr != 0 {
		t.Fatalf("cross-warp read: %v, want a race fault at thread 32, address 0", err)
	}
}

// Checks EXEC-7: lanes of one warp that communicate through shared memory
// need bar.warp.sync between the accesses (read after write, write after
// read, and writes of different values); with it, the same code runs.
func TestIntraWarpHazards(t *testing.T) {
	setup := []string{"mov.u64 %rd3, sm;", "add.u64 %rd4, %rd3, %rd2;"}
	cases := []struct {
		name  string
		lines []string
		fault bool
	}{
		{"read after write", []string{"st.shared.u32 [%rd4], %r0;", "SYNC", "ld.shared.u32 %r1, [%rd3+4];"}, true},
		{"write after read", []string{"st.shared.u32 [%rd4], %r0;", "bar.warp.sync 0xffffffff;",
			"ld.shared.u32 %r1, [%rd3+4];", "SYNC", "st.shared.u32 [%rd4], %r0;"}, true},
		{"writes of different values", []string{"st.shared.u32 [%rd4], %r0;", "SYNC", "mov.u32 %r1, 7;",
			"setp.eq.u32 %p1, %r0, 1;", "@%p1 st.shared.u32 [%rd3], %r1;"}, true},
		{"own bytes", []string{"st.shared.u32 [%rd4], %r0;", "SYNC", "ld.shared.u32 %r1, [%rd4];", "SYNC", "st.shared.u32 [%rd4], %r1;"}, false},
	}
	for _, c := range cases {
		for _, synced := range []bool{false, true} {
			var lines []string
			for _, l := range c.lines {
				if l == "SYNC" {
					if !synced {
						continue
					}
					l = "bar.warp.sync 0xffffffff;"
				}
				lines = append(lines, l)
			}
			_, err := launchErr(t, entry([]string{"in", "out"}, 128, body(prologue, setup, lines, []string{"ret;"})...), 1, 32, inOut(128))
			if want := c.fault && !synced; want != errors.Is(err, ErrSharedRace) || !want && err != nil {
				t.Errorf("%s (synchronised %v): %v", c.name, synced, err)
			}
		}
	}
}

// Checks EXEC-3 and EXEC-7: cvta.shared.u64 maps shared memory into the
// generic window; generic ld.u32 and st.u32 reach shared memory inside it
// and global memory outside; mixing the two kinds of address faults.
func TestGenericForms(t *testing.T) {
	// Each thread stores tid through the generic address of its shared word,
	// reads it back generically and stores it generically to out.
	text := entry([]string{"in", "out"}, 128, body(prologue, []string{
		"cvta.shared.u64 %rd3, sm;",
		"add.u64 %rd4, %rd3, %rd2;",
		"st.u32 [%rd4], %r0;",
		"ld.u32 %r1, [%rd4];",
		"mov.u64 %rd5, sm;",
		"cvta.shared.u64 %rd6, %rd5;",
		"ld.shared.u32 %r2, [%rd5+4];", // lane 1's word, through the shared window
		"ld.u32 %r3, [sm];",            // the variable's generic address
		"add.u64 %rd7, %rd1, %rd2;",
		"add.u32 %r1, %r1, %r2;",
		"add.u32 %r1, %r1, %r3;",
		"st.u32 [%rd7], %r1;",
		"setp.eq.u64 %p1, %rd6, %rd3;",
		"selp.b32 %r4, 1, 0, %p1;",
		"st.u32 [%rd7+128], %r4;",
		"ret;",
	})...)
	mem, err := launchErr(t, strings.Replace(text, "st.u32 [%rd4], %r0;", "st.u32 [%rd4], %r0;\n\tbar.warp.sync 0xffffffff;", 1), 1, 32, inOut(256))
	if err != nil {
		t.Fatal(err)
	}
	out := mem.Bytes(memBase + allocAlign + guardGap)
	for l := 0; l < 32; l++ {
		if got := binary.LittleEndian.Uint32(out[4*l:]); got != uint32(l+1) {
			t.Errorf("lane %d: %d, want %d", l, got, l+1)
		}
		if got := binary.LittleEndian.Uint32(out[128+4*l:]); got != 1 {
			t.Errorf("lane %d: cvta.shared of the register and of the name differ", l)
		}
	}
	cases := []struct {
		name, line, text string
		space            string
		err              error
	}{
		{"generic past the shared memory", "cvta.shared.u64 %rd3, sm;\n\tst.u32 [%rd3+128], %r0;", "st.u32 [%rd3+128], %r0;", "shared (generic)", ErrOutOfBounds},
		{"shared-window address as generic", "mov.u64 %rd3, sm;\n\tld.u32 %r1, [%rd3];", "ld.u32 %r1, [%rd3];", "generic", ErrOutOfBounds},
		{"generic address with ld.shared", "cvta.shared.u64 %rd3, sm;\n\tld.shared.u32 %r1, [%rd3];", "ld.shared.u32 %r1, [%rd3];", "shared", ErrOutOfBounds},
		{"generic global misaligned", "ld.u32 %r1, [%rd0+1];", "ld.u32 %r1, [%rd0+1];", "generic", ErrMisaligned},
	}
	for _, c := range cases {
		text := entry([]string{"in", "out"}, 128, body(prologue, []string{c.line, "ret;"})...)
		_, err := launchErr(t, text, 1, 32, inOut(128))
		var f *Fault
		if !errors.As(err, &f) || !errors.Is(err, c.err) || f.Text != c.text || f.Space != c.space {
			t.Errorf("%s: %v, want %v at %q in %s", c.name, err, c.err, c.text, c.space)
		}
	}
}

// Checks EXEC-7: lanes of one st.relaxed.cta.shared may store different
// values at one address; the lowest lane's value is there afterwards, and
// the store still races with other lanes' unsynchronised reads.
func TestRelaxedStoreLowestLaneWins(t *testing.T) {
	// Lanes 5 to 31 store a value made from their lane number, in pairs,
	// at one halfword (or word) per pair: the pair's lower lane wins. Each
	// lane then reads its pair's halfword (or word) and stores it to out.
	for _, form := range []struct {
		typ   string
		size  int
		value []string // from the lane in %r0 to %r6
		want  func(lane uint32) uint32
	}{
		{"u16", 2, []string{"mov.u32 %r6, %r0;"}, func(l uint32) uint32 { return l }},
		{"u32", 4, []string{"shl.b32 %r6, %r0, 16;", "or.b32 %r6, %r6, %r0;"}, func(l uint32) uint32 { return l<<16 | l }},
	} {
		store := append([]string{
			"mov.u64 %rd3, sm;",
			"shr.u32 %r1, %r0, 1;",
			fmt.Sprintf("mul.wide.u32 %%rd4, %%r1, %d;", form.size),
			"add.u64 %rd4, %rd3, %rd4;",
			"setp.ge.u32 %p0, %r0, 5;",
		}, form.value...)
		store = append(store, "@%p0 st.relaxed.cta.shared."+form.typ+" [%rd4], %r6;")
		load := []string{
			"@%p0 ld.shared." + form.typ + " %r2, [%rd4];",
			"@!%p0 mov.u32 %r2, 99;",
			"add.u64 %rd5, %rd1, %rd2;",
			"st.global.u32 [%rd5], %r2;",
			"ret;",
		}
		text := entry([]string{"in", "out"}, 128, body(prologue, store, []string{"bar.warp.sync 0xffffffff;"}, load)...)
		mem, err := launchErr(t, text, 1, 32, inOut(128))
		if err != nil {
			t.Fatal(err)
		}
		out := mem.Bytes(memBase + allocAlign + guardGap)
		for lane := range uint32(32) {
			want := uint32(99)
			if lane >= 5 {
				want = form.want(max(lane&^1, 5))
			}
			if got := binary.LittleEndian.Uint32(out[4*lane:]); got != want {
				t.Errorf("%s: lane %d read %#x, want %#x", form.typ, lane, got, want)
			}
		}
		_, err = launchErr(t, entry([]string{"in", "out"}, 128, body(prologue, store, load)...), 1, 32, inOut(128))
		if !errors.Is(err, ErrSharedRace) {
			t.Fatalf("%s: a read of the relaxed store's bytes without bar.warp.sync: %v, want a race", form.typ, err)
		}
	}
}

// Checks EXEC-9 for atom.global.inc.u32 and %nctaid.x: the lanes of 8 blocks
// of 64 threads, run by 4 goroutines, each draw two tickets from one counter
// whose bound is the number of draws less one. Every ticket 0 to 1,023 is
// drawn once, and the last draw wraps the counter back to 0.
func TestAtomInc(t *testing.T) {
	const grid, block = 8, 64
	text := entry([]string{"in", "out"}, 0, body(prologue, []string{
		"mov.u32 %r1, %nctaid.x;",
		"mov.u32 %r2, %ntid.x;",
		"mul.lo.u32 %r3, %r1, %r2;",
		"shl.b32 %r3, %r3, 1;",
		"sub.u32 %r3, %r3, 1;",
		"atom.global.inc.u32 %r4, [%rd0], %r3;",
		"mov.u32 %r5, %ctaid.x;",
		"mad.lo.u32 %r6, %r5, %r2, %r0;",
		"mul.wide.u32 %rd3, %r6, 8;",
		"add.u64 %rd4, %rd1, %rd3;",
		"st.global.u32 [%rd4], %r4;",
		"atom.global.inc.u32 %r4, [%rd0], %r3;",
		"st.global.u32 [%rd4+4], %r4;",
		"ret;",
	}, nil)...)
	m := mustLoad(t, text)
	m.Workers = 4
	mem := NewMemory()
	in, out := mem.Alloc(4), mem.Alloc(grid*block*8)
	if err := m.Launch("t", grid, block, []uint64{in, out}, mem); err != nil {
		t.Fatal(err)
	}
	seen := make([]bool, 2*grid*block)
	ob := mem.Bytes(out)
	for i := 0; i < 2*grid*block; i++ {
		v := binary.LittleEndian.Uint32(ob[4*i:])
		if v >= uint32(len(seen)) || seen[v] {
			t.Fatalf("draw %d got ticket %d, out of range or drawn before", i, v)
		}
		seen[v] = true
	}
	if v := binary.LittleEndian.Uint32(mem.Bytes(in)); v != 0 {
		t.Fatalf("counter after every draw: %d, want 0", v)
	}
	// Below the bound it counts up; at or above it wraps to 0.
	for _, c := range []struct{ old, bound, next uint32 }{{5, 9, 6}, {9, 9, 0}, {12, 9, 0}, {0, 0, 0}, {0xfffffffe, 0xffffffff, 0xffffffff}} {
		b := binary.LittleEndian.AppendUint32(nil, c.old)
		if got := atomicInc(b, c.bound); got != c.old || binary.LittleEndian.Uint32(b) != c.next {
			t.Errorf("inc of %d with bound %d: returned %d and left %d, want %d and %d", c.old, c.bound, got, binary.LittleEndian.Uint32(b), c.old, c.next)
		}
	}
}
