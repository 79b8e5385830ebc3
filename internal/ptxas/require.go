package ptxas

import (
	"errors"
	"os"
	"testing"
)

// Require returns ptxas's path for a test that checks generated PTX with it.
// Without ptxas the test is skipped, except under CI (CI=true), where a
// missing ptxas fails it: CI must run the assembly checks (make test fetches
// ptxas with make cuda-sdk). Any other failure to find it fails the test.
func Require(tb testing.TB) string {
	tb.Helper()
	path, err := Path()
	switch {
	case err == nil:
		return path
	case errors.Is(err, ErrNotFound) && os.Getenv("CI") != "true":
		tb.Skipf("skipping the ptxas check: %v", err)
	default:
		tb.Fatalf("%v (CI=true requires ptxas)", err)
	}
	return ""
}
