package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lz4warp/lz4warp"
)

// deviceChoice is a -devices value (MD-8): "" for the Config's default
// device, "all" for every supported one, or CUDA device indexes separated
// by commas, e.g. "0,1".
type deviceChoice struct {
	all  bool
	list []int
}

func (d *deviceChoice) String() string {
	if d.all {
		return "all"
	}
	s := make([]string, len(d.list))
	for i, n := range d.list {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

// Set parses a -devices value; Config.Validate's checks (MD-1) apply.
func (d *deviceChoice) Set(s string) error {
	*d = deviceChoice{}
	switch s = strings.TrimSpace(s); s {
	case "":
		return nil
	case "all":
		d.all = true
		return nil
	}
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("%q is not a device index", f)
		}
		d.list = append(d.list, n)
	}
	cfg := lz4warp.DefaultConfig()
	d.apply(&cfg)
	return cfg.Validate()
}

// apply makes cfg use the chosen devices.
func (d deviceChoice) apply(cfg *lz4warp.Config) {
	cfg.AllDevices, cfg.Devices = d.all, d.list
}

// chosen reports whether -devices named any.
func (d deviceChoice) chosen() bool { return d.all || len(d.list) > 0 }

// printDeviceStats prints one line per GPU of a Compressor: its share of the
// pages, its throughput while busy and its fallbacks (MD-6, MD-8).
func printDeviceStats(w io.Writer, indent string, devs []lz4warp.DeviceStats) {
	var total uint64
	for _, d := range devs {
		total += d.PagesCompressed
	}
	for _, d := range devs {
		share := 0.0
		if total > 0 {
			share = 100 * float64(d.PagesCompressed) / float64(total)
		}
		dropped := ""
		if d.Dropped {
			dropped = ", dropped after a sticky fault"
		}
		fmt.Fprintf(w, "%sdevice %d: %d pages (%.1f%%) in %d batches, %.3f GB/s over %.3f ms busy, %d fallbacks%s\n",
			indent, d.Index, d.PagesCompressed, share, d.Batches, d.ThroughputGBps(), msf(d.BusyTime), d.Fallbacks, dropped)
	}
}
