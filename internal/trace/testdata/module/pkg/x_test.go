package pkg

import "testing"

// Checks ALPHA-1 to ALPHA-3.
func TestRange(t *testing.T) {}

func TestInside(t *testing.T) {
	_ = "ALPHA-7 is not a rule" // an undefined citation
	_ = "GAMMA-1 has no known prefix, so it is not a citation"
}

// A file-level comment citing ALPHA-4.
var _ = 0
