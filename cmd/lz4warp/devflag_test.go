package main

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp"
)

// Checks MD-8, MD-1: -devices takes "all" or indexes separated by commas;
// a negative index, one named twice or a word is refused.
func TestDeviceChoice(t *testing.T) {
	for _, c := range []struct {
		in, out string
		all     bool
		list    []int
	}{
		{"", "", false, nil}, {"all", "all", true, nil}, {"0", "0", false, []int{0}}, {" 3, 1 ,0", "3,1,0", false, []int{3, 1, 0}},
	} {
		var d deviceChoice
		if err := d.Set(c.in); err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if d.all != c.all || !slices.Equal(d.list, c.list) || d.String() != c.out {
			t.Errorf("%q: all %v, list %v, %q", c.in, d.all, d.list, d.String())
		}
		cfg := lz4warp.DefaultConfig()
		d.apply(&cfg)
		if cfg.AllDevices != c.all || !slices.Equal(cfg.Devices, c.list) || d.chosen() != (c.in != "") {
			t.Errorf("%q: config %+v", c.in, cfg)
		}
	}
	for _, in := range []string{"-1", "0,0", "1,x", "all,0", "0,"} {
		var d deviceChoice
		if err := d.Set(in); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

// Checks MD-8: bad -devices values are usage errors (exit 2) of devices,
// compress and bench; without a GPU, opening devices fails (exit 1) and
// saying why, while the CPU backends run whatever -devices says.
func TestDevicesFlag(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"devices", "-devices", "0,0"}, {"devices", "-devices", "-1"}, {"compress", "-devices", "x", "-o", "-"}, {"bench", "-devices", "1,1"},
	} {
		if r := runCmd(t, dir, nil, args...); r.code != 2 || !strings.Contains(string(r.stderr), "-devices") {
			t.Errorf("%v: exit %d, %q", args, r.code, r.stderr)
		}
	}
	if lz4warp.GPUAvailable() {
		return
	}
	r := runCmd(t, dir, nil, "devices", "-devices", "all")
	if r.code != 1 || !strings.Contains(string(r.stderr), "no supported CUDA GPU") {
		t.Errorf("devices -devices all without a GPU: exit %d, %q", r.code, r.stderr)
	}
	r = ok(t, dir, nil, "bench", "-devices", "all", "-backends", "simd", "-data", "zeros", "-pages", "4", "-batches", "4", "-time", "0", "-svg", "")
	if regexp.MustCompile(`(?m)^\s+device \d+:`).Match(r.stdout) || !strings.Contains(string(r.stdout), "devices: all") {
		t.Errorf("per-device lines without a GPU:\n%s", r.stdout)
	}
}

// Checks MD-8, MD-6: bench's lines per device give each device's share of
// the pages, its throughput over its busy time and its fallbacks.
func TestPrintDeviceStats(t *testing.T) {
	var buf bytes.Buffer
	printDeviceStats(&buf, "  ", []lz4warp.DeviceStats{
		{Index: 0, PagesCompressed: 30000, Batches: 3, BusyTime: 3 * time.Millisecond, Fallbacks: 1},
		{Index: 2, PagesCompressed: 10000, Batches: 1, BusyTime: time.Millisecond, Dropped: true},
	})
	want := "  device 0: 30000 pages (75.0%) in 3 batches, 40.960 GB/s over 3.000 ms busy, 1 fallbacks\n" +
		"  device 2: 10000 pages (25.0%) in 1 batches, 40.960 GB/s over 1.000 ms busy, 0 fallbacks, dropped after a sticky fault\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}
