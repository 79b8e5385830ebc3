package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lz4warp/lz4warp/gpuimpl"
	"github.com/lz4warp/lz4warp/internal/ptxas"
)

// Checks RT-12, GPU-6: make ptx-check's table has a row per kernel and
// target, passes the kernels, and fails a kernel over its shared-memory
// budget.
func TestCheck(t *testing.T) {
	path := ptxas.Require(t)
	var out bytes.Buffer
	if !check(&out, path, kernels) {
		t.Fatalf("the kernels fail ptx-check:\n%s", out.String())
	}
	for _, k := range kernels {
		for _, sm := range []string{"sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"} {
			if !regexp.MustCompile(`(?m)^` + k.name + ` +` + sm + ` .* ok$`).MatchString(out.String()) {
				t.Errorf("no ok row for %s on %s:\n%s", k.name, sm, out.String())
			}
		}
	}
	out.Reset()
	bad := kernels[0]
	bad.text = func(sm int) string { return strings.Replace(gpuimpl.KernelPTX(sm), "smem[49152]", "smem[40960]", 1) }
	if check(&out, path, []kernel{bad}) {
		t.Errorf("a kernel with 40 KiB of shared memory passes:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "OVER BUDGET") {
		t.Errorf("no OVER BUDGET verdict:\n%s", out.String())
	}
}

// Checks RT-12: run.sh runs each binary from its package's folder and ends
// with one summary line per part, with the conformance figures.
func TestRunScriptSummary(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root := t.TempDir()
	bin := filepath.Join(root, "build", "gpu")
	for _, d := range []string{bin, filepath.Join(root, "gpuimpl"), filepath.Join(root, "internal", "cudart")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, from := range map[string]string{"run.sh": "gpu-run.sh", "goroot.sh": "gpu-goroot.sh"} {
		script, err := os.ReadFile(filepath.Join("..", "..", "scripts", from))
		if err != nil {
			t.Fatal(err)
		}
		write(name, string(script))
	}
	// Stand-ins for the test binaries: they print what the real ones print.
	write("gpuimpl.test", "#!/bin/sh\ncase \"$PWD\" in */gpuimpl) ;; *) echo wrong folder; exit 3;; esac\n"+
		"echo '--- PASS: TestConformance (1.00s)'\necho 'conformance: pages checked 1048576, mismatches 0'\necho PASS\n")
	write("internal-cudart.test", "#!/bin/sh\necho '--- PASS: TestDevices (0.00s)'\necho '--- FAIL: TestGaps (0.00s)'\necho FAIL\nexit 1\n")
	cmd := exec.Command("bash", filepath.Join(bin, "run.sh"), "cudart", "conformance", "features")
	cmd.Env = append(os.Environ(), "OUT="+filepath.Join(root, "out"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	want := []string{
		"cudart: FAIL (exit 1) in ",
		"conformance: PASS in ",
		"conformance-pkg: skipped (no conformance.test)",
		"features: skipped (no features.test)",
	}
	if len(lines) < len(want) {
		t.Fatalf("output:\n%s", out)
	}
	tail := lines[len(lines)-len(want):]
	for i, w := range want {
		if !strings.HasPrefix(tail[i], w) {
			t.Errorf("summary line %d: %q, want prefix %q\n%s", i, tail[i], w, out)
		}
	}
	if !strings.HasSuffix(tail[1], "; pages checked 1048576, mismatches 0") {
		t.Errorf("conformance summary %q lacks the figures", tail[1])
	}
	if !strings.Contains(tail[0], "1 passed, 1 failed") {
		t.Errorf("cudart summary %q lacks the counts", tail[0])
	}
}
