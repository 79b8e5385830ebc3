// Package gputest decides, for tests and benchmarks, whether a GPU run
// happens: the same test binaries run everywhere, and those that need a
// device skip where none can be used, except on a machine meant for GPU
// runs, where they fail.
package gputest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lz4warp/lz4warp/internal/cudart"
)

// RequireEnv names an environment variable that, when set (the GPU
// machine's run script sets it), makes Require fail a test instead of
// skipping it, so that a GPU run cannot pass by skipping.
const RequireEnv = "LZ4WARP_REQUIRE_GPU"

// Require skips tb, or fails it where RequireEnv is set, unless a CUDA
// device can be used. Tests and benchmarks that need a GPU call it first.
func Require(tb testing.TB) {
	tb.Helper()
	if err := Usable(); err != nil {
		if os.Getenv(RequireEnv) != "" {
			tb.Fatalf("a GPU is required (%s is set): %v", RequireEnv, err)
		}
		tb.Skipf("no usable GPU: %v", err)
	}
}

// Usable returns nil when a CUDA device can be used, else why not.
func Usable() error {
	devs, err := cudart.Devices()
	if err != nil {
		return err
	}
	if len(devs) == 0 {
		return errNoDevice
	}
	return nil
}

var errNoDevice = errors.New("the driver reports no CUDA device")

// A Fake is a stand-in driver library for tests on machines without one.
type Fake int

const (
	// FakeNoDevice exports every entry point, and each returns
	// CUDA_ERROR_NO_DEVICE, cuInit first, as a driver does in a container
	// without the device.
	FakeNoDevice Fake = iota
	// FakeMissingSymbols exports cuInit alone.
	FakeMissingSymbols
	// FakeZeroDevices initialises and counts no device.
	FakeZeroDevices
)

// FakeDriver compiles a fake libcuda.so.1 with the C compiler ($CC, else
// gcc) into a new folder and returns the folder, for LD_LIBRARY_PATH. It
// skips tb without a C compiler, or fails it under CI=true.
func FakeDriver(tb testing.TB, f Fake) string {
	tb.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("no C compiler (%s) to build a fake driver: %v", cc, err)
		}
		tb.Skipf("no C compiler (%s) to build a fake driver: %v", cc, err)
	}
	var src strings.Builder
	switch f {
	case FakeNoDevice:
		for _, name := range cudart.EntryPoints() {
			fmt.Fprintf(&src, "int %s(void) { return 100; }\n", name)
		}
	case FakeMissingSymbols:
		src.WriteString("int cuInit(unsigned flags) { return 0; }\n")
	case FakeZeroDevices:
		for _, name := range cudart.EntryPoints() {
			if name != "cuDeviceGetCount" {
				fmt.Fprintf(&src, "int %s(void) { return 0; }\n", name)
			}
		}
		src.WriteString("int cuDeviceGetCount(int *n) { *n = 0; return 0; }\n")
	}
	dir := tb.TempDir()
	c := filepath.Join(dir, "fake.c")
	if err := os.WriteFile(c, []byte(src.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	out, err := exec.Command(cc, "-shared", "-fPIC", "-Wl,-soname,libcuda.so.1", "-o", filepath.Join(dir, "libcuda.so.1"), c).CombinedOutput()
	if err != nil {
		tb.Fatalf("building the fake driver: %v\n%s", err, out)
	}
	return dir
}

// FakeEnv returns the environment of a child process that loads the fake
// driver in dir (FakeDriver's folder), or no driver at all when dir is "".
func FakeEnv(dir string) []string {
	env := append([]string(nil), os.Environ()...)
	if dir == "" {
		return append(env, cudart.LibraryEnv+"="+filepath.Join(os.TempDir(), "no-such-dir", "libcuda.so.1"))
	}
	return append(env, "LD_LIBRARY_PATH="+dir, cudart.LibraryEnv+"=")
}

// ChildEnv marks the child process of InChild.
const ChildEnv = "LZ4WARP_CHILD"

// InChild runs the calling test again in a child process, for checks that
// leave the process unable to use the GPU (a sticky fault) or that need a
// driver of their own (the driver is loaded once per process), and reports
// whether this is the child. The child's environment is env (the parent's
// when nil) with ChildEnv set; the parent logs its output and fails unless
// the child ran the test and it passed.
func InChild(t *testing.T, env []string) bool {
	t.Helper()
	if os.Getenv(ChildEnv) != "" {
		return true
	}
	if env == nil {
		env = os.Environ()
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(env, ChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	t.Logf("child process:\n%s", out)
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("child process: %v", err)
	}
	return false
}
