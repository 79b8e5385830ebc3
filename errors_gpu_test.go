package lz4warp

import (
	"errors"
	"testing"

	"github.com/lz4warp/lz4warp/internal/cudart"
	"github.com/lz4warp/lz4warp/internal/gputest"
)

// Checks API-11: where a GPU is present but the device does not open,
// NewGPUBatchCompressor's error wraps ErrGPUNotAvailable and the driver's
// error, which errors.As reaches.
func TestNewGPUBatchCompressorWrapsTheCause(t *testing.T) {
	gputest.Require(t)
	cfg := DefaultConfig()
	cfg.DeviceIndex = 1 << 20 // beyond the devices: cuDeviceGet fails
	c, err := NewGPUBatchCompressor(cfg)
	if c != nil || !errors.Is(err, ErrGPUNotAvailable) {
		t.Fatalf("device %d: %v, %v; want ErrGPUNotAvailable", cfg.DeviceIndex, c, err)
	}
	var ce *CUDAError
	if !errors.As(err, &ce) || ce.Code != cudart.InvalidDevice {
		t.Fatalf("errors.As(%v) finds no *CUDAError of code InvalidDevice", err)
	}
}
