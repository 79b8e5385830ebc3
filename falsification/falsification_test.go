package falsification

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/lz4warp/lz4warp/internal/golden"

	"github.com/lz4warp/lz4warp/gpuimpl"
	"github.com/lz4warp/lz4warp/internal/ptx"
	"github.com/lz4warp/lz4warp/internal/ptxas"
)

// Checks FALS-1: every experiment is complete and its ID unique.
func TestExperimentsComplete(t *testing.T) {
	seen := map[string]bool{}
	idRe := regexp.MustCompile(`^(F081|F082)-(0|[1-9][0-9]*)$`)
	for _, e := range Experiments() {
		m := idRe.FindStringSubmatch(e.ID)
		if m == nil || m[1] != e.Claim {
			t.Errorf("%s: ID does not name its claim %s", e.ID, e.Claim)
		}
		if seen[e.ID] {
			t.Errorf("%s: duplicate ID", e.ID)
		}
		seen[e.ID] = true
		if e.Hypothesis == "" || e.Prediction == "" || e.Varied == "" {
			t.Errorf("%s: hypothesis, prediction or varied factor missing", e.ID)
		}
		if (e.Varied == "-") != (m != nil && m[2] == "0") {
			t.Errorf("%s: only <claim>-0 is a baseline (Varied %q)", e.ID, e.Varied)
		}
		for _, ed := range e.Edits {
			if ed.Why == "" {
				t.Errorf("%s: edit %q gives no reason", e.ID, ed.Old)
			}
		}
		if e.Assembly.Rejected && e.Assembly.Message == "" {
			t.Errorf("%s: rejected without the message ptxas gives", e.ID)
		}
	}
	for _, claim := range []string{F081, F082} {
		if !seen[claim+"-0"] {
			t.Errorf("claim %s has no baseline", claim)
		}
	}
}

// Checks FALS-2: each experiment differs from the one it varies in exactly
// one factor: one field of the kernel's Config, or the edits of its text, or
// the bias argument of the launch.
func TestOneFactorAtATime(t *testing.T) {
	for _, e := range Experiments() {
		ref := e.Reference()
		if ref == "" {
			if len(e.Edits) != 0 || e.Bias != 0 {
				t.Errorf("%s: a baseline has no edits and bias 0", e.ID)
			}
			continue
		}
		base, ok := Lookup(ref)
		if !ok {
			t.Errorf("%s varies %s, which does not exist", e.ID, ref)
			continue
		}
		var diffs []string
		cv, bv := reflect.ValueOf(e.Config), reflect.ValueOf(base.Config)
		for i := range cv.NumField() {
			if cv.Field(i).Interface() != bv.Field(i).Interface() {
				diffs = append(diffs, cv.Type().Field(i).Name)
			}
		}
		if !reflect.DeepEqual(e.Edits, base.Edits) {
			diffs = append(diffs, "Edits")
		}
		if e.Bias != base.Bias {
			diffs = append(diffs, "Bias")
		}
		if len(diffs) != 1 {
			t.Errorf("%s differs from %s in %v, want exactly one factor", e.ID, ref, diffs)
		}
	}
}

// Checks FALS-3: every experiment's text assembles for sm_90 and sm_70, or
// is rejected with the recorded message.
func TestAssembly(t *testing.T) {
	path := ptxas.Require(t)
	for _, e := range Experiments() {
		t.Run(e.ID, func(t *testing.T) {
			t.Parallel()
			for _, sm := range []int{90, 70} {
				rep, err := ptxas.Assemble(context.Background(), path, e.PTX(sm), sm)
				if e.Assembly.Rejected {
					if !errors.Is(err, ptxas.ErrAssemble) || !strings.Contains(rep.Log, e.Assembly.Message) {
						t.Errorf("sm_%d: want rejection %q, got %v", sm, e.Assembly.Message, err)
					}
					continue
				}
				if err != nil {
					t.Errorf("sm_%d: %v", sm, err)
					continue
				}
				r, ok := rep.Kernel(KernelName)
				if !ok || r.SharedBytes != e.Config.SharedBytes() {
					t.Errorf("sm_%d: %+v, want %d bytes of shared memory", sm, r, e.Config.SharedBytes())
				}
			}
		})
	}
}

// Checks FALS-3: golden copies of every experiment's sm_90 text.
func TestGolden(t *testing.T) {
	for _, e := range Experiments() {
		golden.Check(t, filepath.Join("testdata", e.ID+".ptx"), []byte(e.PTX(90)))
	}
}

// Checks FALS-1: the hand edits change exactly the claimed statements and
// the builder refuses the malformed form, so that it has to be hand-written.
func TestEdits(t *testing.T) {
	e, _ := Lookup("F082-1")
	text := e.PTX(90)
	if !strings.Contains(text, "add.u64 %rd7, %rd0, %r10;") || strings.Contains(text, "cvt.u64.u32") {
		t.Errorf("F082-1 is not the claim's add.u64 of a 32-bit register:\n%s", text)
	}
	k := ptx.NewModule(90).Entry("k")
	r64, r32 := k.NewReg64(), k.NewReg32()
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the builder emitted add.u64 with a 32-bit operand")
			}
		}()
		k.Add(r64, r64, r32)
	}()
	defer func() {
		if recover() == nil {
			t.Error("Apply accepted an edit that matches nothing")
		}
	}()
	Apply("abc", []Edit{{Old: "x", New: "y"}})
}

// Checks FALS-4: the host's expectation of the output buffer.
func TestExpectedOutput(t *testing.T) {
	for _, id := range []string{"F081-0", "F082-0", "F082-9"} {
		e, _ := Lookup(id)
		for i, w := range e.ExpectedOutput() {
			if w != Tag+uint32(i) {
				t.Fatalf("%s: word %d expected %#x", id, i, w)
			}
		}
	}
	e, _ := Lookup("F082-6")
	want := e.ExpectedOutput()
	for _, w := range want {
		if w != Poison {
			t.Fatal("F082-6 writes past the buffer only; every word must keep the poison")
		}
	}
	if got := e.CompareOutput(want); got != "correct (nothing in bounds written)" {
		t.Errorf("CompareOutput of the expectation: %s", got)
	}
	got := append([]uint32(nil), want...)
	got[3], got[9] = 0, 0
	if s := e.CompareOutput(got); s != "differs in 2 words" {
		t.Errorf("CompareOutput: %s", s)
	}
}

// Checks FALS-4: which text a device of a given architecture gets.
func TestTargetSM(t *testing.T) {
	for sm, want := range map[int]int{60: 0, 70: 70, 72: 70, 87: 86, 90: 90, 100: 90, 120: 90} {
		if got := TargetSM(sm); got != want {
			t.Errorf("TargetSM(%d) = %d, want %d", sm, got, want)
		}
	}
}

// Checks FALS-4: an outcome matches a recorded one field by field, where a
// recorded field may list alternatives.
func TestMatches(t *testing.T) {
	e, _ := Lookup("F082-7")
	r := e.Recorded
	o := r
	for _, code := range []string{"CUDA_ERROR_ILLEGAL_ADDRESS", "CUDA_ERROR_INVALID_ADDRESS_SPACE"} {
		o.Sync = code
		if !o.Matches(r) {
			t.Errorf("%s does not match the recorded %q", code, r.Sync)
		}
	}
	for _, bad := range []func(*Outcome){
		func(o *Outcome) { o.Sync = "CUDA_ERROR_LAUNCH_FAILED" },
		func(o *Outcome) { o.Sync = "CUDA_ERROR_ILLEGAL_ADDRESS or" },
		func(o *Outcome) { o.Output = "correct" },
		func(o *Outcome) { o.Sanitizer = "clean" },
		func(o *Outcome) { o.JIT = "CUDA_ERROR_INVALID_PTX" },
		func(o *Outcome) { o.Launch = "-" },
	} {
		o := r
		o.Sync = "CUDA_ERROR_ILLEGAL_ADDRESS"
		bad(&o)
		if o.Matches(r) {
			t.Errorf("%+v matches the recorded %+v", o, r)
		}
	}
	if base, _ := Lookup("F082-0"); !base.Recorded.Matches(base.Recorded) {
		t.Error("a recorded outcome does not match itself")
	}
	// A racy load's record takes a correct output or any count of stale
	// words, and nothing else.
	racyLoad, _ := Lookup("F082-8")
	for output, want := range map[string]bool{"correct": true, "differs in 1408 words": true, "differs in 1 words": true,
		"differs in some words": true, "unreadable": false, "differs": false, "correct (nothing in bounds written)": false} {
		o := racyLoad.Recorded
		o.Output = output
		if o.Matches(racyLoad.Recorded) != want {
			t.Errorf("output %q: matches the racy record: %v, want %v", output, !want, want)
		}
	}
}

// Checks FALS-5: the verdict rule.
func TestVerdict(t *testing.T) {
	ok := Outcome{JIT: success, Launch: success, Sync: success, Output: "correct", Sanitizer: "clean"}
	crash := Outcome{JIT: success, Launch: success, Sync: "CUDA_ERROR_ILLEGAL_ADDRESS", Output: "unreadable", Sanitizer: "Invalid __global__ write"}
	rejected := Outcome{JIT: "CUDA_ERROR_INVALID_PTX", Launch: "-", Sync: "-", Output: "-", Sanitizer: "clean"}
	plain, _ := Lookup("F082-0")
	caused, _ := Lookup("F082-7")
	racyLoad, _ := Lookup("F082-8")
	for _, c := range []struct {
		e    Experiment
		o    Outcome
		want string
	}{
		{plain, ok, "refuted"},
		{plain, crash, "corroborated"},
		{plain, rejected, "refuted: not valid PTX, rejected before it can run"},
		{caused, crash, "refuted: " + caused.Cause},
		{plain, Outcome{JIT: success, Launch: success, Sync: success, Output: "differs in 1 words", Sanitizer: "clean"}, "inconclusive"},
		{racyLoad, Outcome{JIT: success, Launch: success, Sync: success, Output: "differs in 1408 words", Sanitizer: "clean"}, "refuted: " + racyLoad.Cause},
		{racyLoad, ok, "refuted"},
	} {
		if got := c.e.Verdict(c.o); got != c.want {
			t.Errorf("%s %+v: verdict %q, want %q", c.e.ID, c.o, got, c.want)
		}
	}
	if crash.CUDAResult() != "sync CUDA_ERROR_ILLEGAL_ADDRESS" || rejected.CUDAResult() != "JIT CUDA_ERROR_INVALID_PTX" || ok.CUDAResult() != success {
		t.Error("CUDAResult condenses wrongly")
	}
}

// Checks FALS-6, FALS-7: spec/falsification.md holds the tables of the
// recorded outcomes exactly as WriteTable renders them, between the markers
// <!-- begin CLAIM table --> and <!-- end CLAIM table --> (-update rewrites
// them).
func TestSpecTables(t *testing.T) {
	path := filepath.Join("..", "spec", "falsification.md")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	spec := string(raw)
	for _, claim := range []string{F081, F082} {
		var b strings.Builder
		if err := WriteTable(&b, claim, Recorded, func(e Experiment) Outcome { return e.Recorded }); err != nil {
			t.Fatal(err)
		}
		begin, end := "<!-- begin "+claim+" table -->\n", "<!-- end "+claim+" table -->"
		i, j := strings.Index(spec, begin), strings.Index(spec, end)
		if i < 0 || j < i {
			t.Fatalf("%s: no %s table markers", path, claim)
		}
		if got := spec[i+len(begin) : j]; got != b.String() {
			if golden.Updating() {
				spec = spec[:i+len(begin)] + b.String() + spec[j:]
				continue
			}
			t.Errorf("%s: the %s table differs from the recorded outcomes (go test ./falsification -update rewrites it):\n%s", path, claim, b.String())
		}
	}
	if golden.Updating() && spec != string(raw) {
		if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range Experiments() {
		if e.Recorded.JIT == "" || e.Recorded.Sanitizer == "" {
			t.Errorf("%s: no recorded device outcome", e.ID)
		}
	}
}

// Checks FALS-8: the page kernel keeps to the addressing the experiments
// found sound: shared memory through .shared instructions only, no
// cvta.shared, no generic loads or stores, and every global store through
// st.global.
func TestKernelAddressing(t *testing.T) {
	generic := regexp.MustCompile(`(?m)^\t(?:@!?%p\d+ )?(?:ld|st)\.(?:[usb]\d|v\d)`)
	for _, sm := range []int{70, 75, 80, 86, 89, 90} {
		text := gpuimpl.KernelPTX(sm)
		if strings.Contains(text, "cvta.shared") || strings.Contains(text, "cvta.to.shared") {
			t.Errorf("sm_%d: the kernel converts shared addresses to generic ones", sm)
		}
		if m := generic.FindString(text); m != "" {
			t.Errorf("sm_%d: the kernel uses a generic load or store: %q", sm, m)
		}
		if !strings.Contains(text, "ld.shared.") || !strings.Contains(text, "st.global.") {
			t.Errorf("sm_%d: the kernel no longer has the patterns under test", sm)
		}
	}
	// The pattern above must catch what it is meant to catch.
	e, _ := Lookup("F082-3")
	if !generic.MatchString(e.PTX(90)) {
		t.Error("the generic-access check misses F082-3's generic ld")
	}
}

// Checks FALS-6, FALS-7: the kept logs of the device runs show, for every
// experiment, an outcome that matches the record. The first run's binary
// still wrote the fault's code after "unreadable" in the output column;
// the record keeps the code in the CUDA result alone.
func TestRecordedRunLog(t *testing.T) {
	for _, run := range []string{"h100-2026-11-23", "h100-2026-11-25"} {
		t.Run(run, func(t *testing.T) { checkRunLog(t, filepath.Join("testdata", run, "falsify.log")) })
	}
}

// checkRunLog checks that the device log at path shows, for every
// experiment, an outcome that matches the record.
func checkRunLog(t *testing.T, path string) {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	runRe := regexp.MustCompile(`^=== RUN   TestDevice/(F08[12]-\d+)$`)
	jitRe := regexp.MustCompile(`^    device_cuda_test\.go:\d+: JIT (\S+), launch (\S+), sync (\S+), output (.+)$`)
	mcRe := regexp.MustCompile(`^    device_cuda_test\.go:\d+: memcheck: (.+) \(under memcheck: `)
	got := map[string]*Outcome{}
	var cur *Outcome
	for _, line := range strings.Split(string(raw), "\n") {
		if m := runRe.FindStringSubmatch(line); m != nil {
			cur = &Outcome{}
			got[m[1]] = cur
			continue
		}
		if cur == nil {
			continue
		}
		if m := jitRe.FindStringSubmatch(line); m != nil {
			cur.JIT, cur.Launch, cur.Sync = m[1], m[2], m[3]
			cur.Output, _, _ = strings.Cut(m[4], " (CUDA_ERROR_")
		}
		if m := mcRe.FindStringSubmatch(line); m != nil {
			cur.Sanitizer = m[1]
		}
	}
	for _, e := range Experiments() {
		o, ok := got[e.ID]
		if !ok {
			t.Errorf("%s: not in the run's log", e.ID)
			continue
		}
		if !o.Matches(e.Recorded) {
			t.Errorf("%s: logged %+v does not match the recorded %+v", e.ID, *o, e.Recorded)
		}
	}
}
