package dataset

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// testPages keeps the test sets small: CI loads each set in well under a second.
const testPages = 64

func TestLoadEverySet(t *testing.T) {
	for _, name := range Names() {
		pages, err := Load(name, testPages)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(pages) == 0 || len(pages) > testPages {
			t.Errorf("%s: %d pages, want 1 to %d", name, len(pages), testPages)
		}
		if _, ok := loaders[name]; !ok {
			t.Errorf("%s is listed but has no loader", name)
		}
	}
	if len(loaders) != len(Names()) {
		t.Errorf("%d loaders, %d names", len(loaders), len(Names()))
	}
}

func TestDeterministic(t *testing.T) {
	for _, name := range Deterministic() {
		a, err := Load(name, testPages)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Load(name, testPages)
		if err != nil {
			t.Fatal(err)
		}
		if len(a) != len(b) {
			t.Fatalf("%s: %d then %d pages", name, len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s: page %d differs between two loads", name, i)
			}
		}
	}
}

func TestExactCounts(t *testing.T) {
	for _, name := range []string{Zeros, Random, Mixed} {
		for _, n := range []int{1, 7, 100} {
			pages, err := Load(name, n)
			if err != nil {
				t.Fatal(err)
			}
			if len(pages) != n {
				t.Errorf("%s: %d pages, want %d", name, len(pages), n)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	if _, err := Load("nope", 1); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown name: %v, want ErrUnknown", err)
	}
	for _, n := range []int{0, -1} {
		if _, err := Load(Zeros, n); !errors.Is(err, ErrCount) {
			t.Errorf("count %d: %v, want ErrCount", n, err)
		}
	}
	if _, err := sample(nil, 1); !errors.Is(err, ErrNoSource) {
		t.Errorf("empty source: %v, want ErrNoSource", err)
	}
	gone := []segment{{path: filepath.Join(t.TempDir(), "missing"), size: 10}}
	if _, err := sample(gone, 1); !errors.Is(err, ErrNoSource) {
		t.Errorf("missing file: %v, want ErrNoSource", err)
	}
}

func TestContents(t *testing.T) {
	zeros, _ := Load(Zeros, 3)
	for i := range zeros {
		if zeros[i] != (Page{}) {
			t.Errorf("zeros: page %d is not zero", i)
		}
	}

	random, _ := Load(Random, 2)
	if random[0] == random[1] || bytes.Count(random[0][:], []byte{0}) > 64 {
		t.Error("random: pages repeat or are mostly zero")
	}

	text, err := Load(Text, testPages)
	if err != nil {
		t.Fatal(err)
	}
	printable := 0
	for i := range text {
		for _, c := range text[i] {
			if c == '\n' || c == '\t' || (c >= ' ' && c < 0x7f) {
				printable++
			}
		}
	}
	if frac := float64(printable) / float64(len(text)*PageSize); frac < 0.95 {
		t.Errorf("text: only %.1f%% printable ASCII", 100*frac)
	}

	bins, err := Load(Binaries, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(bins[0][:], []byte("\x7fELF")) && !bytes.HasPrefix(bins[0][:], []byte("MZ")) {
		t.Errorf("binaries: first page starts %x, not an executable header", bins[0][:4])
	}
	distinct := map[Page]bool{}
	for i := range bins {
		distinct[bins[i]] = true
	}
	if len(distinct) < len(bins)/2 {
		t.Errorf("binaries: only %d distinct pages of %d", len(distinct), len(bins))
	}
}

func TestMixedPattern(t *testing.T) {
	pages, err := Load(Mixed, 16)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := Load(Text, 6)
	random, _ := Load(Random, 2)
	for i := range pages {
		switch mixPattern[i%8] {
		case Zeros:
			if pages[i] != (Page{}) {
				t.Errorf("page %d: want zeros", i)
			}
		case "same":
			w := binary.LittleEndian.Uint64(pages[i][:])
			if w != 0x0101010101010101*uint64(i/8+1) {
				t.Errorf("page %d: fill word %#x", i, w)
			}
			for j := 8; j < PageSize; j += 8 {
				if binary.LittleEndian.Uint64(pages[i][j:]) != w {
					t.Fatalf("page %d is not same-filled", i)
				}
			}
		case Random:
			if pages[i] != random[i/8] {
				t.Errorf("page %d: want random page %d", i, i/8)
			}
		}
	}
	// Text pages are taken in order: pages 0, 3, 7 are text pages 0, 1, 2.
	if pages[0] != text[0] || pages[3] != text[1] || pages[7] != text[2] {
		t.Error("text pages out of order")
	}
}

func TestCoredumpLiveMemory(t *testing.T) {
	if _, err := os.Stat("/proc/self/maps"); err != nil {
		t.Skip("no /proc on this system")
	}
	t.Setenv(CoreEnv, "")
	pages, err := Load(Coredump, testPages)
	if err != nil {
		t.Fatal(err)
	}
	nonZero := 0
	for i := range pages {
		if pages[i] != (Page{}) {
			nonZero++
		}
	}
	if nonZero == 0 {
		t.Error("coredump: every page is zero")
	}
}

func TestCoreFile(t *testing.T) {
	notCore := filepath.Join(t.TempDir(), "x")
	if err := os.WriteFile(notCore, []byte("not an ELF file"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(CoreEnv, notCore)
	if _, err := Load(Coredump, 1); !errors.Is(err, ErrNoSource) {
		t.Errorf("not a core file: %v, want ErrNoSource", err)
	}
	// An executable is ELF but not a core file.
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	t.Setenv(CoreEnv, exe)
	if _, err := Load(Coredump, 1); !errors.Is(err, ErrNoSource) {
		t.Errorf("executable as core: %v, want ErrNoSource", err)
	}
}

// TestGcoreFile reads a core file written by gdb's gcore, when gcore is
// installed (make coredump uses it).
func TestGcoreFile(t *testing.T) {
	gcore, err := exec.LookPath("gcore")
	if err != nil {
		t.Skip("gcore not installed: make gdb-tool installs gdb, which brings it")
	}
	sleeper := exec.Command("sleep", "30")
	if err := sleeper.Start(); err != nil {
		t.Skip(err)
	}
	defer func() { _ = sleeper.Process.Kill(); _ = sleeper.Wait() }()
	prefix := filepath.Join(t.TempDir(), "core")
	if out, err := exec.Command(gcore, "-o", prefix, strconv.Itoa(sleeper.Process.Pid)).CombinedOutput(); err != nil {
		t.Skipf("gcore cannot attach here: %v\n%s", err, out)
	}
	t.Setenv(CoreEnv, prefix+"."+strconv.Itoa(sleeper.Process.Pid))
	pages, err := Load(Coredump, testPages)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 || pages[0] == (Page{}) && pages[len(pages)-1] == (Page{}) {
		t.Errorf("core file: %d pages, first and last zero", len(pages))
	}
}

// writeCore writes an ELF64 core file of size bytes whose PT_LOAD segments
// are progs ({offset, size} pairs); the bytes after the headers are 0xAA.
func writeCore(t *testing.T, size int, progs ...[2]uint64) string {
	t.Helper()
	var b bytes.Buffer
	hdr := elf.Header64{
		Ident:     [elf.EI_NIDENT]byte{0x7f, 'E', 'L', 'F', byte(elf.ELFCLASS64), byte(elf.ELFDATA2LSB), byte(elf.EV_CURRENT)},
		Type:      uint16(elf.ET_CORE),
		Machine:   uint16(elf.EM_X86_64),
		Version:   uint32(elf.EV_CURRENT),
		Phoff:     64,
		Ehsize:    64,
		Phentsize: 56,
		Phnum:     uint16(len(progs)),
	}
	must(t, binary.Write(&b, binary.LittleEndian, hdr))
	for _, p := range progs {
		must(t, binary.Write(&b, binary.LittleEndian, elf.Prog64{
			Type: uint32(elf.PT_LOAD), Off: p[0], Filesz: p[1], Memsz: p[1],
		}))
	}
	data := append(b.Bytes(), bytes.Repeat([]byte{0xAA}, size-b.Len())...)
	path := filepath.Join(t.TempDir(), "core")
	must(t, os.WriteFile(path, data, 0o644))
	return path
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A core file's segment sizes are not trusted: sizes that overflow the
// total, or segments that run past the end of the file (a truncated core),
// are ErrNoSource, not a panic or pages of zeros.
func TestCoreFileBadSegments(t *testing.T) {
	for name, progs := range map[string][][2]uint64{
		"one of 2^63-1":    {{4096, 1<<63 - 1}},
		"two of 2^62":      {{4096, 1 << 62}, {4096, 1 << 62}},
		"offset past end":  {{1 << 40, 4096}},
		"truncated 1 MiB":  {{4096, 1 << 20}},
		"second truncated": {{4096, 4096}, {4096, 4097}},
	} {
		t.Setenv(CoreEnv, writeCore(t, 8192, progs...))
		pages, err := Load(Coredump, testPages)
		if !errors.Is(err, ErrNoSource) {
			t.Errorf("%s: %d pages, err %v, want ErrNoSource", name, len(pages), err)
		}
	}
}

// A valid core gives its segments' bytes, the final partial page padded
// with zeros.
func TestCoreFileSegments(t *testing.T) {
	t.Setenv(CoreEnv, writeCore(t, 8192+100, [2]uint64{4096, 4096}, [2]uint64{8192, 100}))
	pages, err := Load(Coredump, testPages)
	if err != nil {
		t.Fatal(err)
	}
	var want [2]Page
	copy(want[0][:], bytes.Repeat([]byte{0xAA}, PageSize))
	copy(want[1][:], bytes.Repeat([]byte{0xAA}, 100))
	if len(pages) != 2 || pages[0] != want[0] || pages[1] != want[1] {
		t.Errorf("got %d pages, want the two segments with the last page padded", len(pages))
	}
}

// sample checks the segments it is given, whatever lists them.
func TestSampleBadSegments(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	must(t, os.WriteFile(file, bytes.Repeat([]byte{1}, 5000), 0o644))
	for name, segs := range map[string][]segment{
		"overflow":      {{path: file, size: 1 << 62}, {path: file, size: 1 << 62}},
		"negative size": {{path: file, size: -1}},
		// The file holds 5000 bytes, the segment claims 3 pages.
		"past end": {{path: file, size: 3 * PageSize}},
		// A missing file is an error, not a page silently left out.
		"one missing": {{path: file, size: 5000}, {path: filepath.Join(dir, "missing"), size: PageSize}},
	} {
		pages, err := sample(segs, 4)
		if !errors.Is(err, ErrNoSource) {
			t.Errorf("%s: %d pages, err %v, want ErrNoSource", name, len(pages), err)
		}
	}
	// A file whose content ends within a page gives that page padded.
	pages, err := sample([]segment{{path: file, size: 5000}}, 4)
	if err != nil || len(pages) != 2 || pages[1][5000-PageSize-1] != 1 || pages[1][5000-PageSize] != 0 {
		t.Errorf("5000-byte file: %d pages, err %v, want 2, the second padded", len(pages), err)
	}
}
