package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lz4warp/lz4warp"
	"github.com/lz4warp/lz4warp/internal/lz4cmd"
	"github.com/lz4warp/lz4warp/reference"
	"github.com/pierrec/lz4/v4"
)

// Checks CLI-1.
func TestUsageAndExitStatus(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		text string
	}{
		{nil, 0, "\x04\x22\x4d\x18"}, // lz4's syntax: stdin to stdout (CLI-16)
		{[]string{"frobnicate"}, 1, "lz4warp: open frobnicate: no such file"},
		{[]string{"-B9"}, 2, "-B9: want -B4 to -B7"},
		{[]string{"-13"}, 2, "levels are 1 to 12"},
		{[]string{"-zd"}, 2, "-z with -d"},
		{[]string{"a", "b", "c"}, 2, "-m for several inputs"},
		{[]string{"version"}, 0, "lz4warp "},
		{[]string{"-V"}, 0, "lz4warp "},
		{[]string{"help"}, 0, "compress"},
		{[]string{"compress", "-nosuchflag"}, 2, "flag provided but not defined"},
		{[]string{"compress", "-h"}, 0, "-backend"},
		{[]string{"compress", "a", "b"}, 2, "one input at most"},
		{[]string{"compress", "-backend", "tpu", "-o", "-"}, 2, `-backend "tpu"`},
		{[]string{"compress", "-batch", "0", "-o", "-"}, 2, "BatchSize 0"},
		{[]string{"decompress", "noext"}, 2, "does not end in .lz4"},
		{[]string{"decompress", ".lz4"}, 2, "cannot name the output of .lz4: its name is only the .lz4 suffix"},
		{[]string{"decompress", "sub/.lz4"}, 2, "its name is only the .lz4 suffix"},
		{[]string{"decompress", "missing.lz4"}, 1, "lz4warp decompress: open missing.lz4"},
		{[]string{"rule", "extra"}, 2, "unexpected argument"},
	}
	for _, c := range cases {
		r := runCmd(t, dir, []byte{}, c.args...)
		out := string(r.stdout) + string(r.stderr)
		if r.code != c.code || !strings.Contains(out, c.text) {
			t.Errorf("lz4warp %v: exit %d, want %d; output %q lacks %q", c.args, r.code, c.code, out, c.text)
		}
	}
}

// Checks CLI-1: a usage error, a bad flag included, is one line on stderr,
// without the flag package's usage dump.
func TestUsageErrorOneLine(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"compress", "-zz"}, {"compress", "-batch", "x"}, {"compress", "a", "b"},
		{"decompress", "-o"}, {"rule", "-pcie", "fast"}, {"bench", "-nosuchflag"},
		{"-B9"}, {"--nosuchflag"}, {"-zd", "x"}, {"demo", "-batch", "0", "-pages", "2"}, {"demo", "-batch", "300000", "-pages", "2"},
	} {
		r := runCmd(t, dir, []byte{}, args...)
		want := "lz4warp: "
		if len(args) > 1 && !strings.HasPrefix(args[0], "-") {
			want = "lz4warp " + args[0] + ": "
		}
		if r.code != 2 || len(r.stdout) != 0 || !strings.HasPrefix(string(r.stderr), want) || bytes.Count(r.stderr, []byte("\n")) != 1 {
			t.Errorf("lz4warp %v: exit %d, stdout %q, stderr %q: want exit 2 and one line %q…", args, r.code, r.stdout, r.stderr, want)
		}
	}
	// -h still prints the usage.
	if r := runCmd(t, dir, nil, "compress", "-h"); r.code != 0 || !strings.Contains(string(r.stderr), "usage: lz4warp compress") {
		t.Errorf("compress -h: exit %d, %q", r.code, r.stderr)
	}
}

// Checks CLI-1: "--" as the value of a flag is that value; "--" in a
// flag's place still ends the flags.
func TestDashDashAsValue(t *testing.T) {
	dir := t.TempDir()
	data := sample(10000, 3)
	writeFile(t, filepath.Join(dir, "s"), data)
	writeFile(t, filepath.Join(dir, "-s"), data)
	ok(t, dir, nil, "compress", "-o", "--", "s", "-f")
	if got := ok(t, dir, readFile(t, filepath.Join(dir, "--")), "decompress").stdout; !bytes.Equal(got, data) {
		t.Fatal("compress -o -- s: the file -- does not hold s compressed")
	}
	ok(t, dir, nil, "compress", "-f", "--", "-s")
	ok(t, dir, nil, "compress", "-o=out.lz4", "--", "-s")
	ok(t, dir, nil, "decompress", "-o", "--", "-f", "--", "-s.lz4") // the second -- ends the flags
	if !bytes.Equal(readFile(t, filepath.Join(dir, "--")), data) {
		t.Fatal("decompress -o -- -f -- -s.lz4 did not write -s's data to --")
	}
	if got := dirNames(t, dir); strings.Join(got, " ") != "-- -s -s.lz4 out.lz4 s" {
		t.Fatalf("directory holds %v", got)
	}
}

// Checks CLI-3, CLI-4: files of every length round trip through lz4 -d,
// pierrec/lz4 and decompress.
func TestCompressThenLZ4(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 100, 4095, 4096, 4097, 3*4096 + 5, 300001} {
		data := sample(n, uint64(n))
		name := "in" + strconv.Itoa(n)
		writeFile(t, filepath.Join(dir, name), data)
		ok(t, dir, nil, "compress", name)
		frame := readFile(t, filepath.Join(dir, name+".lz4"))
		if n == 0 && !bytes.Equal(frame, lz4cmd.Run(t, []byte{}, "-c", "-q")) {
			t.Errorf("empty input: % x differs from lz4's empty frame", frame)
		}
		if got := lz4cmd.Run(t, frame, "-d", "-c", "-q"); !bytes.Equal(got, data) {
			t.Errorf("%d bytes: lz4 -d gives %d bytes, not the input", n, len(got))
		}
		if got, err := io.ReadAll(lz4.NewReader(bytes.NewReader(frame))); err != nil || !bytes.Equal(got, data) {
			t.Errorf("%d bytes: pierrec reader: %v", n, err)
		}
		os.Remove(filepath.Join(dir, name))
		ok(t, dir, nil, "decompress", name+".lz4")
		if got := readFile(t, filepath.Join(dir, name)); !bytes.Equal(got, data) {
			t.Errorf("%d bytes: decompress gives %d bytes, not the input", n, len(got))
		}
	}
}

// Checks CLI-4, CLI-5: every kind of frame the lz4 command writes.
func TestLZ4ThenDecompress(t *testing.T) {
	dir := t.TempDir()
	data := sample(1<<20+77, 5)
	variants := [][]string{{"-BD", "-B4"}, {"-B5", "-BX", "--content-size"}, {"-B6"}, {"-B7", "-BD"}, {"-l"}, {"-9"}, {"--fast=5"}}
	for _, v := range variants {
		frame := lz4cmd.Run(t, data, append([]string{"-c", "-q"}, v...)...)
		r := ok(t, dir, frame, "decompress")
		if !bytes.Equal(r.stdout, data) {
			t.Errorf("lz4 %v: decompress gives %d bytes, not the input", v, len(r.stdout))
		}
	}
	// Concatenated frames, one of them lz4warp's, with a skippable frame.
	a := lz4cmd.Run(t, data[:5000], "-c", "-q")
	b := ok(t, dir, data[5000:9000], "compress", "-o", "-").stdout
	skip := []byte{0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 'x', 'y', 'z'}
	stream := append(append(append(append([]byte{}, a...), skip...), b...), a...)
	want := append(append([]byte{}, data[:9000]...), data[:5000]...)
	if r := ok(t, dir, stream, "decompress", "-"); !bytes.Equal(r.stdout, want) {
		t.Errorf("concatenated frames: %d bytes, want %d", len(r.stdout), len(want))
	}
}

// Checks CLI-2, CLI-3: the frame layout, one block per page, the short last
// page unpadded.
func TestFrameLayout(t *testing.T) {
	dir := t.TempDir()
	var page [4096]byte
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range page {
		page[i] = byte(rng.Uint32())
	}
	same := bytes.Repeat([]byte{9, 8, 7, 6, 5, 4, 3, 2}, 512)
	text := []byte(strings.Repeat("lz4warp pages ", 293))[:4096]
	short := []byte(strings.Repeat("abcdefgh", 100))
	input := append(append(append(append([]byte{}, page[:]...), same...), text...), short...)
	r := ok(t, dir, input, "compress", "-o", "-")
	frame := r.stdout
	if !bytes.Equal(frame[:7], []byte{0x04, 0x22, 0x4d, 0x18, 0x64, 0x40, 0xa7}) {
		t.Fatalf("header % x", frame[:7])
	}
	words := blocks(t, frame)
	if len(words) != 4 {
		t.Fatalf("%d blocks, want 4 (3 pages and a short one)", len(words))
	}
	var dst [reference.PageBound]byte
	kind, _ := reference.EncodePage(dst[:], &page)
	if kind != reference.KindRaw || words[0] != 1<<31|4096 {
		t.Errorf("incompressible page: kind %v, block word %#x, want a stored 4096-byte block", kind, words[0])
	}
	// The same-filled page is its canonical LZ4 block.
	blk := make([]byte, reference.CompressBlockBound(4096))
	n, _ := reference.CompressBlock(blk, same)
	if words[1] != uint32(n) || !bytes.Equal(frame[7+4+4096+4:][:min(n, len(frame)-7-4-4096-4)], blk[:n]) {
		t.Errorf("same-filled page: block of %d bytes, want the canonical %d-byte block", words[1], n)
	}
	// The text page is its API payload.
	var tp lz4warp.Page
	copy(tp[:], text)
	kind, m := reference.EncodePage(dst[:], &tp)
	if kind != reference.KindLZ4 || words[2] != uint32(m) {
		t.Errorf("text page: block word %d, want the %d-byte payload", words[2], m)
	}
	// The short page is its canonical block, shorter than 3/4 of it.
	k, _ := reference.CompressBlock(blk, short)
	if words[3] != uint32(k) || k >= len(short)*3/4 {
		t.Errorf("short page: block word %d, want %d", words[3], k)
	}
	last := frame[len(frame)-8-int(words[3]) : len(frame)-8]
	var back [4096]byte
	if n, err := reference.DecompressBlock(back[:], last); err != nil || !bytes.Equal(back[:n], short) {
		t.Errorf("the last block decodes to %d bytes (%v), want the %d bytes of the short page", n, err, len(short))
	}
	// A short incompressible page is stored.
	r = ok(t, dir, page[:100], "compress", "-o", "-")
	if w := blocks(t, r.stdout); len(w) != 1 || w[0] != 1<<31|100 {
		t.Errorf("short random page: words %x, want one stored 100-byte block", w)
	}
}

// Checks CLI-3: a short last page is compressed exactly when its block is
// shorter than three quarters of it: 54 bytes with a 40-byte block
// (40 < 40.5), where 3L/4 is not whole.
func TestShortPageThreshold(t *testing.T) {
	data := append([]byte("abcdefghijklmnopqrstuvwxyz01"), bytes.Repeat([]byte{'x'}, 26)...)
	blk := make([]byte, reference.CompressBlockBound(len(data)))
	n, err := reference.CompressBlock(blk, data)
	if err != nil || n != 40 {
		t.Fatalf("the canonical block of the 54 bytes has %d bytes (%v), want 40", n, err)
	}
	r := ok(t, t.TempDir(), data, "compress", "-o", "-")
	if w := blocks(t, r.stdout); len(w) != 1 || w[0] != 40 {
		t.Fatalf("54-byte input: block words %#x, want one 40-byte compressed block", w)
	}
}

// Checks CLI-9, CLI-3: every backend and batch size writes the same bytes;
// bad backends and batches are refused.
func TestBackendsSameBytes(t *testing.T) {
	dir := t.TempDir()
	data := sample(200000, 8)
	want := ok(t, dir, data, "compress").stdout
	for _, args := range [][]string{
		{"-backend", "scalar"}, {"-backend", "simd"}, {"-backend", "auto", "-batch", "1"},
		{"-batch", "3"}, {"-batch", "5"}, {"-backend", "simd", "-batch", "1000"},
	} {
		got := ok(t, dir, data, append([]string{"compress", "-o", "-"}, args...)...).stdout
		if !bytes.Equal(got, want) {
			t.Errorf("compress %v: %d bytes differ from the default's %d", args, len(got), len(want))
		}
	}
	if !lz4warp.GPUAvailable() {
		r := runCmd(t, dir, data, "compress", "-backend", "gpu", "-o", "-")
		if r.code != 1 || !strings.Contains(string(r.stderr), "no supported CUDA GPU") {
			t.Errorf("-backend gpu without a GPU: exit %d, %s", r.code, r.stderr)
		}
	}
}

// Checks CLI-9, CLI-8: -batch above its maximum is a one-line usage error
// that leaves no file; the maximum itself works.
func TestBatchLimit(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"262145", "10000000", "100000000000"} {
		r := runCmd(t, dir, []byte("hi\n"), "compress", "-batch", n, "-o", "x.lz4")
		if r.code != 2 || string(r.stderr) != "lz4warp compress: -batch "+n+": more than 262144 pages (1 GiB) per batch\n" {
			t.Errorf("-batch %s: exit %d, stderr %q", n, r.code, r.stderr)
		}
		if got := dirNames(t, dir); len(got) != 0 {
			t.Fatalf("-batch %s left %v behind", n, got)
		}
	}
	ok(t, dir, []byte("hi\n"), "compress", "-batch", "262144", "-o", "x.lz4")
	if got := ok(t, dir, nil, "decompress", "-o", "-", "x.lz4").stdout; string(got) != "hi\n" {
		t.Fatalf("-batch 262144: round trip gives %q", got)
	}
	if r := runCmd(t, dir, nil, "bench", "-batches", "1,262145", "-svg", ""); r.code != 2 || !strings.Contains(string(r.stderr), "not a page count from 1 to 262144") {
		t.Errorf("bench -batches 262145: exit %d, %q", r.code, r.stderr)
	}
}

// Checks CLI-7: only a terminal is refused; /dev/null, a character device,
// is not one.
func TestCompressToDevNull(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	cmd := exec.Command(bin, "compress")
	cmd.Stdin = strings.NewReader("hi\n")
	cmd.Stdout = null // the child's stdout is /dev/null itself, not a pipe
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("echo hi | lz4warp compress > /dev/null: %v, %q", err, stderr.String())
	}
}

// Checks CLI-7: stdin and stdout, default names, -o, -f, refusals.
func TestInputsOutputs(t *testing.T) {
	dir := t.TempDir()
	data := sample(50000, 2)
	// stdin to stdout, both ways, with and without "-".
	frame := ok(t, dir, data, "compress").stdout
	if got := ok(t, dir, frame, "decompress", "-").stdout; !bytes.Equal(got, data) {
		t.Fatal("stdin/stdout round trip differs")
	}
	// Default names: f -> f.lz4 -> f.
	writeFile(t, filepath.Join(dir, "f"), data)
	ok(t, dir, nil, "compress", "f")
	if !bytes.Equal(readFile(t, filepath.Join(dir, "f.lz4")), frame) {
		t.Fatal("f.lz4 differs from the stdout frame")
	}
	r := runCmd(t, dir, nil, "decompress", "f.lz4")
	if r.code != 1 || !strings.Contains(string(r.stderr), "f already exists (use -f to overwrite)") {
		t.Fatalf("existing output: exit %d, %s", r.code, r.stderr)
	}
	writeFile(t, filepath.Join(dir, "f"), []byte("old"))
	ok(t, dir, nil, "decompress", "-f", "f.lz4")
	if !bytes.Equal(readFile(t, filepath.Join(dir, "f")), data) {
		t.Fatal("-f did not overwrite f")
	}
	// -o after the operand, and -o to a subdirectory.
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	ok(t, dir, nil, "decompress", "f.lz4", "-o", "sub/g")
	if !bytes.Equal(readFile(t, filepath.Join(dir, "sub", "g")), data) {
		t.Fatal("-o sub/g differs")
	}
	// An output in a directory that does not exist.
	if r := runCmd(t, dir, nil, "compress", "-o", "nodir/f.lz4", "f"); r.code != 1 || !strings.Contains(string(r.stderr), "create nodir/f.lz4: no such file or directory") {
		t.Fatalf("missing directory: exit %d, %s", r.code, r.stderr)
	}
	// The input as its own output.
	if r := runCmd(t, dir, nil, "compress", "-f", "-o", "f", "f"); r.code != 2 || !strings.Contains(string(r.stderr), "same file") {
		t.Fatalf("input as output: exit %d, %s", r.code, r.stderr)
	}
	// Permissions follow the input.
	os.Chmod(filepath.Join(dir, "f"), 0o600)
	ok(t, dir, nil, "compress", "-f", "f")
	if fi, _ := os.Stat(filepath.Join(dir, "f.lz4")); fi.Mode().Perm() != 0o600 {
		t.Fatalf("f.lz4 mode %v, want the input's 0600", fi.Mode().Perm())
	}
	if got := dirNames(t, dir); strings.Join(got, " ") != "f f.lz4 sub" {
		t.Fatalf("directory holds %v", got)
	}
}

var offsetRE = regexp.MustCompile(`at byte offset (\d+)`)

// Checks CLI-6, CLI-8: truncated and corrupted input fail with the offset,
// leaving no output file and no temporary file; an existing output is kept.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	data := sample(30000, 4)
	frame := ok(t, dir, data, "compress").stdout
	flipped := bytes.Clone(frame)
	flipped[len(flipped)/2] ^= 0x55
	cases := []struct {
		name   string
		in     []byte
		text   string
		offset int
	}{
		{"truncated", frame[:len(frame)-100], "truncated input", -1},
		{"header", frame[:5], "truncated input at byte offset 4", 4},
		{"corrupted", flipped, "", -1},
		{"checksum", append(bytes.Clone(frame[:len(frame)-1]), frame[len(frame)-1]^1), "checksum mismatch", len(frame) - 4},
		{"not lz4", []byte("hello, world"), "not LZ4 data at byte offset 0", 0},
	}
	for _, c := range cases {
		writeFile(t, filepath.Join(dir, "bad.lz4"), c.in)
		r := runCmd(t, dir, nil, "decompress", "bad.lz4")
		msg := string(r.stderr)
		m := offsetRE.FindStringSubmatch(msg)
		if r.code != 1 || m == nil || !strings.Contains(msg, "lz4warp decompress: bad.lz4: ") || !strings.Contains(msg, c.text) {
			t.Errorf("%s: exit %d, message %q", c.name, r.code, msg)
			continue
		}
		if off, _ := strconv.Atoi(m[1]); off > len(c.in) || (c.offset >= 0 && off != c.offset) {
			t.Errorf("%s: offset %d, want %d (input of %d bytes)", c.name, off, c.offset, len(c.in))
		}
		if got := dirNames(t, dir); len(got) != 1 {
			t.Errorf("%s: left %v behind", c.name, got)
		}
		// With -f and an existing output, the output is left as it was.
		writeFile(t, filepath.Join(dir, "bad"), []byte("keep"))
		if r := runCmd(t, dir, nil, "decompress", "-f", "bad.lz4"); r.code != 1 {
			t.Errorf("%s with -f: exit %d", c.name, r.code)
		}
		if got := readFile(t, filepath.Join(dir, "bad")); string(got) != "keep" {
			t.Errorf("%s: the existing output was changed to %d bytes", c.name, len(got))
		}
		os.Remove(filepath.Join(dir, "bad"))
	}
}

// Checks CLI-10, CLI-8: decompress to stdout writes the blocks before a
// faulty one before it fails; to a file, it leaves none.
func TestDecompressStdoutBeforeError(t *testing.T) {
	dir := t.TempDir()
	data := sample(30000, 4)
	frame := ok(t, dir, data, "compress").stdout
	words := blocks(t, frame)
	last := 7 // the start of the last block's size word
	for _, w := range words[:len(words)-1] {
		last += 4 + int(w&^(1<<31))
	}
	bad := frame[:last+4+1] // the last block cut short
	want := data[:(len(words)-1)*4096]
	for _, args := range [][]string{{"decompress"}, {"decompress", "-o", "-"}} {
		r := runCmd(t, dir, bad, args...)
		if r.code != 1 || !strings.Contains(string(r.stderr), "truncated") {
			t.Fatalf("%v: exit %d, %q", args, r.code, r.stderr)
		}
		if !bytes.Equal(r.stdout, want) {
			t.Errorf("%v: %d bytes on stdout, want the %d bytes of the blocks before the faulty one", args, len(r.stdout), len(want))
		}
	}
	writeFile(t, filepath.Join(dir, "bad.lz4"), bad)
	if r := runCmd(t, dir, nil, "decompress", "-o", "out", "bad.lz4"); r.code != 1 {
		t.Fatalf("decompress -o out: exit %d", r.code)
	}
	if got := dirNames(t, dir); len(got) != 1 {
		t.Fatalf("decompress -o out left %v", got)
	}
}

// Checks CLI-8: an interrupted compress leaves nothing under the output's
// name, and no temporary file.
func TestInterrupt(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(bin, "compress", "-o", "out.lz4")
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Write(sample(1<<20, 1)) // then stdin stays open: compress waits for more
	deadline := time.Now().Add(5 * time.Second)
	for len(dirNames(t, dir)) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := dirNames(t, dir); len(got) != 1 || !strings.HasPrefix(got[0], ".out.lz4.tmp-") {
		t.Fatalf("while running, the directory holds %v, want one temporary file", got)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	stdin.Close()
	if cmd.ProcessState.ExitCode() != 130 || !strings.Contains(stderr.String(), "interrupted") {
		t.Fatalf("after SIGINT: %v, stderr %q", err, stderr.String())
	}
	if got := dirNames(t, dir); len(got) != 0 {
		t.Fatalf("after SIGINT the directory holds %v", got)
	}
}

// Checks CLI-10: nothing on stderr when it is not a terminal; -v prints a
// summary; the bar's text.
func TestQuietStderrAndProgress(t *testing.T) {
	dir := t.TempDir()
	data := sample(100000, 6)
	r := ok(t, dir, data, "compress")
	if len(r.stderr) != 0 {
		t.Fatalf("compress wrote %q to a stderr that is not a terminal", r.stderr)
	}
	if r := ok(t, dir, r.stdout, "decompress"); len(r.stderr) != 0 {
		t.Fatalf("decompress wrote %q to stderr", r.stderr)
	}
	r = ok(t, dir, data, "compress", "-v")
	if !strings.Contains(string(r.stderr), "compress stdin -> stdout: 100000 -> ") {
		t.Fatalf("-v summary: %q", r.stderr)
	}
	bar := renderBar("compress", 50<<20, 100<<20, 2*time.Second, 10)
	if bar != "compress  50% [====>     ] 50.0 MiB / 100.0 MiB    26.2 MB/s" {
		t.Fatalf("bar %q", bar)
	}
	if got := renderBar("decompress", 3<<10, -1, time.Second, 10); got != "decompress 3.0 KiB     0.0 MB/s" {
		t.Fatalf("bar without total %q", got)
	}
}

// Checks CLI-10: a stream much longer than the batches goes through stdin
// and stdout in both directions.
func TestLongStream(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat(sample(1<<20, 12), 8)
	frame := ok(t, dir, data, "compress", "-batch", "16").stdout
	if got := ok(t, dir, frame, "decompress").stdout; !bytes.Equal(got, data) {
		t.Fatal("8 MiB stream differs after the round trip")
	}
}

// Checks CLI-11.
func TestRule(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		pages     int
		pcie, gpu string
		text      []string
	}{
		{10000, "64", "500", []string{"d = 10000 × 4096 B", "= 0.04096 GB", "= 13.653333 ms", "= 1.280000 ms", "= 0.081920 ms", "1/3 > 10/64 + 5/500", "0.333333 > 0.166250", "holds", "= true"}},
		{1, "64", "500", []string{"= true"}},
		{10000, "16", "1000", []string{"13.653333 ms < 25.804800 ms", "0.333333 < 0.630000", "does not hold", "MeetsPCIeRule(10000, 16, 1000) = false"}},
		// Exactly at the threshold: equal, and the verdict is false.
		{10000, "60", "30", []string{"13.653333 ms = 13.653333 ms", "0.333333 = 0.333333", "does not hold", "= false"}},
		// Next to it: digits enough to show the values differ.
		{10000, "60", "29.99999999999999", []string{"13.65333333333333 ms < 13.65333333333334 ms", "0.3333333333333333 < 0.3333333333333334", "= false"}},
		{10000, "60", "30.00000000000001", []string{"13.653333333333333 ms > 13.653333333333331 ms", "0.33333333333333333 > 0.33333333333333327", "= true"}},
		{0, "64", "500", []string{"page count is not positive", "= false"}},
		{5, "NaN", "500", []string{"PCIe bandwidth is not a positive finite number", "= false"}},
		{5, "64", "+Inf", []string{"GPU throughput is not", "= false"}},
	}
	for _, c := range cases {
		r := ok(t, dir, nil, "rule", "-pages", strconv.Itoa(c.pages), "-pcie", c.pcie, "-gpu", c.gpu)
		out := string(r.stdout)
		for _, s := range c.text {
			if !strings.Contains(out, s) {
				t.Errorf("rule %d %s %s: output lacks %q:\n%s", c.pages, c.pcie, c.gpu, s, out)
			}
		}
		pcie, _ := strconv.ParseFloat(c.pcie, 64)
		gpu, _ := strconv.ParseFloat(c.gpu, 64)
		want := "= " + strconv.FormatBool(lz4warp.MeetsPCIeRule(c.pages, pcie, gpu)) + "\n"
		if !strings.HasSuffix(out, want) {
			t.Errorf("rule %d %s %s: verdict line differs from MeetsPCIeRule (%q)", c.pages, c.pcie, c.gpu, want)
		}
	}
}

// Checks CLI-12.
func TestDevicesWithoutGPU(t *testing.T) {
	if lz4warp.GPUAvailable() {
		t.Skip("a GPU is present")
	}
	r := ok(t, t.TempDir(), nil, "devices")
	if !strings.Contains(string(r.stdout), "no CUDA GPU") || !strings.Contains(string(r.stdout), "CPU backends") {
		t.Fatalf("devices without a GPU: %q", r.stdout)
	}
}

// Checks CLI-13: the table and a well-formed SVG with a panel per dataset,
// a line per backend and SelectBackend's thresholds.
func TestBench(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "file.bin"), sample(20000, 1))
	r := ok(t, dir, nil, "bench", "-data", "zeros,random,file.bin", "-pages", "8", "-batches", "1,4,8", "-time", "0", "-svg", "out/plot.svg")
	out := string(r.stdout)
	for _, want := range []string{"backend", "GB/s", "ratio", "plot: out/plot.svg"} {
		if !strings.Contains(out, want) {
			t.Fatalf("bench output lacks %q:\n%s", want, out)
		}
	}
	rows := 0
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= 7 && (f[0] == "scalar" || f[0] == "simd" || f[0] == "gpu") {
			rows++
			if f[0] == "scalar" && f[3] != "scalar" {
				t.Errorf("scalar row ran on %s: %s", f[3], line)
			}
			if f[0] == "simd" && f[2] != "1" && f[3] != "simd" {
				t.Errorf("simd row ran on %s: %s", f[3], line)
			}
			if f[1] == "zeros" {
				if ratio, _ := strconv.ParseFloat(f[6], 64); ratio != 512 {
					t.Errorf("zeros ratio %s, want 512 (8-byte payloads)", f[6])
				}
			}
		}
	}
	if want := len(availableBackends()) * 3 * 3; rows != want {
		t.Fatalf("%d table rows, want %d:\n%s", rows, want, out)
	}
	svg := readFile(t, filepath.Join(dir, "out", "plot.svg"))
	var doc struct {
		XMLName xml.Name `xml:"svg"`
		G       []struct {
			Text     []string `xml:"text"`
			Polyline []struct {
				Name   string `xml:"data-name,attr"`
				Points string `xml:"points,attr"`
			} `xml:"polyline"`
			Line []struct {
				Class string `xml:"class,attr"`
			} `xml:"line"`
		} `xml:"g"`
	}
	if err := xml.Unmarshal(svg, &doc); err != nil {
		t.Fatalf("SVG does not parse: %v", err)
	}
	if len(doc.G) != 3 {
		t.Fatalf("%d panels, want 3", len(doc.G))
	}
	for _, g := range doc.G {
		if len(g.Polyline) != len(availableBackends()) {
			t.Errorf("panel %v: %d lines", g.Text[:1], len(g.Polyline))
		}
		for _, p := range g.Polyline {
			want := 3 // batches 1, 4 and 8, each on its own backend (API-17)
			if n := len(strings.Fields(p.Points)); n != want {
				t.Errorf("line %s has %d points, want %d", p.Name, n, want)
			}
		}
		markers := 0
		for _, l := range g.Line {
			if l.Class == "marker" {
				markers++
			}
		}
		text := strings.Join(g.Text, "|")
		if markers != 1 || !strings.Contains(text, "gpu ≥ 1000") {
			t.Errorf("panel markers %d, texts %q", markers, text)
		}
	}
}

// Checks CLI-13: with -svg -, stdout holds the SVG alone and the table
// goes to stderr.
func TestBenchSVGToStdout(t *testing.T) {
	dir := t.TempDir()
	r := ok(t, dir, nil, "bench", "-svg", "-", "-backends", "scalar", "-data", "zeros", "-batches", "1", "-pages", "1", "-time", "0")
	var doc struct {
		XMLName xml.Name `xml:"svg"`
	}
	if err := xml.Unmarshal(r.stdout, &doc); err != nil {
		t.Fatalf("stdout is not an SVG: %v\n%s", err, r.stdout)
	}
	if !strings.Contains(string(r.stderr), "scalar") || !strings.Contains(string(r.stderr), "GB/s") {
		t.Fatalf("the table is not on stderr: %q", r.stderr)
	}
	if got := dirNames(t, dir); len(got) != 0 {
		t.Fatalf("bench -svg - wrote %v", got)
	}
}

// Checks CLI-14: the demo on a small dataset.
func TestDemo(t *testing.T) {
	r := ok(t, t.TempDir(), nil, "demo", "-pages", "24", "-batch", "10")
	out := string(r.stdout)
	for _, want := range []string{"coredump", "binaries", "backend auto:", "backend scalar:", "backend simd:",
		"backend auto+buffer:", "CompressBuffer calls", "backend auto+async:", "CompressBufferAsync calls",
		"round trip verified byte for byte; same bytes as auto: true", "all round trips verified"} {
		if !strings.Contains(out, want) {
			t.Fatalf("demo output lacks %q:\n%s", want, out)
		}
	}
}

// Checks CLI-10: memory stays bounded whatever the stream's length: 256 MiB
// go through compress and back through decompress, each process peaking far
// below the stream's size.
func TestBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 256 MiB")
	}
	const size = 256 << 20
	page := sample(4096, 77)
	feed := func(w io.WriteCloser) {
		defer w.Close()
		zeros := make([]byte, 1<<20-4096)
		for n := 0; n < size; n += 1 << 20 {
			if _, err := w.Write(page); err != nil {
				return
			}
			if _, err := w.Write(zeros); err != nil {
				return
			}
		}
	}
	// compress: stdin fed by feed, stdout into decompress's stdin.
	comp := exec.Command(bin, "compress")
	dec := exec.Command(bin, "decompress")
	in, err := comp.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	pipe, err := comp.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	dec.Stdin = pipe
	counter := &countWriter{}
	dec.Stdout = counter
	var cerr, derr bytes.Buffer
	comp.Stderr, dec.Stderr = &cerr, &derr
	if err := comp.Start(); err != nil {
		t.Fatal(err)
	}
	if err := dec.Start(); err != nil {
		t.Fatal(err)
	}
	go feed(in)
	// The rusage of a child counts the memory it shared with this process
	// before exec, so the children's peaks are read from /proc instead.
	peaks := []*hwm{watchHWM(comp.Process.Pid), watchHWM(dec.Process.Pid)}
	if err := comp.Wait(); err != nil {
		t.Fatalf("compress: %v %s", err, cerr.String())
	}
	if err := dec.Wait(); err != nil {
		t.Fatalf("decompress: %v %s", err, derr.String())
	}
	if counter.n != size {
		t.Fatalf("decompressed %d bytes, want %d", counter.n, size)
	}
	for i, p := range []*exec.Cmd{comp, dec} {
		rss := peaks[i].peak()
		t.Logf("%s: peak RSS %d MiB (VmHWM)", p.Args[1], rss>>20)
		if rss == 0 {
			t.Skip("/proc/PID/status gives no VmHWM here")
		}
		if rss > 64<<20 {
			t.Errorf("%s peaked at %d MiB for a %d MiB stream", p.Args[1], rss>>20, size>>20)
		}
	}
}

// hwm follows a process's VmHWM (its peak resident set since exec) until
// the process is gone.
type hwm struct {
	mu   sync.Mutex
	max  int64
	done chan struct{}
}

func watchHWM(pid int) *hwm {
	h := &hwm{done: make(chan struct{})}
	go func() {
		defer close(h.done)
		for {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
			if err != nil {
				return
			}
			for _, line := range strings.Split(string(b), "\n") {
				if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
					var kib int64
					fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kib)
					h.mu.Lock()
					h.max = max(h.max, kib<<10)
					h.mu.Unlock()
				}
			}
			if strings.Contains(string(b), "State:\tZ") {
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	return h
}

func (h *hwm) peak() int64 {
	<-h.done
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.max
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}
