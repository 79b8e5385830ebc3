package ptxexec

import (
	"encoding/binary"
	"errors"
	"testing"
)

// Checks EXEC-3 and EXEC-7: cvta.shared.u64 gives a generic address whose
// generic loads and stores reach shared memory, other generic addresses reach
// global memory, and a shared-window offset used as a generic address, or a
// generic address used with ld.shared, is the bounds fault it is on a GPU.
func TestGenericRoundTrip(t *testing.T) {
	text := entry([]string{"in", "out"}, 256, body(prologue, []string{
		"cvta.shared.u64 %rd3, sm;",
		"add.u64 %rd3, %rd3, %rd2;",
		"add.u64 %rd4, %rd0, %rd2;",
		"ld.u32 %r1, [%rd4];", // generic load from global: in[tid]
		"st.u32 [%rd3], %r1;", // generic store to shared
		"bar.warp.sync 0xffffffff;",
		"mov.u64 %rd5, sm;",
		"add.u64 %rd5, %rd5, %rd2;",
		"ld.shared.u32 %r2, [%rd5];", // the same bytes through the shared window
		"ld.u32 %r3, [%rd3];",
		"add.u32 %r2, %r2, %r3;",
		"add.u64 %rd6, %rd1, %rd2;",
		"st.u32 [%rd6], %r2;", // generic store to global: 2 × in[tid]
		"ret;",
	}, nil)...)
	m := mustLoad(t, text)
	mem := NewMemory()
	in, out := mem.Alloc(128), mem.Alloc(128)
	inb := mem.Bytes(in)
	for i := range inb {
		inb[i] = byte(i*5 + 1)
	}
	if err := m.Launch("t", 1, 32, []uint64{in, out}, mem); err != nil {
		t.Fatal(err)
	}
	for l := range 32 {
		want := 2 * binary.LittleEndian.Uint32(inb[4*l:])
		if got := binary.LittleEndian.Uint32(mem.Bytes(out)[4*l:]); got != want {
			t.Fatalf("lane %d: got %#x, want %#x", l, got, want)
		}
	}

	mixups := map[string][]string{
		"shared-window offset with a generic load": {"mov.u64 %rd3, sm;", "ld.u32 %r1, [%rd3];", "ret;"},
		"generic address with ld.shared":           {"cvta.shared.u64 %rd3, sm;", "ld.shared.u32 %r1, [%rd3];", "ret;"},
		"generic address with st.global":           {"cvta.shared.u64 %rd3, sm;", "st.global.u32 [%rd3], %r0;", "ret;"},
	}
	for name, lines := range mixups {
		text := entry([]string{"in", "out"}, 256, body(prologue, lines)...)
		_, err := launchErr(t, text, 1, 32, func(mem *Memory) []uint64 {
			return []uint64{mem.Alloc(128), mem.Alloc(128)}
		})
		if !errors.Is(err, ErrOutOfBounds) {
			t.Errorf("%s: got %v, want an out-of-bounds fault", name, err)
		}
	}
}
