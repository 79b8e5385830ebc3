package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lz4warp/lz4warp/internal/gputest"
	"github.com/pierrec/lz4/v4"
)

// Checks RT-16, CLI-12: one binary for every machine. Without a driver
// library, with a driver whose cuInit fails and with one that lacks entry
// points, the command compresses and decompresses on the CPU, its stdout
// holds only its output, and devices says why there is no GPU and exits 0.
func TestCommandWithoutUsableDriver(t *testing.T) {
	cases := []struct {
		name, why string
		env       func(t *testing.T) []string
	}{
		{"no library", "CUDA driver library not found", func(*testing.T) []string { return gputest.FakeEnv("") }},
		{"cuInit fails", "cuInit: CUDA_ERROR_NO_DEVICE", func(t *testing.T) []string {
			return gputest.FakeEnv(gputest.FakeDriver(t, gputest.FakeNoDevice))
		}},
		{"missing entry points", "has no cu", func(t *testing.T) []string {
			return gputest.FakeEnv(gputest.FakeDriver(t, gputest.FakeMissingSymbols))
		}},
		{"no device", "the CUDA driver reports no device", func(t *testing.T) []string {
			return gputest.FakeEnv(gputest.FakeDriver(t, gputest.FakeZeroDevices))
		}},
	}
	data := sample(300_000, 7)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, dir := c.env(t), t.TempDir()
			run := func(stdin []byte, args ...string) (stdout, stderr []byte) {
				t.Helper()
				cmd := exec.Command(bin, args...)
				cmd.Dir, cmd.Env, cmd.Stdin = dir, env, bytes.NewReader(stdin)
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				if err := cmd.Run(); err != nil {
					t.Fatalf("lz4warp %v: %v\nstdout %q\nstderr %q", args, err, out.Bytes(), errb.Bytes())
				}
				return out.Bytes(), errb.Bytes()
			}
			frame, _ := run(data, "compress", "-o", "-")
			back, err := io.ReadAll(lz4.NewReader(bytes.NewReader(frame)))
			if err != nil || !bytes.Equal(back, data) {
				t.Fatalf("stdout of compress is not exactly the frame of the input (%d bytes back, %v)", len(back), err)
			}
			if err := os.WriteFile(filepath.Join(dir, "in.lz4"), frame, 0o644); err != nil {
				t.Fatal(err)
			}
			out, _ := run(nil, "decompress", "-o", "-", "in.lz4")
			if !bytes.Equal(out, data) {
				t.Fatalf("decompress gave %d bytes, not the input's %d", len(out), len(data))
			}
			out, _ = run(nil, "devices")
			if !strings.HasPrefix(string(out), "no CUDA GPU: ") || !strings.Contains(string(out), c.why) {
				t.Errorf("devices: %q, want it to say %q", out, c.why)
			}
		})
	}
}
