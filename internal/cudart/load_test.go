package cudart_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lz4warp/lz4warp/internal/cudart"
	"github.com/lz4warp/lz4warp/internal/gputest"
)

// Checks RT-16: without a driver library, Init says so, wrapping
// ErrNoDriver, and every call that needs the driver returns that error.
func TestLoadWithoutLibrary(t *testing.T) {
	if !gputest.InChild(t, gputest.FakeEnv("")) {
		return
	}
	err := cudart.Init()
	if !errors.Is(err, cudart.ErrNoDriver) || !strings.Contains(err.Error(), "libcuda.so.1") {
		t.Fatalf("Init() = %v, want ErrNoDriver naming the library", err)
	}
	if devs, derr := cudart.Devices(); derr != err || devs != nil {
		t.Errorf("Devices() = %v, %v; want Init's error", devs, derr)
	}
	if _, cerr := cudart.NewContext(0); cerr != err {
		t.Errorf("NewContext(0) = %v; want Init's error", cerr)
	}
	if v := cudart.DriverVersion(); v != 0 {
		t.Errorf("DriverVersion() = %d without a driver", v)
	}
}

// Checks RT-16: a driver whose cuInit fails gives cuInit's code, named
// although the driver cannot name it.
func TestLoadInitFails(t *testing.T) {
	if !gputest.InChild(t, gputest.FakeEnv(gputest.FakeDriver(t, gputest.FakeNoDevice))) {
		return
	}
	err := cudart.Init()
	var e *cudart.Error
	if !errors.As(err, &e) || e.Op != "cuInit" || !errors.Is(err, cudart.NoDevice) {
		t.Fatalf("Init() = %v, want cuInit's NoDevice", err)
	}
	if !strings.Contains(err.Error(), "CUDA_ERROR_NO_DEVICE") {
		t.Errorf("Init() = %q, want the code's name", err)
	}
	if _, derr := cudart.Devices(); derr != err {
		t.Errorf("Devices() = %v; want Init's error", derr)
	}
}

// Checks RT-16: a library without the entry points this package needs is
// no driver.
func TestLoadMissingSymbols(t *testing.T) {
	if !gputest.InChild(t, gputest.FakeEnv(gputest.FakeDriver(t, gputest.FakeMissingSymbols))) {
		return
	}
	err := cudart.Init()
	if !errors.Is(err, cudart.ErrNoDriver) || !strings.Contains(err.Error(), "has no cu") {
		t.Fatalf("Init() = %v, want ErrNoDriver naming a missing entry point", err)
	}
}

// Checks RT-16: a driver that initialises and counts no device lists none,
// without an error.
func TestLoadZeroDevices(t *testing.T) {
	if !gputest.InChild(t, gputest.FakeEnv(gputest.FakeDriver(t, gputest.FakeZeroDevices))) {
		return
	}
	if err := cudart.Init(); err != nil {
		t.Fatalf("Init() = %v", err)
	}
	devs, err := cudart.Devices()
	if err != nil || len(devs) != 0 {
		t.Fatalf("Devices() = %v, %v; want none", devs, err)
	}
	if err := gputest.Usable(); err == nil {
		t.Errorf("gputest.Usable() = nil with no device")
	}
}
