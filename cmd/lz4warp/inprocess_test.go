package main

import (
	"bytes"
	"context"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp"
)

// runIn runs a command line in this process with the given terminal flags.
func runIn(stdin io.Reader, stdoutTTY, stderrTTY bool, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), stdin: stdin, stdout: &out, stderr: &errb, stdoutTTY: stdoutTTY, stderrTTY: stderrTTY}
	code = run(e, args)
	return code, out.String(), errb.String()
}

// Checks CLI-7: compressed data is not written to a terminal.
func TestRefuseTerminal(t *testing.T) {
	code, out, errs := runIn(strings.NewReader("data"), true, false, "compress")
	if code != exitUsage || out != "" || !strings.Contains(errs, "refusing to write compressed data to a terminal") {
		t.Fatalf("compress to a terminal: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, _ := runIn(strings.NewReader("data"), true, false, "compress", "-o", t.TempDir()+"/x.lz4"); code != exitOK {
		t.Fatalf("compress -o with stdout a terminal: exit %d", code)
	}
}

// slowReader yields data with a pause every 64 KiB, so that work lasts.
type slowReader struct {
	data  []byte
	pause time.Duration
	n     int
}

func (s *slowReader) Read(p []byte) (int, error) {
	if len(s.data) == 0 {
		return 0, io.EOF
	}
	if s.n%(64<<10) == 0 {
		time.Sleep(s.pause)
	}
	n := copy(p, s.data[:min(len(s.data), 64<<10-s.n%(64<<10))])
	s.data = s.data[n:]
	s.n += n
	return n, nil
}

// Checks CLI-10: with stderr a terminal, long work draws a bar and erases
// it; with -q nothing is drawn.
func TestProgressOnTerminal(t *testing.T) {
	data := sample(1<<20, 3)
	slow := func() io.Reader { return &slowReader{data: bytes.Clone(data), pause: 60 * time.Millisecond} }
	code, out, errs := runIn(slow(), false, true, "compress", "-batch", "4")
	if code != exitOK || len(out) == 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(errs, "\rcompress ") || !strings.Contains(errs, "MB/s") || !strings.HasSuffix(errs, "\r\033[K") {
		t.Fatalf("no bar drawn and erased on a terminal: %q", errs)
	}
	if _, _, errs := runIn(slow(), false, true, "compress", "-q", "-batch", "4"); errs != "" {
		t.Fatalf("-q drew %q", errs)
	}
}

// Checks CLI-7: isTerminal is true for a terminal only, not for /dev/null
// (a character device) nor a pipe.
func TestIsTerminal(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Error("/dev/null is taken for a terminal")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if isTerminal(r) || isTerminal(w) {
		t.Error("a pipe is taken for a terminal")
	}
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0) // a new pseudo-terminal
	if err != nil {
		t.Skipf("no pseudo-terminal to test with: %v", err)
	}
	defer ptmx.Close()
	if !isTerminal(ptmx) {
		t.Error("a pseudo-terminal is not taken for a terminal")
	}
}

// Checks CLI-11: the printed comparisons are ">" exactly when the verdict
// holds, "=" only on equal values, and the values printed compare as the
// relation says, next to the threshold pcie·gpu = 15·(2·gpu + pcie) too.
func TestRuleRelationIsVerdict(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	lineRE := regexp.MustCompile(`(?m)^  rule .*:  ([0-9.]+) ms ([<=>]) ([0-9.]+) ms$|^  d cancels: .*⇔  ([0-9.]+) ([<=>]) ([0-9.]+)$`)
	check := func(pages int, pcie, gpu float64) {
		var b bytes.Buffer
		printRule(&b, pages, pcie, gpu)
		verdict := lz4warp.MeetsPCIeRule(pages, pcie, gpu)
		ms := lineRE.FindAllStringSubmatch(b.String(), -1)
		if len(ms) != 2 {
			t.Fatalf("rule %d %v %v: %d comparison lines:\n%s", pages, pcie, gpu, len(ms), b.String())
		}
		for _, m := range ms {
			x, rel, y := m[1]+m[4], m[2]+m[5], m[3]+m[6]
			xr, _ := new(big.Rat).SetString(x)
			yr, _ := new(big.Rat).SetString(y)
			if (rel == ">") != verdict || rel != [...]string{"<", "=", ">"}[xr.Cmp(yr)+1] {
				t.Fatalf("rule %d %v %v: prints %s %s %s, verdict %v", pages, pcie, gpu, x, rel, y, verdict)
			}
		}
	}
	check(10000, 60, 30)
	for i := 0; i < 2000; i++ {
		pcie := float64(1 + rng.IntN(200))
		gpu := 15 * pcie / (pcie - 30) // on the threshold, rounded
		if pcie <= 30 {
			gpu = float64(1 + rng.IntN(1000))
		}
		for _, g := range []float64{gpu, math.Nextafter(gpu, 0), math.Nextafter(gpu, math.Inf(1))} {
			check(1+rng.IntN(1e6), pcie, g)
		}
	}
}
