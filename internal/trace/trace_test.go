package trace

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestSpecTraceability fails when a rule of spec/*.md is cited by no test
// and no scenario, when a test or a scenario cites an ID that no spec file
// defines, or when an ID is defined twice. `make trace` prints the matrix.
func TestSpecTraceability(t *testing.T) {
	root, err := ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Rules) == 0 {
		t.Fatalf("no rules found under %s/spec", root)
	}
	for _, p := range m.Problems() {
		t.Error(p)
	}
	cited, total := m.Coverage()
	t.Logf("%d of %d rules cited by %d citations", cited, total, len(m.Citations))
}

func scanFixture(t *testing.T) *Matrix {
	t.Helper()
	m, err := ScanFS(os.DirFS("testdata/module"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParseSpecFixture(t *testing.T) {
	m := scanFixture(t)
	var ids []string
	for _, r := range m.Rules {
		ids = append(ids, r.ID)
	}
	want := []string{"ALPHA-1", "ALPHA-2", "ALPHA-3", "ALPHA-4", "ALPHA-5", "BETA-1", "BETA-2", "BETA-1", "BETA-3",
		"DEV-1", "DEV-2", "DEV-3", "DEV-4", "DEV-5", "DEV-6"}
	if !slices.Equal(ids, want) {
		t.Errorf("rules = %v, want %v (a heading inside a code fence is not a rule)", ids, want)
	}
	if r := m.Rules[1]; r.Title != "Second | with a bar" || r.File != "spec/alpha.md" || r.Line != 10 {
		t.Errorf("rule 2 = %+v", r)
	}
}

func TestCitationsFixture(t *testing.T) {
	m := scanFixture(t)
	got := map[string][]string{}
	for _, c := range m.Citations {
		got[c.ID] = append(got[c.ID], c.Where()+" "+c.Name)
	}
	want := map[string][]string{
		"ALPHA-1": {"pkg/x_test.go:5 TestRange"},
		"ALPHA-2": {"pkg/x_test.go:5 TestRange"},
		"ALPHA-3": {"pkg/x_test.go:5 TestRange"},
		"ALPHA-4": {"pkg/x_test.go:13 "},
		"ALPHA-5": {"pkg/x_test.go:16 TestEmpty"},
		"ALPHA-7": {"pkg/x_test.go:9 TestInside"},
		"BETA-1":  {"features/f.feature:8 Tagged scenario"},
		"BETA-2":  {"root_test.go:5 TestRoot"},
		"BETA-3":  {"features/f.feature:28 Quarantined"},
		"DELTA-5": {"features/f.feature:12 Outline with tagged examples"},
		"DEV-1":   {"pkg/dev_gpu_test.go:5 TestOnDevice"},
		"DEV-2":   {"pkg/x_test.go:22 TestNeedsGPU"},
		"DEV-3":   {"pkg/gpu_kernel_test.go:5 TestKernel"},
		"DEV-4":   {"features/f.feature:32 On the GPU"},
		"DEV-5":   {"pkg/dev_gpu_test.go:5 TestOnDevice", "pkg/x_test.go:19 helper", "pkg/x_test.go:29 TestDev5"},
		"DEV-6":   {"pkg/x_test.go:32 TestRequiresThroughGputest"},
	}
	if len(got) != len(want) {
		t.Errorf("cited IDs = %v, want %v", got, want)
	}
	for id, w := range want {
		if !slices.Equal(got[id], w) {
			t.Errorf("%s cited at %q, want %q", id, got[id], w)
		}
	}
}

func TestProblemsFixture(t *testing.T) {
	m := scanFixture(t)
	var got []string
	for _, p := range m.Problems() {
		got = append(got, p.String())
	}
	want := []string{
		"spec/beta.md:3: BETA-1 is also defined at spec/beta.md:1",
		"spec/alpha.md:12: ALPHA-4 (Fourth) is cited only outside Test, Fuzz, Example and Benchmark functions (pkg/x_test.go:13), which checks nothing",
		"spec/alpha.md:13: ALPHA-5 (Fifth) is cited only outside Test, Fuzz, Example and Benchmark functions (pkg/x_test.go:16), which checks nothing",
		"spec/beta.md:4: BETA-3 (Cited only by a quarantined scenario) is cited only by scenarios tagged @known-defect",
		"features/f.feature:12: DELTA-5 is cited but no spec file defines it",
		"pkg/x_test.go:9: ALPHA-7 is cited but no spec file defines it",
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if cited, total := m.Coverage(); cited != 11 || total != 14 {
		t.Errorf("coverage %d/%d, want 11/14", cited, total)
	}
}

func TestParseFeatureTags(t *testing.T) {
	data, err := os.ReadFile("testdata/module/features/f.feature")
	if err != nil {
		t.Fatal(err)
	}
	sc := ParseFeature(data)
	if len(sc) != 5 {
		t.Fatalf("got %d scenarios, want 5: %+v", len(sc), sc)
	}
	if want := []string{"@feature-tag", "@BETA-1", "@slow"}; !slices.Equal(sc[0].Tags, want) {
		t.Errorf("tags of %q = %v, want %v", sc[0].Name, sc[0].Tags, want)
	}
	if want := []string{"@feature-tag", "@DELTA-5"}; !slices.Equal(sc[1].Tags, want) {
		t.Errorf("tags of %q = %v, want %v", sc[1].Name, sc[1].Tags, want)
	}
	if want := []string{"@feature-tag"}; !slices.Equal(sc[2].Tags, want) {
		t.Errorf("a docstring's lines are no tags nor scenarios: %v", sc[2].Tags)
	}
}

func TestTable(t *testing.T) {
	table := scanFixture(t).Table()
	for _, want := range []string{
		"| rule | title | scenarios | tests |",
		"| ALPHA-1 | First | **none** | pkg.TestRange |",
		`| ALPHA-2 | Second \| with a bar | **none** | pkg.TestRange |`,
		"| ALPHA-4 | Fourth | **none** | **none** |",
		"| DEV-2 | In a test that needs a GPU | **none** | pkg.TestNeedsGPU (GPU) |",
		"| DEV-5 | On a GPU and in CI | **none** | pkg.TestOnDevice (GPU)<br>pkg.TestDev5 |",
		"| BETA-1 | Cited by a feature tag | Tagged scenario (f.feature) | **none** |",
		"| BETA-2 | Cited by nothing but the root package | **none** | fixture.TestRoot |",
		"| BETA-3 | Cited only by a quarantined scenario | Quarantined (f.feature) @known-defect | **none** |",
		"11 of 14 rules cited (79%); 5 of them only by tests that need a GPU, which CI never runs",
		"| DEV-1 | In a _gpu_test.go file | pkg.TestOnDevice | results/2026-11-27-h100-late |",
		"| DEV-3 | In a gpu_*.go file | pkg.TestKernel | results/2026-11-26-h100-old |",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}

// TestDeviceOnlyFixture: the rules whose counted citations all need a GPU,
// each with the newest run under results/ that shows one of them passing
// (by the README's time where two runs share a date; a FAIL is no check).
func TestDeviceOnlyFixture(t *testing.T) {
	var got []string
	for _, d := range scanFixture(t).DeviceOnly() {
		got = append(got, fmt.Sprintf("%s %v %q", d.ID, d.CheckedBy, d.LastRun))
	}
	want := []string{
		`DEV-1 [pkg.TestOnDevice] "2026-11-27-h100-late"`,
		`DEV-2 [pkg.TestNeedsGPU] "2026-11-27-h100-early"`,
		`DEV-3 [pkg.TestKernel] "2026-11-26-h100-old"`,
		`DEV-4 [On the GPU (f.feature)] "2026-11-27-h100-early"`,
		`DEV-6 [pkg.TestRequiresThroughGputest] ""`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("device-only rules:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// scanTest scans a module of one spec file defining ZETA~1 to ZETA~4 and
// one test file holding test inside a test function.
func scanTest(t *testing.T, test string) *Matrix {
	t.Helper()
	fsys := fstest.MapFS{
		"go.mod":       {Data: []byte("module example.com/m\n")},
		"spec/zeta.md": {Data: []byte(dash("### ZETA~1: a\n### ZETA~2: b\n### ZETA~3: c\n### ZETA~4: d\n"))},
		"a/a_test.go":  {Data: []byte("package a\n\nfunc TestZ(t *testing.T) {\n" + dash(test) + "\tt.Log()\n}\n")},
	}
	m, err := ScanFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func dash(s string) string { return strings.ReplaceAll(s, "~", "-") }

func dashAll(list []string) []string {
	var out []string
	for _, s := range list {
		out = append(out, dash(s))
	}
	return out
}

func problemStrings(m *Matrix) []string {
	var got []string
	for _, p := range m.Problems() {
		got = append(got, p.String())
	}
	return got
}

// A mistyped citation in a Checks clause does not pass silently: an
// oversized range cites its undefined end, an unknown prefix and a reversed
// range are problems.
func TestCitationMistakes(t *testing.T) {
	for _, tc := range []struct {
		name, test string
		cited      []string
		want       []string
	}{
		{
			name:  "oversized range",
			test:  "// Checks ZETA~1 to ZETA~300.\n// Checks ZETA~2 to ZETA~4.\n",
			cited: []string{"ZETA~1", "ZETA~300", "ZETA~2", "ZETA~3", "ZETA~4"},
			want: []string{
				"a/a_test.go:4: ZETA~300 is cited but no spec file defines it",
				"a/a_test.go:4: the range ZETA~1 to ZETA~300 spans more than 101 IDs; it cites only its ends",
			},
		},
		{
			name:  "unknown prefix",
			test:  "// Checks ZEAT~2.\n// Checks ZETA~1, ZETA~3 and ZEAT~4: something.\n// Checks ZETA~2 to ZETA~4\n",
			cited: []string{"ZETA~1", "ZETA~3", "ZETA~2", "ZETA~3", "ZETA~4"},
			want: []string{
				"a/a_test.go:4: ZEAT~2 is cited in a Checks clause but no spec file defines a rule with the prefix ZEAT",
				"a/a_test.go:5: ZEAT~4 is cited in a Checks clause but no spec file defines a rule with the prefix ZEAT",
			},
		},
		{
			name:  "reversed range",
			test:  "// Checks ZETA~4 to ZETA~3.\n// Checks ZETA~1 through ZETA~2.\n",
			cited: []string{"ZETA~4", "ZETA~3", "ZETA~1", "ZETA~2"},
			want:  []string{"a/a_test.go:4: the range ZETA~4 to ZETA~3 is reversed; it cites only its ends"},
		},
		{
			// Outside a Checks clause, a token of an unknown prefix is no
			// citation, nor is one after Checks that is not a rule's ID.
			name: "prose is no citation",
			test: "// Checks ZETA~1, ZETA~2, ZETA~3, ZETA~4: UTF~8, SHA~256, x86~64, GB~s.\n" +
				"// Reads UTF~8 and checks SHA~256 sums. Checks that GB~2 is no rule.\n" +
				"var _ = \"RFC~1951\"\n",
			cited: []string{"ZETA~1", "ZETA~2", "ZETA~3", "ZETA~4"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := scanTest(t, tc.test)
			var cited []string
			for _, c := range m.Citations {
				cited = append(cited, c.ID)
			}
			if want := dashAll(tc.cited); !slices.Equal(cited, want) {
				t.Errorf("cited %v, want %v", cited, want)
			}
			if got, want := problemStrings(m), dashAll(tc.want); !slices.Equal(got, want) {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// The longest range allowed cites every ID in it.
func TestCitationLongRange(t *testing.T) {
	m := scanTest(t, "// Checks ZETA~1 to ZETA~101.\n")
	if n := len(m.Citations); n != MaxRange {
		t.Errorf("%d citations, want %d", n, MaxRange)
	}
	for _, p := range m.Problems() {
		if !strings.Contains(p.Msg, "is cited but no spec file defines it") {
			t.Errorf("unexpected problem %v", p)
		}
	}
}
