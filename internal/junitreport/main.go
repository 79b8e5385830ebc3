// Command junitreport turns the output of `go test -json` into JUnit XML,
// one file per package (DIR/<import path with / as _>.xml), for CI systems
// that show test reports. It reads the events on stdin, prints what a plain
// `go test` run would show of them (each package's result lines, and the
// output of failed tests) and exits with status 1 when a test or a package
// failed, so that it can end a pipeline in place of go test's own status.
//
//	go test -json ./... | go run ./internal/junitreport -dir build/reports
package main

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// event is one line of go test -json (cmd/test2json).
type event struct {
	Time    time.Time
	Action  string
	Package string
	Test    string
	Elapsed float64 // seconds
	Output  string
}

// testCase is a test or subtest of a package, in the order it started.
type testCase struct {
	name, status string
	seconds      float64
	output       strings.Builder
}

// pkg gathers a package's tests and its own output.
type pkg struct {
	name    string
	status  string // pass, fail or skip once the package ended
	seconds float64
	output  strings.Builder // output outside any test (build errors, panics in TestMain)
	tests   []*testCase
	byName  map[string]*testCase
}

// report is the packages in the order their first event came.
type report struct {
	pkgs   []*pkg
	byName map[string]*pkg
}

func (r *report) pkg(name string) *pkg {
	if p, ok := r.byName[name]; ok {
		return p
	}
	p := &pkg{name: name, byName: map[string]*testCase{}}
	r.byName[name] = p
	r.pkgs = append(r.pkgs, p)
	return p
}

func (p *pkg) test(name string) *testCase {
	if t, ok := p.byName[name]; ok {
		return t
	}
	t := &testCase{name: name}
	p.byName[name] = t
	p.tests = append(p.tests, t)
	return t
}

// read consumes the events, echoing to echo what go test would print.
func read(in io.Reader, echo io.Writer) (*report, error) {
	r := &report{byName: map[string]*pkg{}}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<16), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			fmt.Fprintf(echo, "%s\n", line) // not an event: go's own messages
			continue
		}
		if e.Package == "" { // build output outside any package's run
			if e.Output != "" {
				fmt.Fprint(echo, e.Output)
			}
			continue
		}
		p := r.pkg(e.Package)
		if e.Test == "" {
			switch e.Action {
			case "output", "build-output":
				p.output.WriteString(e.Output)
				fmt.Fprint(echo, e.Output)
			case "pass", "fail", "skip":
				p.status, p.seconds = e.Action, e.Elapsed
			case "build-fail":
				p.status = "fail"
			}
			continue
		}
		t := p.test(e.Test)
		switch e.Action {
		case "output":
			t.output.WriteString(e.Output)
		case "pass", "fail", "skip":
			t.status, t.seconds = e.Action, e.Elapsed
			if e.Action == "fail" {
				fmt.Fprint(echo, t.output.String())
			}
		}
	}
	return r, sc.Err()
}

// JUnit XML, as Jenkins, GitLab and GitHub's test reporters read it.
type junitSuite struct {
	XMLName  xml.Name    `xml:"testsuite"`
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"` // seconds
	Cases    []junitCase `xml:"testcase"`
	Output   string      `xml:"system-out,omitempty"`
}

type junitCase struct {
	Class   string        `xml:"classname,attr"`
	Name    string        `xml:"name,attr"`
	Time    string        `xml:"time,attr"` // seconds
	Failure *junitMessage `xml:"failure,omitempty"`
	Skipped *junitMessage `xml:"skipped,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }

// suite is package p as a JUnit test suite. A test with no result (the
// package's binary died while it ran) is a failure, and so is a package
// that failed without a failed test (a build error, TestMain): it gets a
// test case of its own holding its output.
func (p *pkg) suite() junitSuite {
	s := junitSuite{Name: p.name, Time: seconds(p.seconds)}
	failed := false
	for _, t := range p.tests {
		c := junitCase{Class: p.name, Name: t.name, Time: seconds(t.seconds)}
		switch t.status {
		case "pass":
		case "skip":
			c.Skipped = &junitMessage{Message: "skipped", Text: t.output.String()}
			s.Skipped++
		case "fail", "":
			c.Failure = &junitMessage{Message: "failed", Text: t.output.String()}
			if t.status == "" {
				c.Failure.Message = "no result: the test binary stopped while it ran"
				c.Failure.Text += p.output.String()
			}
			s.Failures++
			failed = true
		}
		s.Cases = append(s.Cases, c)
	}
	if p.status == "fail" && !failed || p.status == "" {
		s.Cases = append(s.Cases, junitCase{Class: p.name, Name: "(package)", Time: seconds(p.seconds),
			Failure: &junitMessage{Message: "the package failed outside its tests", Text: p.output.String()}})
		s.Failures++
	}
	s.Tests = len(s.Cases)
	if p.status != "fail" && p.status != "" {
		s.Output = p.output.String()
	}
	return s
}

// write writes one JUnit file per package into dir and reports whether
// every package passed.
func (r *report) write(dir string) (bool, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err
	}
	ok := true
	for _, p := range r.pkgs {
		s := p.suite()
		ok = ok && s.Failures == 0
		data, err := xml.MarshalIndent(s, "", "  ")
		if err != nil {
			return false, err
		}
		name := filepath.Join(dir, strings.NewReplacer("/", "_", ".", "_").Replace(p.name)+".xml")
		if err := os.WriteFile(name, append([]byte(xml.Header), append(data, '\n')...), 0o644); err != nil {
			return false, err
		}
	}
	return ok, nil
}

func main() {
	dir := flag.String("dir", "build/reports", "write the JUnit files here")
	flag.Parse()
	r, err := read(os.Stdin, os.Stdout)
	if err == nil && len(r.pkgs) == 0 {
		err = fmt.Errorf("no test events on stdin")
	}
	ok := false
	if err == nil {
		ok, err = r.write(*dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "junitreport:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}
