// Command mutate measures how many small faults the module's tests catch in
// one Go file: it makes mutants of the file (comparison flips, + and -
// swapped, integer constants ±1, statements deleted, error results replaced
// by nil, && and || swapped), compiles each with go's -overlay, so that the
// working tree is never touched, and runs the tests of every package of the
// module whose tests build on the file's package, the file's own package
// first, until one fails (killed) or all pass (survived). A mutant that does
// not compile is left out; one that makes a test run past its time limit is
// killed. Survivors listed in the equivalents file with a reason are not
// counted against the score. `make mutation` runs it over the files of
// mk/mutation.mk.
//
//	go run ./internal/mutate -file reference/block.go [-equivalent testdata/...]
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// mutant is one change to the file: the bytes [from, to) replaced by with.
type mutant struct {
	from, to int
	with     string
	line     int
	desc     string // what changed, e.g. "< -> <="
	key      string // the mutant's name apart from line numbers (see keys)
}

// id names a mutant in the report: file:line: desc.
func (m mutant) id(file string) string { return fmt.Sprintf("%s:%d: %s", file, m.line, m.desc) }

// keys names each mutant in a way that survives edits elsewhere in the
// file, for the equivalents file: the function, the line's text and the
// change, with "#n" for the n-th of equal names.
func keys(fset *token.FileSet, f *ast.File, src []byte, ms []mutant) {
	lines := strings.Split(string(src), "\n")
	funcAt := func(off int) string {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fset.Position(fd.Pos()).Offset <= off && off < fset.Position(fd.End()).Offset {
				if fd.Recv != nil && len(fd.Recv.List) > 0 {
					return types(fd.Recv.List[0].Type) + "." + fd.Name.Name
				}
				return fd.Name.Name
			}
		}
		return "(package)"
	}
	seen := map[string]int{}
	for i := range ms {
		m := &ms[i]
		k := fmt.Sprintf("%s: %q: %s", funcAt(m.from), strings.TrimSpace(lines[m.line-1]), m.desc)
		seen[k]++
		if seen[k] > 1 {
			k += fmt.Sprintf(" #%d", seen[k])
		}
		m.key = k
	}
}

// types names a receiver's type: T or *T.
func types(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return "*" + types(e.X)
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return types(e.X)
	}
	return "?"
}

var swaps = map[token.Token]token.Token{
	token.LSS: token.LEQ, token.LEQ: token.LSS, token.GTR: token.GEQ, token.GEQ: token.GTR,
	token.EQL: token.NEQ, token.NEQ: token.EQL,
	token.ADD: token.SUB, token.SUB: token.ADD,
	token.ADD_ASSIGN: token.SUB_ASSIGN, token.SUB_ASSIGN: token.ADD_ASSIGN,
	token.INC: token.DEC, token.DEC: token.INC,
	token.LAND: token.LOR, token.LOR: token.LAND,
}

// mutants lists the mutants of src: in function bodies, and in the values
// of package-level constants and variables.
func mutants(fset *token.FileSet, f *ast.File, src []byte) []mutant {
	var out []mutant
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	line := func(p token.Pos) int { return fset.Position(p).Line }
	op := func(pos token.Pos, tok token.Token) {
		if to, ok := swaps[tok]; ok {
			out = append(out, mutant{off(pos), off(pos) + len(tok.String()), to.String(), line(pos), tok.String() + " -> " + to.String(), ""})
		}
	}
	constant := func(n *ast.BasicLit) {
		if n.Kind != token.INT {
			return
		}
		if v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
			for _, d := range []int64{1, -1} {
				out = append(out, mutant{off(n.Pos()), off(n.End()), "(" + strconv.FormatInt(v+d, 10) + ")",
					line(n.Pos()), fmt.Sprintf("%s -> %d", n.Value, v+d), ""})
			}
		}
	}
	for _, decl := range f.Decls {
		if gd, ok := decl.(*ast.GenDecl); ok && (gd.Tok == token.CONST || gd.Tok == token.VAR) {
			for _, spec := range gd.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					ast.Inspect(v, func(n ast.Node) bool {
						switch n := n.(type) {
						case *ast.FuncLit:
							return false
						case *ast.BinaryExpr:
							op(n.OpPos, n.Op)
						case *ast.BasicLit:
							constant(n)
						}
						return true
					})
				}
			}
		}
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		errorLast := false
		if r := fd.Type.Results; r != nil && len(r.List) > 0 {
			if id, ok := r.List[len(r.List)-1].Type.(*ast.Ident); ok && id.Name == "error" {
				errorLast = true
			}
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false // its results are not fd's
			case *ast.BinaryExpr:
				op(n.OpPos, n.Op)
			case *ast.AssignStmt:
				op(n.TokPos, n.Tok)
			case *ast.IncDecStmt:
				op(n.TokPos, n.Tok)
			case *ast.BasicLit:
				constant(n)
			case *ast.ReturnStmt:
				if errorLast && len(n.Results) > 0 {
					last := n.Results[len(n.Results)-1]
					if id, ok := last.(*ast.Ident); !ok || id.Name != "nil" {
						out = append(out, mutant{off(last.Pos()), off(last.End()), "nil", line(last.Pos()),
							"error result " + string(src[off(last.Pos()):off(last.End())]) + " -> nil", ""})
					}
				}
			case *ast.BlockStmt:
				for _, s := range n.List {
					switch s.(type) {
					case *ast.ExprStmt, *ast.AssignStmt, *ast.IncDecStmt, *ast.BranchStmt, *ast.IfStmt, *ast.ReturnStmt:
						if a, ok := s.(*ast.AssignStmt); ok && a.Tok == token.DEFINE {
							continue // its variables would be undefined
						}
						text := string(src[off(s.Pos()):off(s.End())])
						first, _, _ := strings.Cut(text, "\n")
						if len(first) > 40 {
							first = first[:40] + "…"
						}
						out = append(out, mutant{off(s.Pos()), off(s.End()), "", line(s.Pos()), "delete " + first, ""})
					}
				}
			}
			return true
		})
	}
	return out
}

// apply gives src with m applied.
func apply(src []byte, m mutant) []byte {
	return slices.Concat(src[:m.from], []byte(m.with), src[m.to:])
}

// runner runs go test with an overlay.
type runner struct {
	root   string   // module root
	pkgs   []string // test packages to run, the file's own first
	limits map[string]time.Duration
	slow   map[string][]string // per package, its tests of a second or more in the baseline
	dirs   map[string]string   // each package's directory
	tests  string              // go test's -run, "" for every test
	tmp    string
}

// phases gives the test binary's arguments that select the tests of pkg
// in two runs: the quick tests first, then, only if those pass, the slow ones
// (most mutants die in a quick test, at a fraction of the whole run's
// time). Without slow tests, one run.
func (r *runner) phases(pkg string) [][]string {
	var run []string
	if r.tests != "" {
		run = []string{"-test.run", r.tests}
	}
	if len(r.slow[pkg]) == 0 {
		return [][]string{run}
	}
	quoted := make([]string, len(r.slow[pkg]))
	for i, name := range r.slow[pkg] {
		quoted[i] = regexp.QuoteMeta(name)
	}
	slow := "^(" + strings.Join(quoted, "|") + ")$"
	return [][]string{append(slices.Clip(run), "-test.skip", slow), {"-test.run", slow}}
}

// outcome of one mutant.
const (
	killed   = "killed"
	survived = "survived"
	invalid  = "invalid" // does not compile
)

func (r *runner) run(ctx context.Context, file string, src []byte) (string, string, error) {
	mutFile := filepath.Join(r.tmp, "mutant.go")
	if err := os.WriteFile(mutFile, src, 0o644); err != nil {
		return "", "", err
	}
	overlay := filepath.Join(r.tmp, "overlay.json")
	data, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(r.root, file): mutFile}})
	if err := os.WriteFile(overlay, data, 0o644); err != nil {
		return "", "", err
	}
	for i, pkg := range r.pkgs {
		// One test binary a package, run once a phase: go test would link
		// it again for each. The file's own package comes first, so its
		// build tells a mutant that does not compile.
		bin := filepath.Join(r.tmp, fmt.Sprintf("pkg%d.test", i))
		compile := exec.CommandContext(ctx, "go", "test", "-c", "-vet=off", "-overlay", overlay, "-o", bin, pkg)
		compile.Dir = r.root
		if out, err := compile.CombinedOutput(); err != nil {
			if ctx.Err() != nil {
				return "", "", ctx.Err()
			}
			return invalid, pkg + ": " + firstLine(out), nil
		}
		for _, sel := range r.phases(pkg) {
			tctx, cancel := context.WithTimeout(ctx, r.limits[pkg])
			cmd := exec.CommandContext(tctx, bin, append([]string{"-test.count=1", "-test.failfast"}, sel...)...)
			cmd.Dir = r.dirs[pkg] // where go test runs a package's tests
			// A mutant's failure is no test case to keep: without this,
			// rapid would save one under the package's testdata.
			cmd.Env = append(os.Environ(), "RAPID_NOFAILFILE=1")
			cmd.WaitDelay = 5 * time.Second
			out, err := cmd.CombinedOutput()
			timedOut := tctx.Err() != nil
			cancel()
			if ctx.Err() != nil {
				return "", "", ctx.Err()
			}
			if timedOut {
				return killed, pkg + ": over its time limit", nil
			}
			if err != nil {
				return killed, pkg + ": " + failedTest(out), nil
			}
		}
	}
	return survived, "", nil
}

// slowTests lists the top-level tests that took a second or more in go
// test -v's output.
func slowTests(out []byte) []string {
	var slow []string
	for _, l := range strings.Split(string(out), "\n") {
		m := passLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if d, err := strconv.ParseFloat(m[2], 64); err == nil && d >= 1 {
			slow = append(slow, m[1])
		}
	}
	return slow
}

var passLine = regexp.MustCompile(`^--- PASS: (\S+) \(([0-9.]+)s\)$`)

func firstLine(out []byte) string {
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return ""
}

// failedTest names the first failed test in go test's output.
func failedTest(out []byte) string {
	for _, l := range strings.Split(string(out), "\n") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(l), "--- FAIL: "); ok {
			name, _, _ := strings.Cut(t, " ")
			return name
		}
	}
	return firstLine(out)
}

// testPackages lists the module's packages whose tests depend on the
// package in dir, that package first, then in the order of their baseline
// time, each with its time limit: twice its baseline (which includes the
// build) plus 15 s.
func testPackages(ctx context.Context, root, dir, run string, only, skip []string) (pkgs, left []string, limits map[string]time.Duration, slow map[string][]string, err error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-f", "{{.ImportPath}}", "./"+dir)
	cmd.Dir = root
	own, err := cmd.Output()
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("go list ./%s: %w", dir, err)
	}
	target := strings.TrimSpace(string(own))
	cmd = exec.CommandContext(ctx, "go", "list", "-test", "-f",
		`{{if .ForTest}}{{.ForTest}}{{"\t"}}{{join .Deps "\t"}}{{end}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("go list -test: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 16<<20)
	for sc.Scan() {
		// A test variant (in-package or external) of package p: p, then
		// its dependencies, some as "q [p.test]" where recompiled for it.
		f := strings.Split(sc.Text(), "\t")
		if f[0] == "" {
			continue
		}
		pkg, deps := f[0], f[1:]
		if pkg == target || slices.ContainsFunc(deps, func(d string) bool { return d == target || strings.HasPrefix(d, target+" [") }) {
			if !slices.Contains(pkgs, pkg) {
				pkgs = append(pkgs, pkg)
			}
		}
	}
	if len(only) > 0 {
		pkgs = slices.DeleteFunc(pkgs, func(p string) bool { return p != target && !slices.Contains(only, p) })
	}
	pkgs = slices.DeleteFunc(pkgs, func(p string) bool {
		if p != target && slices.Contains(skip, p) {
			left = append(left, p)
			return true
		}
		return false
	})
	if len(pkgs) == 0 {
		// The first package's test build also tells a mutant that does
		// not compile: with none, every mutant would survive.
		return nil, nil, nil, nil, fmt.Errorf("no tests build on %s", target)
	}
	limits, slow = map[string]time.Duration{}, map[string][]string{}
	base := map[string]time.Duration{}
	for _, p := range pkgs {
		start := time.Now()
		args := []string{"test", "-count=1", "-vet=off", "-v"}
		if run != "" {
			args = append(args, "-run", run)
		}
		cmd := exec.CommandContext(ctx, "go", append(args, p)...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			return nil, nil, nil, nil, fmt.Errorf("baseline: the tests of %s fail without a mutant:\n%s", p, out)
		}
		slow[p] = slowTests(out)
		base[p] = time.Since(start)
		limits[p] = 2*base[p] + 15*time.Second
		fmt.Fprintf(os.Stderr, "baseline %s %.1fs\n", p, base[p].Seconds())
	}
	slices.SortStableFunc(pkgs, func(a, b string) int {
		switch {
		case a == target:
			return -1
		case b == target:
			return 1
		}
		return int(base[a] - base[b])
	})
	return pkgs, left, limits, slow, nil
}

// packageDirs maps the module's packages to their directories.
func packageDirs(ctx context.Context, root string) (map[string]string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-f", "{{.ImportPath}}\t{{.Dir}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list ./...: %w", err)
	}
	dirs := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if pkg, dir, ok := strings.Cut(l, "\t"); ok {
			dirs[pkg] = dir
		}
	}
	return dirs, nil
}

// readMutants reads a file of mutant names, one a line, with or without
// the "survivor " of the report's lines.
func readMutants(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(strings.TrimPrefix(l, "survivor ")); l != "" {
			want[l] = true
		}
	}
	return want, nil
}

// readEquivalents reads the equivalents file: lines "KEY # reason", where
// KEY is a survivor's name as the report's survivor lines give it (file:
// function: "line": change); blank lines and lines starting with # are
// skipped.
func readEquivalents(path string) (map[string]string, error) {
	eq := map[string]string{}
	if path == "" {
		return eq, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return eq, nil
	}
	if err != nil {
		return nil, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		id, reason, ok := strings.Cut(l, " # ")
		if !ok || strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("%s: %q gives no reason (ID # reason)", path, l)
		}
		eq[strings.TrimSpace(id)] = strings.TrimSpace(reason)
	}
	return eq, nil
}

func main() {
	file := flag.String("file", "", "the Go file to mutate, relative to the module root")
	equivalents := flag.String("equivalent", "internal/mutate/testdata/equivalent.txt", "survivors known to be equivalent, with reasons")
	only := flag.String("pkgs", "", "comma-separated: run only these test packages besides the file's own")
	skip := flag.String("skip", "", "comma-separated: leave out these test packages (the score is then a lower bound)")
	lines := flag.String("lines", "", "only mutants on these lines: FROM-TO")
	list := flag.Bool("list", false, "list the mutants and stop")
	every := flag.Int("every", 1, "a sample: only every n-th mutant")
	tests := flag.String("run", "", "go test's -run: only these tests of every package (the score is then a lower bound)")
	named := flag.String("mutants", "", "a file of mutants to run, one a line as the report's survivor lines name them (e.g. an earlier run's survivors)")
	minScore := flag.Int("min", 0, "fail (exit status 1) when the score is below this percentage")
	jobs := flag.Int("jobs", 1, "mutants tested at once, each with its own overlay (go's build cache is shared)")
	flag.Parse()
	if err := run(*file, *equivalents, *only, *skip, *lines, *tests, *named, *list, *every, max(*jobs, 1), *minScore); err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
}

func run(file, equivalents, only, skip, lines, tests, named string, list bool, every, jobs, minScore int) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	ms := mutants(fset, f, src)
	keys(fset, f, src, ms)
	if lines != "" {
		a, b, _ := strings.Cut(lines, "-")
		lo, _ := strconv.Atoi(a)
		hi, _ := strconv.Atoi(b)
		ms = slices.DeleteFunc(ms, func(m mutant) bool { return m.line < lo || m.line > hi })
	}
	if named != "" {
		want, err := readMutants(named)
		if err != nil {
			return err
		}
		ms = slices.DeleteFunc(ms, func(m mutant) bool { return !want[file+": "+m.key] })
	}
	if every > 1 {
		var sample []mutant
		for i := 0; i < len(ms); i += every {
			sample = append(sample, ms[i])
		}
		ms = sample
	}
	if list {
		for _, m := range ms {
			fmt.Printf("%s\t%s\n", m.id(file), m.key)
		}
		return nil
	}
	eq, err := readEquivalents(equivalents)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var onlyPkgs []string
	if only != "" {
		onlyPkgs = strings.Split(only, ",")
	}
	pkgs, left, limits, slow, err := testPackages(ctx, root, filepath.Dir(file), tests, onlyPkgs, strings.Split(skip, ","))
	if err != nil {
		return err
	}
	dirs, err := packageDirs(ctx, root)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "mutate")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	counts := map[string]int{}
	var survivors []string
	start := time.Now()
	// Mutants are tested jobs at a time and reported in their order.
	type verdict struct {
		res, why string
		err      error
	}
	verdicts := make([]chan verdict, len(ms))
	for i := range verdicts {
		verdicts[i] = make(chan verdict, 1)
	}
	next := make(chan int)
	go func() {
		for i := range ms {
			next <- i
		}
		close(next)
	}()
	for j := range jobs {
		dir := filepath.Join(tmp, strconv.Itoa(j))
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
		r := &runner{root: root, pkgs: pkgs, dirs: dirs, limits: limits, slow: slow, tests: tests, tmp: dir}
		go func() {
			for i := range next {
				res, why, err := r.run(ctx, file, apply(src, ms[i]))
				verdicts[i] <- verdict{res, why, err}
			}
		}()
	}
	for i, m := range ms {
		v := <-verdicts[i]
		if v.err != nil {
			cancel()
			return v.err
		}
		res, why := v.res, v.why
		id := m.id(file)
		if res == survived {
			if reason, ok := eq[file+": "+m.key]; ok {
				res, why = "equivalent", reason
			} else {
				survivors = append(survivors, file+": "+m.key)
			}
		}
		counts[res]++
		fmt.Printf("%d/%d %s %s %s\n", i+1, len(ms), res, id, why)
	}
	counted := counts[killed] + counts[survived]
	score := 100.0
	if counted > 0 {
		score = 100 * float64(counts[killed]) / float64(counted)
	}
	fmt.Printf("mutants %d: killed %d, survived %d, equivalent %d, not compiling %d (%s, %s)\n",
		len(ms), counts[killed], counts[survived], counts["equivalent"], counts[invalid],
		time.Since(start).Round(time.Second), time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	for _, s := range survivors {
		fmt.Println("survivor", s)
	}
	all := map[string]bool{}
	for _, m := range ms {
		all[file+": "+m.key] = true
	}
	for k := range eq {
		if strings.HasPrefix(k, file+": ") && !all[k] && lines == "" && named == "" && every <= 1 {
			fmt.Println("stale equivalent (no such mutant):", k)
		}
	}
	sampled := ""
	if every > 1 {
		sampled = fmt.Sprintf(" (a sample: every %dth mutant)", every)
	}
	if len(left) > 0 {
		sampled += " (tests of " + strings.Join(left, ", ") + " not run: a lower bound)"
	}
	if len(only) > 0 {
		sampled += " (only the tests of " + strings.Join(pkgs, ", ") + ": a lower bound)"
	}
	if tests != "" {
		sampled += fmt.Sprintf(" (only tests matching %q: a lower bound)", tests)
	}
	// Rounded down, so that 100% means no survivor.
	fmt.Printf("mutation score %s %.0f%%%s\n", file, math.Floor(score), sampled)
	if math.Floor(score) < float64(minScore) {
		return fmt.Errorf("%s: mutation score %.0f%% is below -min %d%%", file, math.Floor(score), minScore)
	}
	return nil
}
