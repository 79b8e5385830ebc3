package falsification

import (
	"fmt"
	"slices"
	"strings"
)

// Claims under test (spec/upstream.md DOC-8).
const (
	F081 = "F081"
	F082 = "F082"
)

// Assembly is what ptxas (11.8, -arch sm_90 and sm_70) says of a kernel.
type Assembly struct {
	Rejected bool
	Message  string // a fragment of ptxas's error when Rejected
}

// Outcome is what one launch of an experiment shows on the device.
type Outcome struct {
	JIT    string // CUDA result of cuModuleLoadDataEx, e.g. CUDA_SUCCESS
	Launch string // CUDA result of cuLaunchKernel; "-" when nothing was launched
	Sync   string // CUDA result of cuCtxSynchronize after the launch
	Output string // "correct", "differs in N words", "unreadable" (after a fault), "-"
	// Sanitizer is compute-sanitizer memcheck's finding: "clean" or its
	// first error line without the ========= prefix.
	Sanitizer string
}

// Crashed reports a launch whose kernel did not finish normally.
func (o Outcome) Crashed() bool {
	return o.Launch != "-" && (o.Launch != success || o.Sync != success)
}

const success = "CUDA_SUCCESS"

// Experiment is one hypothesis put to the test.
type Experiment struct {
	ID         string
	Claim      string // F081 or F082
	Hypothesis string
	Varied     string // the one factor that differs from the experiment Against ("-" for a baseline)
	Against    string // the experiment this one varies; empty: the claim's baseline <claim>-0
	Prediction string // what lz4warp predicts, before the run
	Config     Config
	Edits      []Edit // hand edits of the builder's text, for patterns it cannot emit
	Bias       uint64 // the kernel's bias argument (F082 offsets)
	Assembly   Assembly
	Recorded   Outcome // what the device showed (spec/falsification.md)
	// Cause names the minimal cause of a crash or invalid access, with the
	// experiment that isolates it; empty where there is none.
	Cause string
}

// Reference is the ID of the experiment this one varies ("" for a baseline).
func (e Experiment) Reference() string {
	switch {
	case e.Varied == "-":
		return ""
	case e.Against != "":
		return e.Against
	}
	return e.Claim + "-0"
}

// Lookup returns the experiment with the given ID.
func Lookup(id string) (Experiment, bool) {
	for _, e := range experiments {
		if e.ID == id {
			return e, true
		}
	}
	return Experiment{}, false
}

// PTX is the experiment's kernel text for sm_<sm>.
func (e Experiment) PTX(sm int) string { return Apply(Build(e.Config, sm), e.Edits) }

// Verdict judges the claim's prediction (F081 and F082 both predicted a
// crash) against an outcome: refuted when the pattern ran correctly, or when
// a crash or invalid access has a cause other than the claim's (Cause);
// corroborated when it crashed without one; inconclusive otherwise.
func (e Experiment) Verdict(o Outcome) string {
	switch {
	case o.JIT != success:
		return "refuted: not valid PTX, rejected before it can run"
	case o.Crashed() || o.Sanitizer != "" && o.Sanitizer != "clean" || !strings.HasPrefix(o.Output, "correct"):
		if e.Cause != "" {
			return "refuted: " + e.Cause
		}
		if o.Crashed() {
			return "corroborated"
		}
		return "inconclusive"
	}
	return "refuted"
}

// ExpectedOutput is the buffer a correct run leaves: every thread g stores
// Tag + (g^1) at byte offset 4(g^1) + bias of dst (F082) or Tag + g at 4g
// (F081); words nothing writes keep Poison.
func (e Experiment) ExpectedOutput() []uint32 {
	out := make([]uint32, Words)
	for i := range out {
		out[i] = Poison
	}
	for g := range uint64(Words) {
		if !e.Config.Derived {
			out[g] = Tag + uint32(g)
			continue
		}
		off := uint64(uint32(4*(g^1) + e.Bias))
		if off < 4*Words {
			out[off/4] = Tag + uint32(g^1)
		}
	}
	return out
}

// CompareOutput describes got against the expected buffer.
func (e Experiment) CompareOutput(got []uint32) string {
	want := e.ExpectedOutput()
	if len(got) != len(want) {
		return fmt.Sprintf("%d words, want %d", len(got), len(want))
	}
	diff := 0
	for i := range want {
		if got[i] != want[i] {
			diff++
		}
	}
	if diff == 0 {
		if !slices.ContainsFunc(want, func(w uint32) bool { return w != Poison }) {
			return "correct (nothing in bounds written)"
		}
		return "correct"
	}
	return fmt.Sprintf("differs in %d words", diff)
}

// Baselines of the two claims: the claim's pattern, well-formed, with
// shared-window addressing, a block barrier, 4 warps of 12 KiB each.
var (
	BaseF081 = Config{Access: Window, Barrier: true, Warps: 4}
	BaseF082 = Config{Derived: true, Access: Window, Barrier: true, Warps: 4}
)

func with(c Config, f func(*Config)) Config {
	f(&c)
	return c
}

// Edits of the F082 baseline's text (register names as the builder
// numbers them; Apply panics if they stop matching).
var (
	asWritten = Edit{
		Old: "\tcvt.u64.u32 %rd6, %r10;\n\tadd.u64 %rd7, %rd0, %rd6; // address = dst + offset\n",
		New: "\tadd.u64 %rd7, %rd0, %r10; // as the claim writes it: a u32 register in a u64 add\n",
		Why: "the claim's add.u64 %r_dest, %r_base, %r_offset with the offset in a 32-bit register",
	}
	wideLoad = Edit{
		Old: "\tld.shared.u32 %r10, [%rd5+8192]; // the neighbour's offset, loaded from shared memory\n\tcvt.u64.u32 %rd6, %r10;\n",
		New: "\tld.shared.u32 %rd6, [%rd5+8192]; // loaded into a 64-bit register: zero-extended\n",
		Why: "ld.shared.u32 into a 64-bit register, which PTX zero-extends, in place of cvt.u64.u32",
	}
)

// Outcomes recorded on the device (Recorded says which).
var (
	ran      = Outcome{JIT: success, Launch: success, Sync: success, Output: "correct", Sanitizer: "clean"}
	rejected = Outcome{JIT: "CUDA_ERROR_INVALID_PTX", Launch: "-", Sync: "-", Output: "-",
		Sanitizer: `Program hit CUDA_ERROR_INVALID_PTX (error 218) due to "a PTX JIT compilation failed" on CUDA API call to cuModuleLoadDataEx.`}
	genericRead = Outcome{JIT: success, Launch: success, Sync: "CUDA_ERROR_ILLEGAL_ADDRESS",
		Output: "unreadable", Sanitizer: "Invalid __global__ read of size 4 bytes"}
	pastEnd = Outcome{JIT: success, Launch: success, Sync: success, Output: "correct (nothing in bounds written)",
		Sanitizer: "Invalid __global__ write of size 4 bytes"}
	// A load that no barrier orders after another thread's store may see
	// the value from before it: run to run, every word is right or some are
	// stale (FALS-7).
	racy = Outcome{JIT: success, Launch: success, Sync: success, Output: "correct" + alt + staleWords, Sanitizer: "clean"}
	// The driver names the same out-of-bounds global write with one code or
	// the other from run to run (FALS-7).
	farWrite = Outcome{JIT: success, Launch: success, Sync: "CUDA_ERROR_ILLEGAL_ADDRESS" + alt + "CUDA_ERROR_INVALID_ADDRESS_SPACE",
		Output: "unreadable", Sanitizer: "Invalid __global__ write of size 4 bytes"}
)

// alt separates the alternatives of a recorded field that the device gives
// one or the other of, from run to run.
const alt = " or "

// Matches reports whether an observed outcome is the recorded one r: every
// field equal to r's, or to one of its alternatives.
func (o Outcome) Matches(r Outcome) bool {
	return oneOf(o.JIT, r.JIT) && oneOf(o.Launch, r.Launch) && oneOf(o.Sync, r.Sync) &&
		oneOf(o.Output, r.Output) && oneOf(o.Sanitizer, r.Sanitizer)
}

func oneOf(got, recorded string) bool {
	return got == recorded || slices.ContainsFunc(strings.Split(recorded, alt), func(r string) bool {
		return r == got || r == staleWords && strings.HasPrefix(got, "differs in ")
	})
}

// staleWords, as a recorded output, stands for any count of differing
// words ("differs in N words").
const staleWords = "differs in some words"

// Experiments lists every experiment, F081's then F082's, in ID order.
func Experiments() []Experiment { return slices.Clone(experiments) }

var experiments = []Experiment{
	{
		ID: "F081-0", Claim: F081, Varied: "-",
		Hypothesis: "ld.shared.u32 of a value followed by st.global.u32 of it crashes",
		Prediction: "runs; every word correct; memcheck clean",
		Config:     BaseF081,
		Recorded:   ran,
	},
	{
		ID: "F081-1", Claim: F081, Varied: "shared access: " + Generic.String(),
		Hypothesis: "the F081 pattern crashes with generic shared addressing (the claim's kernel)",
		Prediction: "runs; every word correct; memcheck clean",
		Config:     with(BaseF081, func(c *Config) { c.Access = Generic }),
		Recorded:   ran,
	},
	{
		ID: "F081-2", Claim: F081, Varied: "no bar.sync between the shared store and load",
		Hypothesis: "the F081 pattern crashes without a block barrier",
		Prediction: "no crash (a missing barrier can give a stale value, never a fault here)",
		Config:     with(BaseF081, func(c *Config) { c.Barrier = false }),
		Recorded:   racy,
		Cause:      "a race, no crash: no barrier orders the load after the neighbour's store",
	},
	{
		ID: "F081-3", Claim: F081, Varied: "1 warp per block (12 KiB of shared memory)",
		Hypothesis: "the F081 pattern crashes, whatever the block shape",
		Prediction: "runs; every word correct; memcheck clean",
		Config:     with(BaseF081, func(c *Config) { c.Warps = 1 }),
		Recorded:   ran,
	},
	{
		ID: "F081-4", Claim: F081, Varied: "generic st.u32 in place of st.global.u32",
		Hypothesis: "the F081 pattern crashes with a generic store",
		Prediction: "runs; every word correct; memcheck clean",
		Config:     with(BaseF081, func(c *Config) { c.GenericStore = true }),
		Recorded:   ran,
	},
	{
		ID: "F082-0", Claim: F082, Varied: "-",
		Hypothesis: "a st.global.u32 to dst + an offset loaded by ld.shared.u32 (widened by cvt.u64.u32) crashes",
		Prediction: "runs; every word correct; memcheck clean",
		Config:     BaseF082,
		Recorded:   ran,
	},
	{
		ID: "F082-1", Claim: F082, Varied: "offset: u32 register added by add.u64, as the claim writes it",
		Hypothesis: "the claim's text, as written, is a kernel that crashes",
		Prediction: "ptxas and the driver's JIT reject it (operand types mismatch): it never runs",
		Config:     BaseF082, Edits: []Edit{asWritten},
		Assembly: Assembly{Rejected: true, Message: "Arguments mismatch for instruction 'add'"},
		Recorded: rejected,
	},
	{
		ID: "F082-2", Claim: F082, Varied: "offset: ld.shared.u32 into a 64-bit register, no cvt",
		Hypothesis: "the well-typed reading of the claim's text crashes",
		Prediction: "runs; every word correct; memcheck clean",
		Config:     BaseF082, Edits: []Edit{wideLoad},
		Recorded: ran,
	},
	{
		ID: "F082-3", Claim: F082, Varied: "shared access: " + Generic.String(),
		Hypothesis: "the F082 pattern crashes with generic shared addressing (the claim's kernel)",
		Prediction: "runs; every word correct; memcheck clean",
		Config:     with(BaseF082, func(c *Config) { c.Access = Generic }),
		Recorded:   ran,
	},
	{
		ID: "F082-4", Claim: F082, Varied: "shared access: " + WindowGenericLoad.String(),
		Hypothesis: "mixing a shared-window address with a generic load is harmless",
		Prediction: "faults: the window offset, read as a generic address, is no mapped memory",
		Config:     with(BaseF082, func(c *Config) { c.Access = WindowGenericLoad }),
		Cause:      "PTX error: a shared-window address used by a generic ld",
		Recorded:   genericRead,
	},
	{
		ID: "F082-5", Claim: F082, Varied: "shared access: " + GenericSharedLoad.String(),
		Hypothesis: "mixing a generic address with ld.shared is harmless",
		Prediction: "faults or reads the wrong shared address, unless the generic shared window starts at a multiple of 2^32",
		Config:     with(BaseF082, func(c *Config) { c.Access = GenericSharedLoad }), Against: "F082-3",
		Cause:    "PTX error: a generic address used by ld.shared",
		Recorded: ran,
	},
	{
		ID: "F082-6", Claim: F082, Varied: "offset value: bias = buffer size (just past its end)",
		Hypothesis: "an out-of-bounds offset just past the buffer crashes",
		Prediction: "no CUDA error (the allocation's granule is mapped) but memcheck reports invalid global writes; no word of dst written",
		Config:     BaseF082, Bias: 4 * Words,
		Cause:    "PTX error: the offset value lies outside the buffer",
		Recorded: pastEnd,
	},
	{
		ID: "F082-7", Claim: F082, Varied: "offset value: bias = 0x10000000 (256 MiB past the buffer)",
		Hypothesis: "a far out-of-bounds offset crashes",
		Prediction: "CUDA_ERROR_ILLEGAL_ADDRESS; memcheck reports invalid global writes",
		Config:     BaseF082, Bias: 0x10000000,
		Cause:    "PTX error: the offset value lies outside the buffer; F082-11 crashes alike with no shared memory",
		Recorded: farWrite,
	},
	{
		ID: "F082-8", Claim: F082, Varied: "no bar.sync between the shared store and load",
		Hypothesis: "the F082 pattern crashes without a block barrier",
		Prediction: "runs correctly here, but only by the warp's lockstep: the load may legally see stale shared memory",
		Config:     with(BaseF082, func(c *Config) { c.Barrier = false }),
		Recorded:   racy,
		Cause:      "a race, no crash: no barrier orders the load after the neighbour's store",
	},
	{
		ID: "F082-9", Claim: F082, Varied: "1 warp per block (12 KiB of shared memory)",
		Hypothesis: "the F082 pattern crashes, whatever the block shape",
		Prediction: "runs; every word correct; memcheck clean",
		Config:     with(BaseF082, func(c *Config) { c.Warps = 1 }),
		Recorded:   ran,
	},
	{
		ID: "F082-10", Claim: F082, Varied: "generic st.u32 in place of st.global.u32",
		Hypothesis: "the F082 pattern crashes with a generic store",
		Prediction: "runs; every word correct; memcheck clean",
		Config:     with(BaseF082, func(c *Config) { c.GenericStore = true }),
		Recorded:   ran,
	},
	{
		ID: "F082-11", Claim: F082, Varied: "control: F082-7's offset computed in registers, no shared memory",
		Hypothesis: "F082-7's crash needs the shared-memory load",
		Prediction: "crashes as F082-7 does: the fault follows the address value, not where it came from",
		Config:     with(BaseF082, func(c *Config) { c.FromRegister = true }),
		Bias:       0x10000000, Against: "F082-7",
		Cause:    "PTX error: the offset value lies outside the buffer (no shared memory involved)",
		Recorded: farWrite,
	},
	{
		ID: "F082-12", Claim: F082, Varied: "no bar.sync between the shared store and load",
		Hypothesis: "F082-7's fault is named CUDA_ERROR_INVALID_ADDRESS_SPACE because of the block barrier",
		Prediction: "none on the code (written before the run): it decides which code the driver gives without the barrier",
		Config:     with(BaseF082, func(c *Config) { c.Barrier = false }),
		Bias:       0x10000000, Against: "F082-7",
		Cause:    "PTX error: the offset value lies outside the buffer",
		Recorded: farWrite,
	},
	{
		ID: "F082-13", Claim: F082, Varied: "1 warp per block (12 KiB of shared memory)",
		Hypothesis: "F082-7's fault is named CUDA_ERROR_INVALID_ADDRESS_SPACE because of the block shape",
		Prediction: "none on the code (written before the run): it decides which code the driver gives with 1 warp per block",
		Config:     with(BaseF082, func(c *Config) { c.Warps = 1 }),
		Bias:       0x10000000, Against: "F082-7",
		Cause:    "PTX error: the offset value lies outside the buffer",
		Recorded: farWrite,
	},
}

// TargetSM is the PTX target for a device of compute capability sm (e.g.
// 90): the newest target of spec/gpu.md GPU-2 not above it, 0 when the
// device is older than all of them.
func TargetSM(sm int) int {
	best := 0
	for _, t := range []int{70, 75, 80, 86, 89, 90} {
		if t <= sm {
			best = t
		}
	}
	return best
}

// Recorded is the device run the recorded outcomes come from.
var Recorded = Run{Device: "NVIDIA H100 80GB HBM3 (sm_90)", Driver: "580.159.04", Date: "2026-11-23"}
