package pkg

import "testing"

// Checks ALPHA-1 to ALPHA-3.
func TestRange(t *testing.T) { t.Log() }

func TestInside(t *testing.T) {
	_ = "ALPHA-7 is not a rule" // an undefined citation
	_ = "GAMMA-1 has no known prefix, so it is not a citation"
}

// A file-level comment citing ALPHA-4.
var _ = 0

// Checks ALPHA-5, but the test is empty.
func TestEmpty(t *testing.T) {}

// helper checks DEV-5 for the tests that call it, which cite nothing.
func helper(t *testing.T) { t.Log() }

// Checks DEV-2.
func TestNeedsGPU(t *testing.T) {
	requireGPU(t)
}

func requireGPU(t *testing.T) { t.Skip() }

// Checks DEV-5 without a GPU.
func TestDev5(t *testing.T) { helper(t) }

// Checks DEV-6.
func TestRequiresThroughGputest(t *testing.T) {
	gputest.Require(t)
}

var gputest struct{ Require func(*testing.T) }
