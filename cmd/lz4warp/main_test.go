package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bin is the lz4warp command built for the tests.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lz4warp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "lz4warp")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is one run of the command.
type result struct {
	code           int
	stdout, stderr []byte
}

// runCmd runs the command in dir with stdin (nil for none).
func runCmd(t *testing.T, dir string, stdin []byte, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.Bytes(), stderr: errb.Bytes()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("lz4warp %v: %v", args, err)
	}
	return r
}

// ok runs the command and fails the test unless it exits 0.
func ok(t *testing.T, dir string, stdin []byte, args ...string) result {
	t.Helper()
	r := runCmd(t, dir, stdin, args...)
	if r.code != 0 {
		t.Fatalf("lz4warp %v: exit %d: %s", args, r.code, r.stderr)
	}
	return r
}

// sample is deterministic data of n bytes with compressible text, zero
// pages, same-filled pages and random bytes.
func sample(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 99))
	words := strings.Fields("the page frame block of memory zero warp kernel batch lz4 compress")
	var b bytes.Buffer
	for b.Len() < n {
		switch rng.IntN(6) {
		case 0:
			b.Write(make([]byte, 4096))
		case 1:
			b.Write(bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8}, 512))
		case 2:
			r := make([]byte, 5000)
			for i := range r {
				r[i] = byte(rng.Uint32())
			}
			b.Write(r)
		default:
			for range 300 {
				b.WriteString(words[rng.IntN(len(words))])
				b.WriteByte(' ')
			}
		}
	}
	return b.Bytes()[:n]
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// dirNames lists a directory, to check that no stray file was left.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// blocks parses a frame written by compress: the size words of its blocks.
func blocks(t *testing.T, frame []byte) []uint32 {
	t.Helper()
	if len(frame) < 15 || binary.LittleEndian.Uint32(frame) != 0x184D2204 {
		t.Fatalf("not an LZ4 frame: % x", frame[:min(len(frame), 16)])
	}
	var words []uint32
	for pos := 7; ; {
		w := binary.LittleEndian.Uint32(frame[pos:])
		pos += 4
		if w == 0 {
			if pos+4 != len(frame) {
				t.Fatalf("end mark at %d, frame of %d bytes", pos-4, len(frame))
			}
			return words
		}
		words = append(words, w)
		pos += int(w &^ (1 << 31))
	}
}
