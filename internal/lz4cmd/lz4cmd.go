// Package lz4cmd finds the lz4 command for tests that check interoperability
// with it: $LZ4, then the PATH, then the copy `make lz4-tool` unpacks under
// $LZ4_CACHE, by default the module's .cache/lz4 (CLI-15).
package lz4cmd

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ErrNotFound reports that no lz4 command was found.
var ErrNotFound = errors.New("lz4cmd: no lz4 command (set LZ4, install lz4, or run make lz4-tool)")

// Find returns the path of the lz4 command.
func Find() (string, error) {
	if p := os.Getenv("LZ4"); p != "" {
		if path, err := exec.LookPath(p); err == nil {
			return path, nil
		}
	}
	if path, err := exec.LookPath("lz4"); err == nil {
		return path, nil
	}
	cache := os.Getenv("LZ4_CACHE")
	if root, ok := moduleRoot(); ok && cache == "" {
		cache = filepath.Join(root, ".cache", "lz4")
	}
	if cache != "" {
		p := filepath.Join(cache, "usr", "bin", "lz4")
		// A directory carries the 0o111 bits too: only a regular file
		// (or a link to one) is the command.
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", ErrNotFound
}

// moduleRoot is the nearest directory at or above the working directory
// that holds go.mod.
func moduleRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// Require returns the lz4 command's path. Without one the test is skipped,
// except under CI (CI=true), where a missing lz4 fails it: CI must check
// interoperability.
func Require(tb testing.TB) string {
	tb.Helper()
	path, err := Find()
	if err == nil {
		return path
	}
	if os.Getenv("CI") == "true" {
		tb.Fatalf("%v (CI=true requires it)", err)
		return ""
	}
	tb.Skip(err)
	return ""
}

// Run runs lz4 with args, stdin as its input, and returns its output.
func Run(tb testing.TB, stdin []byte, args ...string) []byte {
	tb.Helper()
	cmd := exec.Command(Require(tb), args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg = string(ee.Stderr)
		}
		tb.Fatalf("lz4 %v: %v %s", args, err, msg)
	}
	return out
}
