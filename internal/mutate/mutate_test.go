package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const sample = `package p

import "errors"

const limit = 10

var errBig = errors.New("big")

func check(n int) (int, error) {
	if n > limit && n != 0 {
		return 0, errBig
	}
	n++
	f := func() error { return errBig }
	_ = f
	return n - 1, nil
}
`

func TestMutants(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", sample, 0)
	if err != nil {
		t.Fatal(err)
	}
	ms := mutants(fset, f, []byte(sample))
	keys(fset, f, []byte(sample), ms)
	var got []string
	for _, m := range ms {
		got = append(got, m.key+" => "+string(apply([]byte(sample), m)[m.from:m.from+len(m.with)]))
	}
	want := []string{
		`(package): "const limit = 10": 10 -> 11 => (11)`,
		`(package): "const limit = 10": 10 -> 9 => (9)`,
		`check: "if n > limit && n != 0 {": delete if n > limit && n != 0 { => `,
		`check: "n++": delete n++ => `,
		`check: "_ = f": delete _ = f => `,
		`check: "return n - 1, nil": delete return n - 1, nil => `,
		`check: "if n > limit && n != 0 {": && -> || => ||`,
		`check: "if n > limit && n != 0 {": > -> >= => >=`,
		`check: "if n > limit && n != 0 {": != -> == => ==`,
		`check: "if n > limit && n != 0 {": 0 -> 1 => (1)`,
		`check: "if n > limit && n != 0 {": 0 -> -1 => (-1)`,
		`check: "return 0, errBig": delete return 0, errBig => `,
		`check: "return 0, errBig": error result errBig -> nil => nil`,
		`check: "return 0, errBig": 0 -> 1 => (1)`,
		`check: "return 0, errBig": 0 -> -1 => (-1)`,
		`check: "n++": ++ -> -- => --`,
		`check: "return n - 1, nil": - -> + => +`,
		`check: "return n - 1, nil": 1 -> 2 => (2)`,
		`check: "return n - 1, nil": 1 -> 0 => (0)`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("mutants:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The := statement, the function literal's return and the nil error
	// result are left alone.
	for _, g := range got {
		if strings.Contains(g, "f := ") || strings.Contains(g, "func() error") || strings.Contains(g, "nil -> nil") {
			t.Errorf("unexpected mutant %s", g)
		}
	}
}

func TestReadEquivalents(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "eq.txt")
	os.WriteFile(path, []byte("# comment\n\nx.go: f: \"a\": + -> - # a and -a are the same here\n"), 0o644)
	eq, err := readEquivalents(path)
	if err != nil || eq[`x.go: f: "a": + -> -`] != "a and -a are the same here" || len(eq) != 1 {
		t.Fatalf("%v, %v", eq, err)
	}
	os.WriteFile(path, []byte("x.go: f: \"a\": + -> -\n"), 0o644)
	if _, err := readEquivalents(path); err == nil {
		t.Error("an entry without a reason is accepted")
	}
	if eq, err := readEquivalents(filepath.Join(dir, "none.txt")); err != nil || len(eq) != 0 {
		t.Errorf("a missing file: %v, %v", eq, err)
	}
}

func TestPhases(t *testing.T) {
	out := []byte("=== RUN   TestA\n--- PASS: TestA (0.02s)\n--- PASS: TestSlow (2.50s)\n" +
		"    --- PASS: TestSlow/sub (2.40s)\n--- PASS: TestOne (1.00s)\nok  \tp\t3.6s\n")
	slow := slowTests(out)
	if !slices.Equal(slow, []string{"TestSlow", "TestOne"}) {
		t.Fatalf("slow tests %q, want TestSlow and TestOne (top-level, a second or more)", slow)
	}
	r := &runner{slow: map[string][]string{"p": slow}, tests: "Kernel"}
	got := r.phases("p")
	want := [][]string{{"-test.run", "Kernel", "-test.skip", "^(TestSlow|TestOne)$"}, {"-test.run", "^(TestSlow|TestOne)$"}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("phases %q, want %q", got, want)
	}
	if got := r.phases("q"); len(got) != 1 || !slices.Equal(got[0], []string{"-test.run", "Kernel"}) {
		t.Errorf("phases without slow tests %q, want one run of -test.run Kernel", got)
	}
}

func TestReadMutants(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.txt")
	os.WriteFile(path, []byte("survivor x.go: f: \"a\": + -> -\n\nx.go: g: \"b\": 1 -> 2\n"), 0o644)
	want, err := readMutants(path)
	if err != nil || len(want) != 2 || !want[`x.go: f: "a": + -> -`] || !want[`x.go: g: "b": 1 -> 2`] {
		t.Fatalf("%v, %v", want, err)
	}
}
