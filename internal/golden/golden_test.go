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

// setUpdate sets the -update state for the rest of the test, restoring the
// flag's value at its end, so that the package's own tests check the same
// with and without -update.
func setUpdate(t *testing.T, on bool) {
	t.Helper()
	old := *update
	*update = on
	t.Cleanup(func() { *update = old })
}

func TestCheck(t *testing.T) {
	setUpdate(t, false)
	if Updating() {
		t.Fatal("Updating() with update off")
	}
	path := filepath.Join(t.TempDir(), "sub", "x.golden")
	f := &fakeT{TB: t}
	Check(f, path, []byte("a"))
	if !f.failed {
		t.Error("a missing golden file passed")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
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
	if b, err := os.ReadFile(path); err != nil || string(b) != "a" {
		t.Errorf("without -update the golden file changed to %q, %v", b, err)
	}
}

func TestCheckUpdate(t *testing.T) {
	setUpdate(t, true)
	if !Updating() {
		t.Fatal("Updating() false with update on")
	}
	path := filepath.Join(t.TempDir(), "sub", "x.golden")
	for _, content := range []string{"a", "b"} { // a missing file, then a different one
		f := &fakeT{TB: t}
		Check(f, path, []byte(content))
		if f.failed {
			t.Errorf("-update with %q failed", content)
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != content {
			t.Fatalf("-update wrote %q, %v; want %q", b, err, content)
		}
	}
}
