package lz4warp

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Checks API-1, DOC-5.
func TestDefaultConfig(t *testing.T) {
	cfg := DefaultConfig()
	assert.Equal(t, Config{DeviceIndex: 0, Algorithm: AlgorithmLZ4, BatchSize: 1000, AsyncDMA: true, RingBufferSlots: 4, CPUWorkers: 0}, cfg)
	assert.NoError(t, cfg.Validate())
}

// Checks API-2: each bad field gets its own error, wrapping ErrInvalidConfig
// and naming the field.
func TestValidateRejectsEachBadField(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(*Config)
		field string
	}{
		{"negative device", func(c *Config) { c.DeviceIndex = -1 }, "DeviceIndex"},
		{"very negative device", func(c *Config) { c.DeviceIndex = -1 << 40 }, "DeviceIndex"},
		{"unknown algorithm", func(c *Config) { c.Algorithm = 1 }, "Algorithm"},
		{"negative algorithm", func(c *Config) { c.Algorithm = -1 }, "Algorithm"},
		{"zero batch", func(c *Config) { c.BatchSize = 0 }, "BatchSize"},
		{"negative batch", func(c *Config) { c.BatchSize = -5 }, "BatchSize"},
		{"batch beyond a launch", func(c *Config) { c.BatchSize = MaxBatchSize + 1 }, "BatchSize"},
		{"zero slots", func(c *Config) { c.RingBufferSlots = 0 }, "RingBufferSlots"},
		{"negative slots", func(c *Config) { c.RingBufferSlots = -1 }, "RingBufferSlots"},
		{"negative CPU workers", func(c *Config) { c.CPUWorkers = -1 }, "CPUWorkers"},
		{"very negative CPU workers", func(c *Config) { c.CPUWorkers = -1 << 40 }, "CPUWorkers"},
	}
	messages := map[string]string{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := DefaultConfig()
			c.edit(&cfg)
			err := cfg.Validate()
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrInvalidConfig), "%v does not wrap ErrInvalidConfig", err)
			assert.Contains(t, err.Error(), c.field)
			if prev, ok := messages[c.field]; ok {
				// Same field, different value: the message carries the value.
				assert.NotEqual(t, prev, err.Error())
			}
			messages[c.field] = err.Error()
		})
	}
	// Five fields, five distinct messages.
	seen := map[string]bool{}
	for _, m := range messages {
		seen[m] = true
	}
	assert.Len(t, seen, 5)
}

// Checks API-2: the limits themselves are valid.
func TestValidateAcceptsBoundaries(t *testing.T) {
	for _, cfg := range []Config{
		{DeviceIndex: 0, Algorithm: AlgorithmLZ4, BatchSize: 1, RingBufferSlots: 1},
		{DeviceIndex: 7, Algorithm: AlgorithmLZ4, BatchSize: MaxBatchSize, AsyncDMA: true, RingBufferSlots: 64, CPUWorkers: 1 << 20},
	} {
		assert.NoError(t, cfg.Validate(), "%+v", cfg)
	}
}

// Checks API-2: both constructors validate before anything else.
func TestConstructorsValidate(t *testing.T) {
	bad := DefaultConfig()
	bad.BatchSize = 0
	c, err := NewCompressor(bad)
	assert.Nil(t, c)
	assert.ErrorIs(t, err, ErrInvalidConfig)
	c, err = NewGPUBatchCompressor(bad)
	assert.Nil(t, c)
	assert.ErrorIs(t, err, ErrInvalidConfig)
	assert.NotErrorIs(t, err, ErrGPUNotAvailable, "an invalid configuration is reported as such, not as a missing GPU")
}
