package svgplot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
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
