package lz4cmd

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func fakeLZ4(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "lz4")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// Checks CLI-15: $LZ4, then the PATH, then the cache.
func TestFindOrder(t *testing.T) {
	tmp := t.TempDir()
	named := fakeLZ4(t, filepath.Join(tmp, "named"))
	onPath := fakeLZ4(t, filepath.Join(tmp, "path"))
	cached := fakeLZ4(t, filepath.Join(tmp, "cache", "usr", "bin"))
	t.Setenv("LZ4_CACHE", filepath.Join(tmp, "cache"))

	t.Setenv("LZ4", named)
	t.Setenv("PATH", filepath.Dir(onPath))
	if got, err := Find(); err != nil || got != named {
		t.Fatalf("with $LZ4: %q, %v; want %q", got, err, named)
	}
	t.Setenv("LZ4", "")
	if got, err := Find(); err != nil || got != onPath {
		t.Fatalf("on the PATH: %q, %v; want %q", got, err, onPath)
	}
	t.Setenv("PATH", filepath.Join(tmp, "empty"))
	if got, err := Find(); err != nil || got != cached {
		t.Fatalf("in the cache: %q, %v; want %q", got, err, cached)
	}
	t.Setenv("LZ4_CACHE", filepath.Join(tmp, "empty"))
	if _, err := Find(); !errors.Is(err, ErrNotFound) {
		t.Fatalf("nowhere: %v, want ErrNotFound", err)
	}
}

// A directory at the cache's usr/bin/lz4 is no command, though it carries
// the execute bits; an executable regular file, or a link to one, is.
func TestFindCacheNotDirectory(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("LZ4", "")
	t.Setenv("PATH", filepath.Join(tmp, "empty"))
	cache := filepath.Join(tmp, "cache")
	t.Setenv("LZ4_CACHE", cache)
	dir := filepath.Join(cache, "usr", "bin", "lz4")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a directory in the cache: %q, %v; want ErrNotFound", got, err)
	}
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	real := fakeLZ4(t, filepath.Join(tmp, "real"))
	if err := os.Symlink(real, dir); err != nil {
		t.Skip(err)
	}
	if got, err := Find(); err != nil || got != dir {
		t.Fatalf("a link to an executable in the cache: %q, %v; want %q", got, err, dir)
	}
}

// recorder notes what Require asks of its test.
type recorder struct {
	testing.TB
	fatal, skipped bool
}

func (r *recorder) Helper()                        {}
func (r *recorder) Fatalf(format string, a ...any) { r.fatal = true }
func (r *recorder) Skip(a ...any)                  { r.skipped = true }

// Checks CLI-15: without lz4, a skip, except under CI=true: a failure.
func TestRequireMissing(t *testing.T) {
	t.Setenv("LZ4", "")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("LZ4_CACHE", t.TempDir())
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		r := &recorder{TB: t}
		if got := Require(r); got != "" || r.fatal != (ci == "true") || r.skipped != (ci != "true") {
			t.Errorf("CI=%q: path %q, fatal %v, skipped %v", ci, got, r.fatal, r.skipped)
		}
	}
}
