package falsification

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/lz4warp/lz4warp/internal/ptxexec"
)

// executorWant is what the CPU executor must make of each experiment:
// "correct" output, the load-time rejection of ill-typed text, or the
// *Fault of an out-of-bounds access or of a shared-memory race at the named
// instruction.
var executorWant = map[string]string{
	"F081-0": "correct", "F081-1": "correct", "F081-3": "correct", "F081-4": "correct",
	"F082-0": "correct", "F082-3": "correct", "F082-9": "correct",
	"F082-10": "correct",
	"F082-1":  "rejected",
	"F082-2":  "rejected", // valid PTX, but outside the dialect of GPU-4 (a 32-bit load into a 64-bit register)
	"F082-4":  "out of bounds: ld.u32",
	"F082-5":  "out of bounds: ld.shared.u32",
	"F082-6":  "out of bounds: st.global.u32",
	"F082-7":  "out of bounds: st.global.u32",
	"F082-11": "out of bounds: st.global.u32",
	// Without a barrier, a lane reads its neighbour's slot unordered after
	// the neighbour's store: a race the GPU hides by lockstep.
	"F081-2":  "race: ld.shared.u32",
	"F082-8":  "race: ld.shared.u32",
	"F082-12": "race: ld.shared.u32",
	"F082-13": "out of bounds: st.global.u32",
}

// Checks DOC-8, FALS-9: on internal/ptxexec, the claim's ill-typed address
// computation does not load (nor does F082-2, valid PTX outside the dialect),
// the loads that no barrier orders after their neighbour's store are races, every failure of the device runs is the
// out-of-bounds access it is (the executor, unlike the GPU, also catches
// F082-6's writes into the allocation's padding), and the well-formed
// patterns compute the right output.
func TestExecutor(t *testing.T) {
	for _, e := range Experiments() {
		want, ok := executorWant[e.ID]
		if !ok {
			t.Errorf("%s: no executor expectation", e.ID)
			continue
		}
		t.Run(e.ID, func(t *testing.T) {
			mod, err := ptxexec.Load(e.PTX(90))
			if want == "rejected" {
				if err == nil {
					t.Fatal("the executor loaded text outside the dialect")
				}
				t.Logf("rejected as it must be: %v", err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			mem := ptxexec.NewMemory()
			dst := mem.Alloc(4 * Words)
			buf := mem.Bytes(dst)
			for i := range Words {
				binary.LittleEndian.PutUint32(buf[4*i:], Poison)
			}
			err = mod.Launch(KernelName, e.Config.Blocks(), e.Config.Threads(), []uint64{dst, e.Bias}, mem)
			if want == "correct" {
				if err != nil {
					t.Fatal(err)
				}
				got := make([]uint32, Words)
				for i := range got {
					got[i] = binary.LittleEndian.Uint32(buf[4*i:])
				}
				if s := e.CompareOutput(got); s != "correct" {
					t.Errorf("output %s", s)
				}
				return
			}
			kind, op, _ := strings.Cut(want, ": ")
			sentinel := ptxexec.ErrOutOfBounds
			if kind == "race" {
				sentinel = ptxexec.ErrSharedRace
			}
			var f *ptxexec.Fault
			if !errors.As(err, &f) || !errors.Is(err, sentinel) {
				t.Fatalf("got %v, want a fault: %v", err, sentinel)
			}
			if !strings.HasPrefix(f.Text, op+" ") {
				t.Errorf("fault at %q, want at %s", f.Text, op)
			}
			t.Logf("%v", f)
		})
	}
}
