//go:build !cuda

package pkg

import "testing"

// Checks ALPHA-6 where there is no cuda tag: CI runs it.
func TestWithoutCUDA(t *testing.T) { t.Log() }
