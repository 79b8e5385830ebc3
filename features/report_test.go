package features

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A feature whose scenarios ran out of file order gets the sum of its
// scenarios' times, not godog's negative span; the rest is left as it is.
func TestFixJUnitSuiteTimes(t *testing.T) {
	report := `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="lz4warp" tests="3" skipped="0" failures="0" errors="0" time="0.5">
  <testsuite name="A" tests="2" skipped="0" failures="0" errors="0" time="-0.025851183">
    <testcase name="one" status="passed" time="0.25"></testcase>
    <testcase name="two" status="passed" time="0.125"></testcase>
  </testsuite>
  <testsuite name="B" tests="1" skipped="0" failures="0" errors="0" time="7">
    <testcase name="three" status="passed" time="0.0625"></testcase>
  </testsuite>
</testsuites>
`
	path := filepath.Join(t.TempDir(), "report.xml")
	if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := fixJUnitSuiteTimes(path); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(`time="-0.025851183"`, `time="0.375000000"`, `time="7"`, `time="0.062500000"`).Replace(report)
	if string(got) != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
}
