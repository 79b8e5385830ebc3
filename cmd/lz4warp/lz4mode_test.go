package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp/internal/lz4cmd"
)

// Checks CLI-16: lz4's habits. lz4warp FILE writes FILE.lz4 and keeps FILE,
// with FILE's mode and modification time; -d and a .lz4 name restore it;
// -dc writes to stdout; -t tests; -m takes several files; --rm removes the
// input; combined flags; the bytes are compress's.
func TestLZ4Habits(t *testing.T) {
	dir := t.TempDir()
	data := sample(300000, 16)
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, data, 0o640); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	os.Chtimes(path, mtime, mtime)

	ok(t, dir, nil, "f")
	fi, err := os.Stat(path + ".lz4")
	if err != nil || fi.Mode().Perm() != 0o640 || !fi.ModTime().Equal(mtime) {
		t.Fatalf("f.lz4: %v, mode %v, mtime %v; want 0640 and %v", err, fi.Mode(), fi.ModTime(), mtime)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal("the input was not kept")
	}
	frame, _ := os.ReadFile(path + ".lz4")
	if want := ok(t, dir, data, "compress").stdout; !bytes.Equal(frame, want) {
		t.Fatal("lz4warp f wrote other bytes than lz4warp compress")
	}
	if r := runCmd(t, dir, nil, "-d", "f.lz4"); r.code != 1 || !strings.Contains(string(r.stderr), "already exists") {
		t.Fatalf("-d over an existing file: exit %d, %q", r.code, r.stderr)
	}
	ok(t, dir, nil, "-fd", "f.lz4")
	if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
		t.Fatal("-fd restored other bytes")
	}
	ok(t, dir, nil, "-f", "f.lz4") // a .lz4 input decompresses without -d
	if r := ok(t, dir, nil, "-dc", "f.lz4"); !bytes.Equal(r.stdout, data) {
		t.Fatal("-dc: other bytes on stdout")
	}
	if r := ok(t, dir, frame, "-d"); !bytes.Equal(r.stdout, data) {
		t.Fatal("-d from stdin: other bytes")
	}
	ok(t, dir, nil, "-t", "f.lz4")
	bad := bytes.Clone(frame)
	bad[len(bad)-1] ^= 1
	os.WriteFile(filepath.Join(dir, "bad.lz4"), bad, 0o644)
	if r := runCmd(t, dir, nil, "-t", "bad.lz4"); r.code != 1 || !strings.Contains(string(r.stderr), "checksum mismatch") {
		t.Fatalf("-t on a bad frame: exit %d, %q", r.code, r.stderr)
	}
	ok(t, dir, nil, "f", "g.lz4", "-9")
	ok(t, dir, nil, "f", os.DevNull)
	os.WriteFile(filepath.Join(dir, "h"), data[:5000], 0o644)
	ok(t, dir, nil, "-fkm", "f", "h")
	ok(t, dir, nil, "--rm", "-f", "h")
	if _, err := os.Stat(filepath.Join(dir, "h")); !os.IsNotExist(err) {
		t.Fatalf("--rm kept the input: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "h.lz4")); err != nil {
		t.Fatal(err)
	}
	// Frame options: lz4 reads them, and they match compress's.
	opts := ok(t, dir, nil, "-c", "-BX", "--no-frame-crc", "--content-size", "-B7", "-BD", "f").stdout
	if want := ok(t, dir, nil, "compress", "-block-checksum", "-no-frame-crc", "-content-size", "-o", "-", "f").stdout; !bytes.Equal(opts, want) {
		t.Fatal("-BX --no-frame-crc --content-size: other bytes than compress's")
	}
	if out := lz4cmd.Run(t, opts, "-d", "-c", "-q"); !bytes.Equal(out, data) {
		t.Fatal("lz4 -d restored other bytes")
	}
}

// Checks CLI-16: compressed data are neither read from a terminal nor
// written to one.
func TestLZ4ModeTerminals(t *testing.T) {
	var out, errb bytes.Buffer
	e := &env{ctx: t.Context(), stdin: strings.NewReader(""), stdout: &out, stderr: &errb, stdinTTY: true}
	for _, args := range [][]string{{"-d"}, {"decompress"}} {
		errb.Reset()
		if code := run(e, args); code != exitUsage || !strings.Contains(errb.String(), "refusing to read compressed data from a terminal") {
			t.Fatalf("%v from a terminal: exit %d, %q", args, code, errb.String())
		}
	}
	errb.Reset()
	e.stdinTTY, e.stdoutTTY = false, true
	if code := run(e, []string{"-z"}); code != exitUsage || !strings.Contains(errb.String(), "refusing to write compressed data to a terminal") {
		t.Fatalf("-z to a terminal: exit %d, %q", code, errb.String())
	}
}
