package lz4warp

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/lz4warp/lz4warp/internal/cudart"
	"github.com/lz4warp/lz4warp/internal/gputest"
)

// Checks API-11: NewGPUBatchCompressor's error wraps ErrGPUNotAvailable
// and its cause. A device index beyond the machine's devices names the
// count; with the real driver but no visible device (a child process with
// CUDA_VISIBLE_DEVICES empty, where cuInit fails), errors.As reaches the
// driver's error.
func TestNewGPUBatchCompressorWrapsTheCause(t *testing.T) {
	if os.Getenv(gputest.ChildEnv) == "" {
		gputest.Require(t)
		cfg := DefaultConfig()
		cfg.DeviceIndex = 1 << 20
		c, err := NewGPUBatchCompressor(cfg)
		if c != nil || !errors.Is(err, ErrGPUNotAvailable) || !strings.Contains(fmt.Sprint(err), "device 1048576") {
			t.Fatalf("device %d: %v, %v; want ErrGPUNotAvailable naming the device", cfg.DeviceIndex, c, err)
		}
	}
	if !gputest.InChild(t, append(os.Environ(), "CUDA_VISIBLE_DEVICES=")) {
		return
	}
	c, err := NewGPUBatchCompressor(DefaultConfig())
	if c != nil || !errors.Is(err, ErrGPUNotAvailable) {
		t.Fatalf("no visible device: %v, %v; want ErrGPUNotAvailable", c, err)
	}
	var ce *CUDAError
	if !errors.As(err, &ce) || ce.Code != cudart.NoDevice {
		t.Fatalf("errors.As(%v) finds no *CUDAError of code NoDevice", err)
	}
}
