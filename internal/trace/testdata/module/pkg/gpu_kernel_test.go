package pkg

import "testing"

// Checks DEV-3.
func TestKernel(t *testing.T) { t.Log() }
