//go:build cuda && linux

package pkg

import "testing"

// Checks DEV-3.
func TestTagged(t *testing.T) { t.Log() }
