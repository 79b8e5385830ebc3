// Package features runs the Gherkin features of lz4warp (*.feature) with
// godog against the public API: `go test ./features` runs them, each
// scenario a subtest, in strict mode (an undefined or pending step fails).
// Every godog option is a flag of the test binary, with one dash or two
// (godog.BindCommandLineFlags): -godog.format=pretty,junit:FILE,cucumber:FILE
// writes reports, -godog.tags=EXPR selects scenarios, -godog.random (a seed
// of its own) or -godog.random=SEED shuffles them, -godog.concurrency=N runs
// N at once, -godog.strict=false allows undefined steps (see `make features`).
package features

import (
	"embed"
	"flag"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cucumber/godog"
	"github.com/lz4warp/lz4warp/internal/trace"
	"github.com/spf13/pflag"
)

// The feature files travel inside the test binary, so that it runs them
// from any directory on the GPU machine.
//
//go:embed *.feature
var featureFiles embed.FS

// opts holds godog's options; the values here are the flags' defaults.
var opts = godog.Options{Format: "pretty", Strict: true, NoColors: true}

func init() { godog.BindCommandLineFlags("godog.", &opts) }

// TestMain parses godog's flags with go test's own (pflag, which reads
// long flags after two dashes: one dash is taken as two for godog's).
// LZ4WARP_FEATURES_FORMAT, when set, replaces the default of -godog.format,
// so that a run of every package (make test REPORTS=DIR) can ask for reports.
func TestMain(m *testing.M) {
	if f := os.Getenv("LZ4WARP_FEATURES_FORMAT"); f != "" {
		opts.Format = f
	}
	args := slices.Clone(os.Args[1:])
	for i, a := range args {
		if strings.HasPrefix(a, "-godog.") {
			args[i] = "-" + a
		}
	}
	err := pflag.CommandLine.Parse(args)
	if err == nil {
		err = pflag.ParseSkippedFlags(args, flag.CommandLine) // go test's -test.* flags
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// knownDefectTag marks scenarios that state the spec but fail against the
// current code; they are listed as skipped, with the reason, on every run.
const knownDefectTag = trace.QuarantineTag

func TestFeatures(t *testing.T) {
	runGPU, why := gpuScenarios()
	excluded := map[string]string{
		knownDefectTag: "a known defect, stated in the feature file; run it with -godog.tags=" + knownDefectTag,
	}
	if runGPU {
		excluded["@nogpu"] = "a supported CUDA GPU is present (" + why + ")"
	} else {
		excluded["@gpu"] = why
	}
	filter := []string{}
	if opts.Tags != "" {
		filter = append(filter, opts.Tags)
	}
	for tag := range excluded {
		if opts.Tags != tag {
			filter = append(filter, "~"+tag)
		}
	}

	o := opts
	o.TestingT = t
	o.FS = featureFiles
	o.Paths = []string{"."}
	o.Tags = strings.Join(filter, " && ")
	suite := godog.TestSuite{Name: "lz4warp", ScenarioInitializer: initializeScenario, Options: &o}
	if status := suite.Run(); status != 0 {
		t.Errorf("godog exited with status %d", status)
	}
	for _, f := range strings.Split(o.Format, ",") {
		if path, ok := strings.CutPrefix(strings.TrimSpace(f), "junit:"); ok {
			if err := fixJUnitSuiteTimes(path); err != nil {
				t.Error(err)
			}
		}
	}
	reportExcluded(t, excluded)
}

// reportExcluded shows every scenario the tag filter left out as a skipped
// subtest, with the reason, and prints one line per tag.
func reportExcluded(t *testing.T, excluded map[string]string) {
	entries, err := featureFiles.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, e := range entries {
		data, err := featureFiles.ReadFile(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range trace.ParseFeature(data) {
			if opts.Tags != "" && !matchTags(opts.Tags, sc.Tags) {
				continue
			}
			for _, tag := range sc.Tags {
				why, ok := excluded[tag]
				if !ok || opts.Tags == tag {
					continue
				}
				counts[tag]++
				t.Run(sc.Name, func(t *testing.T) {
					t.Skipf("%s:%d: %s scenario not run: %s", e.Name(), sc.Line, tag, why)
				})
				break
			}
		}
	}
	for _, tag := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(os.Stdout, "SKIPPED %d %s scenario(s): %s\n", counts[tag], tag, excluded[tag])
	}
}

// matchTags evaluates a godog tag expression ("@a && ~@b", "@a,@c") on a
// scenario's tags, as godog's filter does.
func matchTags(expr string, tags []string) bool {
	for _, and := range strings.Split(expr, "&&") {
		any := false
		for _, or := range strings.Split(and, ",") {
			or = strings.TrimSpace(or)
			if neg, ok := strings.CutPrefix(or, "~"); ok {
				any = any || !slices.Contains(tags, neg)
			} else {
				any = any || slices.Contains(tags, or)
			}
		}
		if !any {
			return false
		}
	}
	return true
}

var (
	junitSuiteRE = regexp.MustCompile(`(?s)(<testsuite [^>]*?time=")([^"]*)("[^>]*>)(.*?</testsuite>)`)
	junitCaseRE  = regexp.MustCompile(`<testcase [^>]*?time="([^"]*)"`)
)

// fixJUnitSuiteTimes sets the time of every <testsuite> of the JUnit report
// at path to the sum of its test cases' times. godog (v0.15.1, and v0.16.0,
// the newest release, has the same formatter) times a feature from its
// first scenario's start to its last scenario's end in file order, which is
// negative when -godog.random or -godog.concurrency ran them in another
// order; the test cases' own times are right.
func fixJUnitSuiteTimes(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var bad error
	fixed := junitSuiteRE.ReplaceAllFunc(data, func(suite []byte) []byte {
		g := junitSuiteRE.FindSubmatch(suite)
		sum := 0.0
		for _, c := range junitCaseRE.FindAllSubmatch(g[4], -1) {
			v, err := strconv.ParseFloat(string(c[1]), 64)
			if err != nil {
				bad = fmt.Errorf("%s: test case time %q: %w", path, c[1], err)
			}
			sum += v
		}
		return slices.Concat(g[1], []byte(strconv.FormatFloat(sum, 'f', 9, 64)), g[3], g[4])
	})
	if bad != nil {
		return bad
	}
	return os.WriteFile(path, fixed, 0o644)
}
