package svgplot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"time"
)

func figure() *Figure {
	return &Figure{
		Title: "throughput <&> batch", XLabel: "batch (pages)", YLabel: "GB/s", LogX: true,
		Panels: []Panel{
			{Title: "text", Series: []Series{
				{Name: "scalar", Points: []Point{{1, 0.3}, {16, 0.35}, {4096, 0.4}}},
				{Name: "simd", Points: []Point{{4, 0.6}, {4096, 1.2}}},
			}, Markers: []Marker{{4, "simd ≥ 4"}, {1000, "gpu ≥ 1000"}}},
			{Title: "zeros", Series: []Series{{Name: "simd", Points: []Point{{4, 5}}}}},
			{Title: "empty"},
		},
	}
}

// elements counts the SVG's elements by name, failing on malformed XML.
func elements(t *testing.T, doc []byte) map[string]int {
	t.Helper()
	count := map[string]int{}
	d := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return count
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			count[se.Name.Local]++
			if se.Name.Local == "svg" && se.Name.Space != "http://www.w3.org/2000/svg" {
				t.Fatalf("svg element in namespace %q", se.Name.Space)
			}
		}
	}
}

func TestWrite(t *testing.T) {
	var a, b bytes.Buffer
	if err := figure().Write(&a); err != nil {
		t.Fatal(err)
	}
	figure().Write(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two renderings differ")
	}
	n := elements(t, a.Bytes())
	if n["svg"] != 1 || n["g"] != 3 || n["polyline"] != 3 || n["circle"] != 6 {
		t.Fatalf("elements %v: want 1 svg, 3 panels, 3 lines, 6 points", n)
	}
	if got := strings.Count(a.String(), `class="marker"`); got != 2 {
		t.Fatalf("%d markers, want 2", got)
	}
	if !strings.Contains(a.String(), "throughput &lt;&amp;&gt; batch") {
		t.Fatal("title not escaped")
	}
}

// On a log axis the points fall in the order of their x, evenly per decade.
func TestLogScale(t *testing.T) {
	f := &Figure{LogX: true, Panels: []Panel{{Series: []Series{{Name: "s", Points: []Point{{1, 1}, {10, 1}, {100, 1}}}}}}}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		G []struct {
			Polyline []struct {
				Points string `xml:"points,attr"`
			} `xml:"polyline"`
		} `xml:"g"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	pts := strings.Fields(doc.G[0].Polyline[0].Points)
	var xs []float64
	for _, p := range pts {
		var x, y float64
		if _, err := fmtSscanf(p, &x, &y); err != nil {
			t.Fatal(err)
		}
		xs = append(xs, x)
	}
	if len(xs) != 3 || !(xs[0] < xs[1] && xs[1] < xs[2]) || abs((xs[1]-xs[0])-(xs[2]-xs[1])) > 0.2 {
		t.Fatalf("x positions %v are not evenly spaced decades", xs)
	}
}

func TestLogXRejectsZero(t *testing.T) {
	f := &Figure{LogX: true, Panels: []Panel{{Series: []Series{{Name: "s", Points: []Point{{0, 1}}}}}}}
	if err := f.Write(io.Discard); !errors.Is(err, ErrLogX) {
		t.Fatalf("x = 0 on a log axis: %v", err)
	}
}

func fmtSscanf(s string, x, y *float64) (int, error) { return fmt.Sscanf(s, "%g,%g", x, y) }

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// writeWithin renders f, failing t if Write does not return within a few
// seconds (an unbounded tick loop).
func writeWithin(t *testing.T, f *Figure) ([]byte, error) {
	t.Helper()
	type result struct {
		doc []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		var buf bytes.Buffer
		err := f.Write(&buf)
		done <- result{buf.Bytes(), err}
	}()
	select {
	case r := <-done:
		return r.doc, r.err
	case <-time.After(10 * time.Second):
		t.Fatal("Write did not return")
		return nil, nil
	}
}

// finiteDoc fails t unless doc is well-formed XML without NaN or Inf.
func finiteDoc(t *testing.T, doc []byte) {
	t.Helper()
	elements(t, doc)
	if s := string(doc); strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
		t.Fatalf("non-finite coordinates in\n%s", s)
	}
}

// Values near the ends of float64 give finite coordinates and a bounded
// number of ticks, on either axis.
func TestExtremeValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		logX bool
		pts  []Point
		mk   []Marker
	}{
		{"log, one point at 1e308", true, []Point{{1e308, 1}}, nil},
		{"log, MaxFloat64 and the smallest positive", true, []Point{{math.MaxFloat64, 1}, {math.SmallestNonzeroFloat64, 2}}, []Marker{{math.MaxFloat64, "max"}}},
		{"linear, one point at 1e308", false, []Point{{1e308, 1}}, nil},
		{"linear, both ends", false, []Point{{-math.MaxFloat64, 1}, {math.MaxFloat64, 1e308}}, []Marker{{-math.MaxFloat64, "min"}}},
		{"linear, y far below zero", false, []Point{{1, -1e308}, {2, math.MaxFloat64}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &Figure{LogX: tc.logX, Panels: []Panel{{Series: []Series{{Name: "s", Points: tc.pts}}, Markers: tc.mk}}}
			doc, err := writeWithin(t, f)
			if err != nil {
				t.Fatal(err)
			}
			finiteDoc(t, doc)
			if n := strings.Count(string(doc), "<circle"); n != len(tc.pts) {
				t.Fatalf("%d points drawn, want %d", n, len(tc.pts))
			}
		})
	}
}

// NaN and ±Inf, in a point or a marker, are refused rather than written
// into coordinates.
func TestNonFinite(t *testing.T) {
	inf := math.Inf(1)
	for _, logX := range []bool{true, false} {
		for _, p := range []Panel{
			{Series: []Series{{Name: "s", Points: []Point{{1, 1}, {inf, 1}}}}},
			{Series: []Series{{Name: "s", Points: []Point{{math.NaN(), 1}}}}},
			{Series: []Series{{Name: "s", Points: []Point{{1, math.NaN()}}}}},
			{Series: []Series{{Name: "s", Points: []Point{{1, -inf}}}}},
			{Series: []Series{{Name: "s", Points: []Point{{10, 1}}}}, Markers: []Marker{{inf, "inf"}}},
			{Series: []Series{{Name: "s", Points: []Point{{10, 1}}}}, Markers: []Marker{{math.NaN(), "nan"}}},
			{Markers: []Marker{{-inf, "-inf"}}},
		} {
			f := &Figure{LogX: logX, Panels: []Panel{p}}
			doc, err := writeWithin(t, f)
			if !errors.Is(err, ErrNonFinite) {
				t.Errorf("LogX %v, %+v: error %v, want ErrNonFinite; wrote %d bytes", logX, p, err, len(doc))
			}
		}
	}
}

// Characters XML 1.0 does not allow become U+FFFD; the document stays
// well-formed.
func TestControlCharacters(t *testing.T) {
	f := &Figure{
		Title: "a\x01b", XLabel: "x\x1b[0m", YLabel: "y\uFFFE", LogX: true,
		Panels: []Panel{{
			Title:   "p\x00q",
			Series:  []Series{{Name: "s\x7f\x08\xff", Points: []Point{{1, 1}}}},
			Markers: []Marker{{1, "m\x0bn\ttab"}},
		}},
	}
	doc, err := writeWithin(t, f)
	if err != nil {
		t.Fatal(err)
	}
	elements(t, doc)
	for _, want := range []string{"a\uFFFDb", "p\uFFFDq", "m\uFFFDn\ttab", "x\uFFFD[0m", "y\uFFFD"} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("document lacks %q", want)
		}
	}
}
