package falsification

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"github.com/lz4warp/lz4warp/internal/gputest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// childEnv names, in a test process started by TestDevice, the one
// experiment it runs. A sticky error (an illegal address) leaves the whole
// process unable to create another context on driver 580, so every
// experiment runs in a process of its own.
const childEnv = "LZ4WARP_FALS_EXPERIMENT"

const outcomeMarker = "lz4warp-falsification-outcome: "

// Checks DOC-8, FALS-4, FALS-5, FALS-6, FALS-7: every experiment runs on the
// device and shows its recorded outcome, memcheck included where
// compute-sanitizer is installed; the tables of this run are printed.
func TestDevice(t *testing.T) {
	if id := os.Getenv(childEnv); id != "" {
		runChild(t, id)
		return
	}
	gputest.Require(t)
	name, sm, api, err := DeviceInfo()
	if err != nil {
		t.Fatalf("device 0: %v", err)
	}
	driver := os.Getenv("LZ4WARP_DRIVER")
	if driver == "" {
		driver = fmt.Sprintf("CUDA %d.%d", api/1000, api%1000/10)
	}
	run := Run{Device: fmt.Sprintf("%s (sm_%d)", name, sm), Driver: driver, Date: time.Now().UTC().Format("2006-01-02")}
	t.Logf("device %s, driver %s, PTX target sm_%d", run.Device, run.Driver, TargetSM(sm))
	sanitizer := findSanitizer()
	if sanitizer == "" {
		t.Log("compute-sanitizer not found: memcheck findings are not checked, and the outcomes they decide are skipped")
	}

	type result struct {
		o            Outcome
		log, mclog   string
		err          error
		underChecker Outcome
	}
	exps := Experiments()
	results := make([]result, len(exps))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, e := range exps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			r := &results[i]
			r.o, r.log, r.err = runInChild(e.ID, "")
			if sanitizer != "" && r.err == nil {
				var err error
				r.underChecker, r.mclog, err = runInChild(e.ID, sanitizer)
				r.o.Sanitizer = memcheckFinding(r.mclog, err)
			}
		}()
	}
	wg.Wait()

	got := map[string]Outcome{}
	matching := 0
	for i, e := range exps {
		r := results[i]
		t.Run(e.ID, func(t *testing.T) {
			if r.err != nil {
				t.Fatalf("%v\n%s", r.err, r.log)
			}
			o := r.o
			got[e.ID] = o
			t.Logf("JIT %s, launch %s, sync %s, output %s", o.JIT, o.Launch, o.Sync, o.Output)
			for _, line := range strings.Split(r.log, "\n") {
				if strings.Contains(line, "JIT error log") {
					t.Log(strings.TrimSpace(line))
				}
			}
			recorded := e.Recorded
			if sanitizer == "" {
				// Without memcheck its finding is not checked (the
				// outcome's is empty), and an outcome that memcheck
				// alone tells apart is not checked at all.
				if recorded.Sanitizer != "clean" {
					t.Skipf("compute-sanitizer not found: memcheck's finding (%s) decides this outcome", recorded.Sanitizer)
				}
				recorded.Sanitizer = o.Sanitizer
			} else {
				t.Logf("memcheck: %s (under memcheck: launch %s, sync %s)", o.Sanitizer, r.underChecker.Launch, r.underChecker.Sync)
			}
			if !o.Matches(recorded) {
				t.Errorf("outcome %+v differs from the recorded %+v\n%s", o, recorded, r.mclog)
				return
			}
			matching++
		})
	}
	for _, claim := range []string{F081, F082} {
		var b strings.Builder
		if err := WriteTable(&b, claim, run, func(e Experiment) Outcome {
			if o, ok := got[e.ID]; ok {
				return o
			}
			return Outcome{JIT: "not run"}
		}); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("\n%s on this device:\n%s", claim, b.String())
	}
	fmt.Printf("falsification: experiments %d, matching recorded %d\n", len(exps), matching)
}

// runChild is the child's side: one experiment, its outcome on stdout.
func runChild(t *testing.T, id string) {
	e, ok := Lookup(id)
	if !ok {
		t.Fatalf("no experiment %s", id)
	}
	o, jitLog, err := RunOnDevice(e)
	if err != nil {
		t.Fatal(err)
	}
	if jitLog != "" {
		fmt.Printf("JIT error log: %s\n", strings.ReplaceAll(jitLog, "\n", " / "))
	}
	js, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("%s%s\n", outcomeMarker, js)
}

// runInChild runs one experiment in a child test process, under the
// sanitizer when one is given, and returns its outcome and output.
func runInChild(id, sanitizer string) (Outcome, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := []string{os.Args[0], "-test.run", "^TestDevice$", "-test.v"}
	if sanitizer != "" {
		args = append([]string{sanitizer, "--tool", "memcheck", "--print-limit", "10"}, args...)
	}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Env = append(os.Environ(), childEnv+"="+id)
	out, runErr := cmd.CombinedOutput()
	log := string(out)
	for _, line := range strings.Split(log, "\n") {
		if i := strings.Index(line, outcomeMarker); i >= 0 {
			var o Outcome
			if err := json.Unmarshal([]byte(line[i+len(outcomeMarker):]), &o); err != nil {
				return o, log, err
			}
			return o, log, nil
		}
	}
	return Outcome{}, log, fmt.Errorf("no outcome from the child process of %s (%v)", id, runErr)
}

func findSanitizer() string {
	if p, err := exec.LookPath("compute-sanitizer"); err == nil {
		return p
	}
	for _, p := range []string{"/usr/local/cuda/bin/compute-sanitizer", "/usr/local/cuda/compute-sanitizer/compute-sanitizer"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

var (
	summaryRe = regexp.MustCompile(`^========= ERROR SUMMARY: (\d+) error`)
	errorRe   = regexp.MustCompile(`^========= (Invalid .*|Misaligned .*|Out-of-range .*|Program hit .*|.*[Ee]rror.*)$`)
	addrRe    = regexp.MustCompile(`0x[0-9a-f]+`)
)

// memcheckFinding condenses what compute-sanitizer memcheck printed:
// "clean", or its first error line (addresses masked, since they move
// between runs).
func memcheckFinding(log string, err error) string {
	first, summary := "", ""
	sc := bufio.NewScanner(strings.NewReader(log))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if m := summaryRe.FindStringSubmatch(line); m != nil {
			summary = m[1]
			continue
		}
		if first == "" {
			if m := errorRe.FindStringSubmatch(line); m != nil {
				first = addrRe.ReplaceAllString(strings.TrimSpace(m[1]), "0x…")
			}
		}
	}
	switch {
	case summary == "":
		return fmt.Sprintf("no memcheck summary (%v)", err)
	case summary == "0":
		return "clean"
	case first == "":
		return summary + " errors"
	}
	return first
}
