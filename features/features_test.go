// Package features runs the Gherkin features of lz4warp (*.feature) with
// godog against the public API: `go test ./features` runs them, each
// scenario a subtest, in strict mode (an undefined or pending step fails).
// Flags: -godog.format=pretty,junit:FILE,cucumber:FILE writes reports,
// -godog.tags=EXPR selects scenarios (see `make features`).
package features

import (
	"embed"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cucumber/godog"
	"github.com/lz4warp/lz4warp/internal/trace"
)

// The feature files travel inside the test binary, so that it runs them
// from any directory on the GPU machine.
//
//go:embed *.feature
var featureFiles embed.FS

var opts = godog.Options{Format: "pretty", Strict: true}

// The godog options, as flags of the test binary (go test ./features -args
// or, for flags go test does not know, directly after the package).
func init() {
	flag.StringVar(&opts.Format, "godog.format", "pretty",
		"godog formatters, comma-separated, each `name[:file]`: pretty, progress, junit, cucumber, events")
	flag.StringVar(&opts.Tags, "godog.tags", "", "run the scenarios whose tags match this godog tag `expression`")
	flag.BoolVar(&opts.NoColors, "godog.no-colors", true, "print the pretty format without ANSI colours")
	flag.Int64Var(&opts.Randomize, "godog.random", 0, "shuffle the scenarios with this `seed` (-1: a random one)")
	flag.BoolVar(&opts.StopOnFailure, "godog.stop-on-failure", false, "stop at the first failed scenario")
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
	o.Strict = true
	o.TestingT = t
	o.FS = featureFiles
	o.Paths = []string{"."}
	o.Tags = strings.Join(filter, " && ")
	suite := godog.TestSuite{Name: "lz4warp", ScenarioInitializer: initializeScenario, Options: &o}
	if status := suite.Run(); status != 0 {
		t.Errorf("godog exited with status %d", status)
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
