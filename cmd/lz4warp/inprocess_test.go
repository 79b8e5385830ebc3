package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// runIn runs a command line in this process with the given terminal flags.
func runIn(stdin io.Reader, stdoutTTY, stderrTTY bool, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), stdin: stdin, stdout: &out, stderr: &errb, stdoutTTY: stdoutTTY, stderrTTY: stderrTTY}
	code = run(e, args)
	return code, out.String(), errb.String()
}

// Checks CLI-7: compressed data is not written to a terminal.
func TestRefuseTerminal(t *testing.T) {
	code, out, errs := runIn(strings.NewReader("data"), true, false, "compress")
	if code != exitUsage || out != "" || !strings.Contains(errs, "refusing to write compressed data to a terminal") {
		t.Fatalf("compress to a terminal: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, _ := runIn(strings.NewReader("data"), true, false, "compress", "-o", t.TempDir()+"/x.lz4"); code != exitOK {
		t.Fatalf("compress -o with stdout a terminal: exit %d", code)
	}
}

// slowReader yields data with a pause every 64 KiB, so that work lasts.
type slowReader struct {
	data  []byte
	pause time.Duration
	n     int
}

func (s *slowReader) Read(p []byte) (int, error) {
	if len(s.data) == 0 {
		return 0, io.EOF
	}
	if s.n%(64<<10) == 0 {
		time.Sleep(s.pause)
	}
	n := copy(p, s.data[:min(len(s.data), 64<<10-s.n%(64<<10))])
	s.data = s.data[n:]
	s.n += n
	return n, nil
}

// Checks CLI-10: with stderr a terminal, long work draws a bar and erases
// it; with -q nothing is drawn.
func TestProgressOnTerminal(t *testing.T) {
	data := sample(1<<20, 3)
	slow := func() io.Reader { return &slowReader{data: bytes.Clone(data), pause: 60 * time.Millisecond} }
	code, out, errs := runIn(slow(), false, true, "compress", "-batch", "4")
	if code != exitOK || len(out) == 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(errs, "\rcompress ") || !strings.Contains(errs, "MB/s") || !strings.HasSuffix(errs, "\r\033[K") {
		t.Fatalf("no bar drawn and erased on a terminal: %q", errs)
	}
	if _, _, errs := runIn(slow(), false, true, "compress", "-q", "-batch", "4"); errs != "" {
		t.Fatalf("-q drew %q", errs)
	}
}
