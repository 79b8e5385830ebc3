package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const events = `{"Action":"start","Package":"m/a"}
{"Action":"run","Package":"m/a","Test":"TestPass"}
{"Action":"output","Package":"m/a","Test":"TestPass","Output":"=== RUN   TestPass\n"}
{"Action":"pass","Package":"m/a","Test":"TestPass","Elapsed":0.5}
{"Action":"run","Package":"m/a","Test":"TestFail"}
{"Action":"output","Package":"m/a","Test":"TestFail","Output":"    a_test.go:9: want 2 <got 3>\n"}
{"Action":"fail","Package":"m/a","Test":"TestFail","Elapsed":0.25}
{"Action":"run","Package":"m/a","Test":"TestSkip"}
{"Action":"output","Package":"m/a","Test":"TestSkip","Output":"    a_test.go:12: no GPU\n"}
{"Action":"skip","Package":"m/a","Test":"TestSkip","Elapsed":0}
{"Action":"output","Package":"m/a","Output":"FAIL\tm/a\t1.000s\n"}
{"Action":"fail","Package":"m/a","Elapsed":1}
{"Action":"output","Package":"m/b","Output":"ok  \tm/b\t0.1s\n"}
{"Action":"pass","Package":"m/b","Elapsed":0.1}
{"Action":"run","Package":"m/c","Test":"TestDies"}
{"Action":"output","Package":"m/c","Output":"panic: boom\n"}
{"Action":"fail","Package":"m/c","Elapsed":0.2}
`

func TestReport(t *testing.T) {
	var echo strings.Builder
	r, err := read(strings.NewReader(events), &echo)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ok, err := r.write(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Error("a failed test and a dead test binary reported as passing")
	}
	for _, w := range []string{"want 2 <got 3>", "FAIL\tm/a", "ok  \tm/b", "panic: boom"} {
		if !strings.Contains(echo.String(), w) {
			t.Errorf("echo lacks %q:\n%s", w, echo.String())
		}
	}
	if strings.Contains(echo.String(), "no GPU") {
		t.Error("a passing or skipped test's output is echoed")
	}
	for file, want := range map[string][]string{
		"m_a.xml": {`<testsuite name="m/a" tests="3" failures="1" skipped="1" time="1.000">`,
			`name="TestPass" time="0.500"></testcase>`,
			`<failure message="failed">    a_test.go:9: want 2 &lt;got 3&gt;`,
			`<skipped message="skipped">    a_test.go:12: no GPU`},
		"m_b.xml": {`<testsuite name="m/b" tests="0" failures="0" skipped="0" time="0.100">`},
		"m_c.xml": {`<testsuite name="m/c" tests="1" failures="1"`,
			`<failure message="no result: the test binary stopped while it ran">panic: boom`},
	} {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(string(data), w) {
				t.Errorf("%s lacks %q:\n%s", file, w, data)
			}
		}
	}
}
