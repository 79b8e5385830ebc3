// Package trace relates the rules of the specification to the tests that
// check them. A rule is a level-3 heading "### ID: title" in a spec/*.md
// file, its ID a PREFIX-N token. A Go test cites a rule by writing its ID
// in a _test.go file (usually "// Checks PAGE-3."); a range written
// "PARSE-2 to PARSE-7" cites every ID in it. A Gherkin scenario cites a rule
// with a tag (@PAGE-3), its feature's tags included.
//
// Only IDs of a prefix that some rule has count as citations anywhere in a
// test file, so that words such as UTF-8 or SHA-256 are no citations. In a
// "Checks" clause (the word Checks, capitalised, and the list of IDs right
// after it, joined by commas, "and", "to" or "through") every PREFIX-N token
// is taken as meant to cite a rule, so one with a prefix no rule has is a
// problem. A range whose end is below its start, or that spans more than
// MaxRange IDs, is a problem too; it cites its two ends only.
//
// A citation counts as checking a rule only inside a Test, Fuzz, Example or Benchmark
// function that has a body (its doc comment included) or as a scenario's
// tag: an ID in a helper, a benchmark or a file-level comment is checked
// for a defined ID but checks nothing. A counted citation never runs in CI,
// which has no GPU, when its test needs one: a file named *_gpu_test.go or
// gpu_*.go, a test that calls gputest.Require or a helper named so
// (requireGPU, needGPU, skipWithoutGPU and the like), or a scenario tagged
// @gpu. Rules checked
// only so are reported apart (DeviceOnly), each with the newest run under
// results/ whose logs show one of its tests or scenarios passing.
package trace

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Rule is one rule of the specification.
type Rule struct {
	ID    string
	Title string
	File  string // slash-separated, relative to the module root
	Line  int
}

// Citation is one place that cites a rule.
type Citation struct {
	ID   string
	File string // slash-separated, relative to the module root
	Line int
	// Name is the scenario's name for a tag, the enclosing function's name
	// for a Go citation inside or right above a function, else empty.
	Name     string
	Scenario bool
	// Quarantined marks a scenario tagged QuarantineTag: it states the rule
	// but does not run by default, so it does not count as checking it.
	Quarantined bool
	// InTest marks a citation that counts: a scenario's tag, or an ID in a
	// Test, Fuzz, Example or Benchmark function with a body, or in its doc comment.
	InTest bool
	// DeviceOnly marks a counted citation whose test or scenario needs a
	// GPU, so that CI never runs it (see the package comment).
	DeviceOnly bool
}

// GPUTag marks scenarios that run only on a GPU.
const GPUTag = "@gpu"

// QuarantineTag marks scenarios that state a rule the code does not meet yet.
const QuarantineTag = "@known-defect"

// Where is the citation's place as "file:line".
func (c Citation) Where() string { return fmt.Sprintf("%s:%d", c.File, c.Line) }

// Scenario is a scenario (or scenario outline) of a feature file.
type Scenario struct {
	Name string
	Line int
	Tags []string // with the leading @, the feature's tags included
}

// Matrix is the traceability of a module: its rules and what cites them.
type Matrix struct {
	Rules     []Rule
	Citations []Citation
	prefixes  map[string]bool
	rootName  string // the last element of the module path, for the root package
	// scanProbs are the problems found while reading the test files: a
	// Checks clause naming an unknown prefix, a reversed or oversized range.
	scanProbs []scanProblem
	// passed maps the name of each test, subtest and scenario (as go test
	// -v prints it after "--- PASS: ") to the newest run under results/
	// whose logs show it passing.
	passed map[string]deviceRun
}

// deviceRun is a folder of results/ and when it ran: its date, and the
// time its README's first line gives (the notebook entry's), if any.
type deviceRun struct{ name, when string }

// scanProblem is a Problem with its place kept apart, for sorting.
type scanProblem struct {
	file string
	line int
	msg  string
}

// MaxRange is the most IDs a range "A-n to A-m" may span (m-n+1).
const MaxRange = 101

// Problem is one reason the matrix is incomplete.
type Problem struct {
	Where string
	Msg   string
}

func (p Problem) String() string { return p.Where + ": " + p.Msg }

var (
	headingRE = regexp.MustCompile(`^###\s+([A-Z][A-Z0-9]*)-([0-9]+):\s*(.*?)\s*$`)
	tagIDRE   = regexp.MustCompile(`^@([A-Z][A-Z0-9]*)-([0-9]+)$`)
)

// Scan reads the spec files under root/spec and every _test.go and
// .feature file of the module at root. Directories named testdata or
// vendor, or starting with "." or "_", and the build folder are skipped,
// as the go command skips them.
func Scan(root string) (*Matrix, error) {
	return ScanFS(os.DirFS(root))
}

// ScanFS is Scan on a file system rooted at the module root.
func ScanFS(fsys fs.FS) (*Matrix, error) {
	m := &Matrix{prefixes: map[string]bool{}, rootName: ".", passed: map[string]deviceRun{}}
	if mod, err := fs.ReadFile(fsys, "go.mod"); err == nil {
		for _, line := range lines(mod) {
			if name, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
				m.rootName = path.Base(strings.Trim(strings.TrimSpace(name), `"`))
				break
			}
		}
	}
	specs, err := fs.Glob(fsys, "spec/*.md")
	if err != nil {
		return nil, err
	}
	for _, name := range specs {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		m.Rules = append(m.Rules, ParseSpec(name, data)...)
	}
	for _, r := range m.Rules {
		m.prefixes[prefixOf(r.ID)] = true
	}
	citeRE := m.citationRE()
	err = fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			base := d.Name()
			if name == "results" {
				return m.readRuns(fsys, name)
			}
			if name != "." && (base == "testdata" || base == "vendor" || base == "build" ||
				strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
				return fs.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(name, "_test.go"):
			data, err := fs.ReadFile(fsys, name)
			if err != nil {
				return err
			}
			cites, probs := goCitations(name, data, citeRE, m.prefixes)
			m.Citations = append(m.Citations, cites...)
			m.scanProbs = append(m.scanProbs, probs...)
		case strings.HasSuffix(name, ".feature"):
			data, err := fs.ReadFile(fsys, name)
			if err != nil {
				return err
			}
			for _, sc := range ParseFeature(data) {
				for _, tag := range sc.Tags {
					if tagIDRE.MatchString(tag) {
						m.Citations = append(m.Citations, Citation{
							ID: tag[1:], File: name, Line: sc.Line, Name: sc.Name, Scenario: true,
							Quarantined: slices.Contains(sc.Tags, QuarantineTag),
							InTest:      true, DeviceOnly: slices.Contains(sc.Tags, GPUTag),
						})
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(m.Citations, func(i, j int) bool {
		a, b := m.Citations[i], m.Citations[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	sort.SliceStable(m.scanProbs, func(i, j int) bool {
		a, b := m.scanProbs[i], m.scanProbs[j]
		if a.file != b.file {
			return a.file < b.file
		}
		return a.line < b.line
	})
	return m, nil
}

// ParseSpec returns the rules of one spec file.
func ParseSpec(name string, data []byte) []Rule {
	var rules []Rule
	inFence := false
	for i, line := range lines(data) {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if g := headingRE.FindStringSubmatch(line); g != nil {
			rules = append(rules, Rule{ID: g[1] + "-" + g[2], Title: g[3], File: name, Line: i + 1})
		}
	}
	return rules
}

// ParseFeature returns the scenarios of a Gherkin feature file with their
// tags, the feature's (and a Rule's) tags included; the tags of an outline's
// Examples are added to the outline.
func ParseFeature(data []byte) []Scenario {
	var (
		scenarios   []Scenario
		pending     []string
		featureTags []string
		ruleTags    []string
		current     = -1
		inDocString string
	)
	for i, raw := range lines(data) {
		line := strings.TrimSpace(raw)
		if inDocString != "" {
			if strings.HasPrefix(line, inDocString) {
				inDocString = ""
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, `"""`), strings.HasPrefix(line, "```"):
			inDocString = line[:3]
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "@"):
			for _, f := range strings.Fields(line) {
				if strings.HasPrefix(f, "#") {
					break
				}
				pending = append(pending, f)
			}
		case keyword(line, "Feature"):
			featureTags, pending = pending, nil
		case keyword(line, "Rule"):
			ruleTags, pending = pending, nil
		case keyword(line, "Scenario Outline"), keyword(line, "Scenario Template"),
			keyword(line, "Scenario"), keyword(line, "Example"):
			name := strings.TrimSpace(line[strings.Index(line, ":")+1:])
			tags := slices.Concat(featureTags, ruleTags, pending)
			scenarios = append(scenarios, Scenario{Name: name, Line: i + 1, Tags: tags})
			current, pending = len(scenarios)-1, nil
		case keyword(line, "Examples"), keyword(line, "Scenarios"):
			if current >= 0 {
				for _, t := range pending {
					if !slices.Contains(scenarios[current].Tags, t) {
						scenarios[current].Tags = append(scenarios[current].Tags, t)
					}
				}
			}
			pending = nil
		case keyword(line, "Background"):
			pending = nil
		}
	}
	return scenarios
}

// keyword reports whether a trimmed Gherkin line starts with kw and a colon.
func keyword(line, kw string) bool {
	rest, ok := strings.CutPrefix(line, kw)
	return ok && strings.HasPrefix(strings.TrimLeft(rest, " "), ":")
}

// citationRE matches an ID of a known prefix, or a range of two of them.
func (m *Matrix) citationRE() *regexp.Regexp {
	var ps []string
	for p := range m.prefixes {
		ps = append(ps, regexp.QuoteMeta(p))
	}
	sort.Sort(sort.Reverse(sort.StringSlice(ps))) // longest alternatives first among shared starts
	if len(ps) == 0 {
		return nil
	}
	alt := "(?:" + strings.Join(ps, "|") + ")"
	return regexp.MustCompile(`\b(` + alt + `)-([0-9]+)\b(?:\s+(?:to|through)\s+(` + alt + `)-([0-9]+)\b)?`)
}

var (
	// anyIDRE is any PREFIX-N token, of a known prefix or not.
	anyIDRE = regexp.MustCompile(`\b([A-Z][A-Z0-9]*)-[0-9]+\b`)
	// checksRE is a Checks clause: the word and the list of IDs after it.
	checksRE = regexp.MustCompile(`\bChecks\s+` + listID + `(?:(?:\s*,\s*(?:and\s+)?|\s+(?:and|to|through)\s+)` + listID + `)*`)
)

const listID = `[A-Z][A-Z0-9]*-[0-9]+\b`

// goCitations finds the IDs that a Go test file cites, naming each by the
// function it documents or sits in, and the problems of its citations: a
// Checks clause naming a prefix that no rule has, a range reversed or
// longer than MaxRange.
func goCitations(name string, data []byte, re *regexp.Regexp, prefixes map[string]bool) ([]Citation, []scanProblem) {
	var (
		cites []Citation
		probs []scanProblem
		funcs []funcSpan
	)
	if re != nil {
		funcs = funcSpans(name, data)
	}
	fileOnDevice := deviceOnlyFile(name)
	for i, line := range lines(data) {
		for _, clause := range checksRE.FindAllString(line, -1) {
			for _, g := range anyIDRE.FindAllStringSubmatch(clause, -1) {
				if !prefixes[g[1]] {
					probs = append(probs, scanProblem{name, i + 1,
						fmt.Sprintf("%s is cited in a Checks clause but no spec file defines a rule with the prefix %s", g[0], g[1])})
				}
			}
		}
		if re == nil {
			continue
		}
		for _, g := range re.FindAllStringSubmatch(line, -1) {
			f := enclosing(funcs, i+1)
			c := Citation{File: name, Line: i + 1, Name: f.name, InTest: f.test, DeviceOnly: f.test && (fileOnDevice || f.gpu || strings.HasPrefix(f.name, "Benchmark"))}
			first, last := g[1]+"-"+g[2], g[3]+"-"+g[4]
			lo, errLo := strconv.Atoi(g[2])
			if errLo == nil {
				first = g[1] + "-" + strconv.Itoa(lo)
			}
			if g[3] == "" || g[3] != g[1] { // one ID, or "A-1 to B-2", which cites both ends
				c.ID = first
				cites = append(cites, c)
				if g[3] != "" {
					if n, err := strconv.Atoi(g[4]); err == nil {
						last = g[3] + "-" + strconv.Itoa(n)
					}
					c.ID = last
					cites = append(cites, c)
				}
				continue
			}
			hi, errHi := strconv.Atoi(g[4])
			if errHi == nil {
				last = g[3] + "-" + strconv.Itoa(hi)
			}
			switch {
			case errLo != nil || errHi != nil || hi-lo >= MaxRange:
				probs = append(probs, scanProblem{name, i + 1,
					fmt.Sprintf("the range %s spans more than %d IDs; it cites only its ends", g[0], MaxRange)})
			case hi < lo:
				probs = append(probs, scanProblem{name, i + 1,
					fmt.Sprintf("the range %s is reversed; it cites only its ends", g[0])})
			default:
				for n := lo; n <= hi; n++ {
					c.ID = g[1] + "-" + strconv.Itoa(n)
					cites = append(cites, c)
				}
				continue
			}
			for _, id := range []string{first, last} {
				c.ID = id
				cites = append(cites, c)
			}
		}
	}
	return cites, probs
}

type funcSpan struct {
	name     string
	from, to int  // lines, the doc comment included
	test     bool // a Test, Fuzz, Example or Benchmark function with a body
	gpu      bool // it calls gputest.Require or a GPU-requirement helper
}

var (
	// testNameRE is the name of a function that go test runs. Benchmarks
	// check the rules that set measured targets; CI runs none of them, so
	// their citations count as checked elsewhere, as a GPU test's do.
	testNameRE = regexp.MustCompile(`^(Test|Fuzz|Example|Benchmark)([^a-z]|$)`)
	// gpuHelperRE is the name of a helper that skips a test without a GPU.
	gpuHelperRE = regexp.MustCompile(`(?i)^(require|need|must)_?gpu|^skip_?(if_?)?(without|no)_?gpu`)
)

// deviceOnlyFile reports whether a file's name says that its tests need a
// GPU.
func deviceOnlyFile(name string) bool {
	base := path.Base(name)
	return strings.HasSuffix(base, "_gpu_test.go") || strings.HasPrefix(base, "gpu_")
}

func funcSpans(name string, data []byte) []funcSpan {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, data, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var spans []funcSpan
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		from := fd.Pos()
		if fd.Doc != nil {
			from = fd.Doc.Pos()
		}
		span := funcSpan{name: fd.Name.Name, from: fset.Position(from).Line, to: fset.Position(fd.End()).Line}
		span.test = fd.Recv == nil && testNameRE.MatchString(fd.Name.Name) && fd.Body != nil && len(fd.Body.List) > 0
		if fd.Body != nil {
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					switch f := call.Fun.(type) {
					case *ast.Ident:
						span.gpu = span.gpu || gpuHelperRE.MatchString(f.Name)
					case *ast.SelectorExpr:
						pkg, _ := f.X.(*ast.Ident)
						span.gpu = span.gpu || gpuHelperRE.MatchString(f.Sel.Name) ||
							pkg != nil && pkg.Name == "gputest" && f.Sel.Name == "Require"
					}
				}
				return !span.gpu
			})
		}
		spans = append(spans, span)
	}
	return spans
}

func enclosing(spans []funcSpan, line int) funcSpan {
	for _, s := range spans {
		if line >= s.from && line <= s.to {
			return s
		}
	}
	return funcSpan{}
}

// passRE is a line of go test -v saying a test, subtest or scenario passed.
var passRE = regexp.MustCompile(`--- PASS: (\S+)`)

// runTimeRE is the first time of day in a run's README, as HH:MM.
var runTimeRE = regexp.MustCompile(`\b([0-2][0-9]:[0-5][0-9])\b`)

// readRuns notes, for every test that the logs under dir (results/) show
// passing, the newest run (results/<date>-...) that shows it.
func (m *Matrix) readRuns(fsys fs.FS, dir string) error {
	runs := map[string]deviceRun{}
	err := fs.WalkDir(fsys, dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(name, ".log") || strings.HasSuffix(name, ".txt")) {
			return err
		}
		folder := strings.Split(name, "/")[1]
		run, ok := runs[folder]
		if !ok {
			run = deviceRun{name: folder, when: folder[:min(10, len(folder))]}
			if readme, err := fs.ReadFile(fsys, path.Join(dir, folder, "README.md")); err == nil {
				first, _, _ := strings.Cut(string(readme), "\n")
				run.when += " " + runTimeRE.FindString(first)
			}
			runs[folder] = run
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil || !bytes.Contains(data, []byte("--- PASS: ")) {
			return err
		}
		for _, g := range passRE.FindAllSubmatch(data, -1) {
			test := string(g[1])
			if old := m.passed[test]; old.when < run.when || old.when == run.when && old.name < run.name {
				m.passed[test] = run
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return fs.SkipDir
}

func lines(data []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

func prefixOf(id string) string { return id[:strings.LastIndexByte(id, '-')] }

// CitedBy returns the citations of one rule.
func (m *Matrix) CitedBy(id string) []Citation {
	var out []Citation
	for _, c := range m.Citations {
		if c.ID == id {
			out = append(out, c)
		}
	}
	return out
}

// Problems lists the rules defined twice, the rules nothing cites (a
// quarantined scenario does not count), the citations of IDs that no rule
// defines, then the mistakes in the test files' citations: an ID of a
// prefix no rule has in a Checks clause, a reversed range, a range of more
// than MaxRange IDs.
func (m *Matrix) Problems() []Problem {
	var probs []Problem
	defined := map[string]Rule{}
	for _, r := range m.Rules {
		if first, dup := defined[r.ID]; dup {
			probs = append(probs, Problem{fmt.Sprintf("%s:%d", r.File, r.Line),
				fmt.Sprintf("%s is also defined at %s:%d", r.ID, first.File, first.Line)})
			continue
		}
		defined[r.ID] = r
	}
	cited := m.checked()
	quarantined, outside := map[string]bool{}, map[string]string{}
	for _, c := range m.Citations {
		quarantined[c.ID] = quarantined[c.ID] || c.Quarantined
		if !c.InTest && outside[c.ID] == "" {
			outside[c.ID] = c.Where()
		}
	}
	for _, r := range m.Rules {
		switch {
		case cited[r.ID]:
		case outside[r.ID] != "":
			probs = append(probs, Problem{fmt.Sprintf("%s:%d", r.File, r.Line),
				fmt.Sprintf("%s (%s) is cited only outside Test, Fuzz, Example and Benchmark functions (%s), which checks nothing", r.ID, r.Title, outside[r.ID])})
		case quarantined[r.ID]:
			probs = append(probs, Problem{fmt.Sprintf("%s:%d", r.File, r.Line),
				fmt.Sprintf("%s (%s) is cited only by scenarios tagged %s", r.ID, r.Title, QuarantineTag)})
		default:
			probs = append(probs, Problem{fmt.Sprintf("%s:%d", r.File, r.Line),
				fmt.Sprintf("%s (%s) is cited by no test and no scenario", r.ID, r.Title)})
		}
	}
	for _, c := range m.Citations {
		if _, ok := defined[c.ID]; !ok {
			probs = append(probs, Problem{c.Where(), fmt.Sprintf("%s is cited but no spec file defines it", c.ID)})
		}
	}
	for _, p := range m.scanProbs {
		probs = append(probs, Problem{fmt.Sprintf("%s:%d", p.file, p.line), p.msg})
	}
	return probs
}

// checked returns the IDs cited by a test or a scenario that runs.
func (m *Matrix) checked() map[string]bool {
	seen := map[string]bool{}
	for _, c := range m.Citations {
		if c.InTest && !c.Quarantined {
			seen[c.ID] = true
		}
	}
	return seen
}

// DeviceRule is a rule that only tests or scenarios needing a GPU check.
type DeviceRule struct {
	Rule
	CheckedBy []string // the tests (package.Name) and scenarios citing it
	// LastRun is the newest folder under results/ whose logs show one of
	// them passing, "" when none does.
	LastRun string
	last    deviceRun
}

// DeviceOnly lists the rules that CI never checks: every counted citation
// of them needs a GPU.
func (m *Matrix) DeviceOnly() []DeviceRule {
	var out []DeviceRule
	for _, r := range m.Rules {
		d := DeviceRule{Rule: r}
		onDevice, inCI := false, false
		for _, c := range m.CitedBy(r.ID) {
			if !c.InTest || c.Quarantined {
				continue
			}
			if !c.DeviceOnly {
				inCI = true
				break
			}
			onDevice = true
			d.CheckedBy = appendUnique(d.CheckedBy, m.citer(c))
			if run := m.passed[m.logName(c)]; run.when > d.last.when {
				d.last, d.LastRun = run, run.name
			}
		}
		if onDevice && !inCI && !slices.ContainsFunc(out, func(o DeviceRule) bool { return o.ID == r.ID }) {
			out = append(out, d)
		}
	}
	return out
}

// logName is the name go test -v gives a citation's test in "--- PASS: ":
// the function's, or for a scenario the features' test and the scenario's
// name with spaces as underscores.
func (m *Matrix) logName(c Citation) string {
	if c.Scenario {
		return "TestFeatures/" + strings.ReplaceAll(c.Name, " ", "_")
	}
	return c.Name
}

// citer names a citation's test as package.Name, or its scenario.
func (m *Matrix) citer(c Citation) string {
	if c.Scenario {
		return fmt.Sprintf("%s (%s)", c.Name, path.Base(c.File))
	}
	dir := path.Dir(c.File)
	if dir == "." {
		dir = m.rootName
	}
	return dir + "." + c.Name
}

// Coverage returns how many rules are cited (quarantined scenarios aside)
// and how many there are.
func (m *Matrix) Coverage() (cited, total int) {
	seen := m.checked()
	ids := map[string]bool{}
	for _, r := range m.Rules {
		if !ids[r.ID] {
			ids[r.ID] = true
			if seen[r.ID] {
				cited++
			}
		}
	}
	return cited, len(ids)
}

// Table renders the matrix as a Markdown table: each rule with its title,
// the scenarios that check it and the tests that cite it.
func (m *Matrix) Table() string {
	var b strings.Builder
	b.WriteString("| rule | title | scenarios | tests |\n| --- | --- | --- | --- |\n")
	for _, r := range m.Rules {
		var scen, tests []string
		for _, c := range m.CitedBy(r.ID) {
			if !c.InTest {
				continue
			}
			name := m.citer(c)
			if c.Quarantined {
				name += " " + QuarantineTag
			}
			if c.DeviceOnly {
				name += " (GPU)"
			}
			if c.Scenario {
				scen = appendUnique(scen, name)
			} else {
				tests = appendUnique(tests, name)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.ID, escapeCell(r.Title),
			cell(scen), cell(tests))
	}
	cited, total := m.Coverage()
	fmt.Fprintf(&b, "\n%d of %d rules cited", cited, total)
	if total > 0 {
		fmt.Fprintf(&b, " (%.0f%%)", 100*float64(cited)/float64(total))
	}
	device := m.DeviceOnly()
	fmt.Fprintf(&b, "; %d of them only by tests that need a GPU, which CI never runs\n", len(device))
	if len(device) > 0 {
		b.WriteString("\n| rule checked only on a GPU | title | checked by | last device run that passed one of them |\n| --- | --- | --- | --- |\n")
		for _, d := range device {
			run := "**none recorded**"
			if d.LastRun != "" {
				run = "results/" + d.LastRun
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", d.ID, escapeCell(d.Title), cell(d.CheckedBy), run)
		}
	}
	return b.String()
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

func cell(items []string) string {
	if len(items) == 0 {
		return "**none**"
	}
	for i := range items {
		items[i] = escapeCell(items[i])
	}
	return strings.Join(items, "<br>")
}

func escapeCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// ModuleRoot returns the directory holding go.mod, looking up from dir.
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("trace: no go.mod above %s", dir)
		}
		dir = parent
	}
}
