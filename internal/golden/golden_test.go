package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeT records failures instead of stopping the test.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Fatalf(string, ...any) { f.failed = true }
func (f *fakeT) Fatal(...any)          { f.failed = true }

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.golden")
	f := &fakeT{TB: t}
	Check(f, path, []byte("a"))
	if !f.failed {
		t.Error("a missing golden file passed")
	}
	*update = true
	Check(t, path, []byte("a"))
	*update = false
	if b, err := os.ReadFile(path); err != nil || string(b) != "a" {
		t.Fatalf("-update wrote %q, %v", b, err)
	}
	f = &fakeT{TB: t}
	Check(f, path, []byte("a"))
	if f.failed {
		t.Error("equal output failed")
	}
	Check(f, path, []byte("b"))
	if !f.failed {
		t.Error("different output passed")
	}
}
