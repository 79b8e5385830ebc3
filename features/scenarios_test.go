package features

import (
	"regexp"
	"testing"

	"github.com/lz4warp/lz4warp/internal/trace"
)

var ruleTagRE = regexp.MustCompile(`^@[A-Z][A-Z0-9]*-[0-9]+$`)

// TestEveryScenarioCitesARule keeps every scenario traceable: each carries
// at least one rule tag (whether the rule exists is internal/trace's check).
func TestEveryScenarioCitesARule(t *testing.T) {
	entries, err := featureFiles.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	scenarios := 0
	for _, e := range entries {
		data, err := featureFiles.ReadFile(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range trace.ParseFeature(data) {
			scenarios++
			cites := false
			for _, tag := range sc.Tags {
				cites = cites || ruleTagRE.MatchString(tag)
			}
			if !cites {
				t.Errorf("%s:%d: scenario %q has no rule tag", e.Name(), sc.Line, sc.Name)
			}
		}
	}
	if scenarios == 0 {
		t.Fatal("no scenarios found")
	}
}

func TestMatchTags(t *testing.T) {
	tags := []string{"@gpu", "@API-3"}
	for expr, want := range map[string]bool{
		"@gpu":                   true,
		"~@gpu":                  false,
		"@API-3 && ~@nogpu":      true,
		"@API-4,@API-3":          true,
		"@API-4,@nogpu":          false,
		"@gpu && @API-4":         false,
		"~@known-defect && @gpu": true,
	} {
		if got := matchTags(expr, tags); got != want {
			t.Errorf("matchTags(%q, %v) = %v, want %v", expr, tags, got, want)
		}
	}
}
