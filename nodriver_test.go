package lz4warp_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/lz4warp/lz4warp"
	"github.com/lz4warp/lz4warp/internal/cudart"
	"github.com/lz4warp/lz4warp/internal/gputest"
)

// driverChildEnv marks the child process of TestWithoutUsableDriver and
// names the case it checks.
const driverChildEnv = "LZ4WARP_TEST_DRIVER_CASE"

// Checks RT-16, API-11: a program that imports the package runs wherever
// the driver cannot be used: no library, a cuInit that fails, missing entry
// points, no device. It compresses and decompresses on the CPU, prints
// nothing of its own, and GPUError, GPUAvailable, Devices and
// NewGPUBatchCompressor say why, with the cause reachable through
// errors.Is and errors.As. Each case runs in a child process of its own,
// since the driver is loaded once per process.
func TestWithoutUsableDriver(t *testing.T) {
	if c := os.Getenv(driverChildEnv); c != "" {
		checkWithoutDriver(t, c)
		return
	}
	for _, c := range []struct {
		name string
		env  func() []string
	}{
		{"none", func() []string { return gputest.FakeEnv("") }},
		{"noinit", func() []string { return gputest.FakeEnv(gputest.FakeDriver(t, gputest.FakeNoDevice)) }},
		{"partial", func() []string { return gputest.FakeEnv(gputest.FakeDriver(t, gputest.FakeMissingSymbols)) }},
		{"nodevice", func() []string { return gputest.FakeEnv(gputest.FakeDriver(t, gputest.FakeZeroDevices)) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run", "^TestWithoutUsableDriver$", "-test.count=1")
			cmd.Env = append(c.env(), driverChildEnv+"="+c.name)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("child: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
			}
			// go test's own "PASS" is the only line: the package printed nothing.
			if got := stdout.String(); got != "PASS\n" {
				t.Errorf("child's stdout is %q, want only the test runner's PASS", got)
			}
		})
	}
}

func checkWithoutDriver(t *testing.T, which string) {
	cause := map[string]func(error) bool{
		"none":    func(err error) bool { return errors.Is(err, lz4warp.ErrNoDriver) },
		"partial": func(err error) bool { return errors.Is(err, lz4warp.ErrNoDriver) },
		"noinit": func(err error) bool {
			var ce *lz4warp.CUDAError
			return errors.As(err, &ce) && ce.Op == "cuInit" && ce.Code == cudart.NoDevice && ce.Code.Name() == "CUDA_ERROR_NO_DEVICE"
		},
		"nodevice": func(err error) bool { return strings.Contains(err.Error(), "reports no device") },
	}[which]
	if lz4warp.GPUAvailable() {
		t.Fatal("GPUAvailable() with no usable driver")
	}
	if devs, err := lz4warp.Devices(); len(devs) != 0 || (which != "nodevice" && (!errors.Is(err, lz4warp.ErrGPUNotAvailable) || !cause(err))) {
		t.Errorf("Devices() = %v, %v", devs, err)
	}
	if c, err := lz4warp.NewGPUBatchCompressor(lz4warp.DefaultConfig()); c != nil || !errors.Is(err, lz4warp.ErrGPUNotAvailable) || !cause(err) {
		t.Errorf("NewGPUBatchCompressor: %v, %v; want ErrGPUNotAvailable wrapping the cause", c, err)
	}
	c, err := lz4warp.NewCompressor(lz4warp.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.GPUError(); !errors.Is(err, lz4warp.ErrGPUNotAvailable) || !cause(err) {
		t.Errorf("GPUError() = %v, want ErrGPUNotAvailable wrapping the cause", err)
	}
	pages := make([]lz4warp.Page, 3000)
	for i := range pages {
		copy(pages[i][:], strings.Repeat("page "+string(rune('a'+i%26)), 500))
	}
	res, err := c.CompressBatch(pages)
	if err != nil || res.Backend == lz4warp.BackendGPU {
		t.Fatalf("CompressBatch: %v on %v", err, res)
	}
	back := make([]lz4warp.Page, len(pages))
	if err := c.DecompressBatch(res.Pages, back); err != nil {
		t.Fatal(err)
	}
	for i := range pages {
		if back[i] != pages[i] {
			t.Fatalf("page %d differs after the round trip", i)
		}
	}
	if _, err := c.CompressBatchOn(lz4warp.BackendGPU, pages); !errors.Is(err, lz4warp.ErrGPUNotAvailable) {
		t.Errorf("CompressBatchOn(BackendGPU): %v", err)
	}
}
