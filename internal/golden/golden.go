// Package golden compares a test's output with a golden file and rewrites
// the file when the test binary runs with -update.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// Updating reports whether the tests run with -update.
func Updating() bool { return *update }

// Check fails t when the file at path does not hold got; with -update it
// writes got there instead.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from the test's output; if the change is intended, run go test -update", path)
	}
}
