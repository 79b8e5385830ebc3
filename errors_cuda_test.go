//go:build cuda

package lz4warp

import (
	"errors"
	"testing"

	"github.com/lz4warp/lz4warp/internal/cudart"
)

// Checks API-11: where the GPU does not open, NewGPUBatchCompressor's error
// wraps ErrGPUNotAvailable and the driver's error, which errors.As reaches.
func TestNewGPUBatchCompressorWrapsTheCause(t *testing.T) {
	if !GPUAvailable() {
		t.Skip("no supported CUDA GPU")
	}
	cfg := DefaultConfig()
	cfg.DeviceIndex = 1 << 20 // beyond the devices: cuDeviceGet fails
	c, err := NewGPUBatchCompressor(cfg)
	if c != nil || !errors.Is(err, ErrGPUNotAvailable) {
		t.Fatalf("device %d: %v, %v; want ErrGPUNotAvailable", cfg.DeviceIndex, c, err)
	}
	var ce *cudart.Error
	if !errors.As(err, &ce) || ce.Code != cudart.InvalidDevice {
		t.Fatalf("errors.As(%v) finds no *cudart.Error of code InvalidDevice", err)
	}
}
