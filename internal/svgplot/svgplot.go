// Package svgplot draws line charts as standalone SVG documents: a grid of
// panels sharing one legend, each with a logarithmic or linear x axis, a
// linear y axis from zero, one polyline per series and labelled vertical
// markers. Output is deterministic: the same figure gives the same bytes.
//
// Every x and y, of points and of markers, must be finite: Write refuses NaN
// and ±Inf with ErrNonFinite rather than write them into coordinates. Text
// (titles, labels, series names) is escaped, and characters XML 1.0 does not
// allow (control characters, U+FFFE, U+FFFF, invalid UTF-8) are replaced by
// U+FFFD.
package svgplot

import (
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"strings"
	"unicode/utf8"
)

// Point is one (x, y) sample.
type Point struct{ X, Y float64 }

// Series is one named line.
type Series struct {
	Name   string
	Points []Point
}

// Marker is a labelled vertical line at X.
type Marker struct {
	X     float64
	Label string
}

// Panel is one chart.
type Panel struct {
	Title   string
	Series  []Series
	Markers []Marker
}

// Figure is a grid of panels.
type Figure struct {
	Title          string
	XLabel, YLabel string
	LogX           bool
	Columns        int // panels per row; 2 when 0
	Panels         []Panel
}

// ErrLogX reports a non-positive x on a logarithmic axis.
var ErrLogX = errors.New("svgplot: x must be positive on a logarithmic axis")

// ErrNonFinite reports a NaN or infinite x or y.
var ErrNonFinite = errors.New("svgplot: coordinates must be finite")

const (
	panelW, panelH = 420, 280
	marginL        = 60
	marginR        = 20
	marginT        = 30
	marginB        = 45
	headerH        = 40
	legendH        = 30
)

// palette holds colours told apart by most readers, one per series name.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"}

// Write renders the figure.
func (f *Figure) Write(w io.Writer) error {
	cols := f.Columns
	if cols <= 0 {
		cols = 2
	}
	cols = max(1, min(cols, len(f.Panels)))
	rows := (len(f.Panels) + cols - 1) / cols
	width := cols * panelW
	height := headerH + legendH + rows*panelH
	colour := map[string]string{}
	var names []string
	for _, p := range f.Panels {
		for _, s := range p.Series {
			if _, ok := colour[s.Name]; !ok {
				colour[s.Name] = palette[len(names)%len(palette)]
				names = append(names, s.Name)
			}
			for _, pt := range s.Points {
				if !finite(pt.X) || !finite(pt.Y) {
					return fmt.Errorf("%w: (%g, %g) in %s", ErrNonFinite, pt.X, pt.Y, s.Name)
				}
				if f.LogX && !(pt.X > 0) {
					return fmt.Errorf("%w: %g in %s", ErrLogX, pt.X, s.Name)
				}
			}
		}
		for _, m := range p.Markers {
			if !finite(m.X) {
				return fmt.Errorf("%w: marker %q at %g", ErrNonFinite, m.Label, m.X)
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="16" text-anchor="middle">%s</text>`+"\n", width/2, esc(f.Title))
	x := 10
	for _, n := range names {
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>`, x, headerH+10, x+20, headerH+10, colour[n])
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", x+25, headerH+14, esc(n))
		x += 40 + 7*len(n)
	}
	for i, p := range f.Panels {
		ox := (i % cols) * panelW
		oy := headerH + legendH + (i/cols)*panelH
		f.panel(&b, p, ox, oy, colour)
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func (f *Figure) panel(b *strings.Builder, p Panel, ox, oy int, colour map[string]string) {
	// The x range, from the points and the markers that can be drawn.
	x0, x1 := math.Inf(1), math.Inf(-1)
	y1 := 0.0
	for _, s := range p.Series {
		for _, pt := range s.Points {
			x0, x1 = math.Min(x0, pt.X), math.Max(x1, pt.X)
			y1 = math.Max(y1, pt.Y)
		}
	}
	for _, m := range p.Markers {
		if !f.LogX || m.X > 0 {
			x0, x1 = math.Min(x0, m.X), math.Max(x1, m.X)
		}
	}
	if math.IsInf(x0, 1) { // nothing to draw
		x0, x1 = 1, 10
	}
	// The axis maps [lo, hi] onto the panel, lo and hi taken in log10 on a
	// log axis. A linear axis keeps its centre and half-width halved, so that
	// no value near ±MaxFloat64 overflows; both stay finite.
	var lo, hi float64
	if f.LogX {
		lo, hi = math.Log10(x0), math.Log10(x1)
		if hi == lo {
			hi = lo + 1
		}
		// A margin keeps points and markers off the frame.
		lo, hi = lo-math.Log10(1.4), hi+math.Log10(1.4)
	} else {
		lo, hi = x0/2+x1/2, x1/2-x0/2 // centre, half-width
		if hi == 0 {
			hi = math.Max(0.5, math.Abs(lo)/2)
		}
		hi = math.Min(hi*1.1, math.MaxFloat64) // a margin of 5% of the range each side
	}
	if y1 == 0 {
		y1 = 1
	}
	y1 = niceCeil(y1)
	pw, ph := float64(panelW-marginL-marginR), float64(panelH-marginT-marginB)
	left, top := float64(ox+marginL), float64(oy+marginT)
	sx := func(x float64) float64 {
		if f.LogX {
			return clamp(left + pw*(math.Log10(x)-lo)/(hi-lo))
		}
		return clamp(left + pw*((x/2-lo/2)/hi+0.5))
	}
	sy := func(y float64) float64 { return clamp(top + ph*(1-y/y1)) }
	fmt.Fprintf(b, `<g class="panel">`+"\n")
	fmt.Fprintf(b, `<text x="%.1f" y="%d" font-size="13" text-anchor="middle">%s</text>`+"\n", left+pw/2, oy+18, esc(p.Title))
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#888"/>`+"\n", left, top, pw, ph)
	for _, t := range f.ticks(lo, hi) {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, sx(t), top, sx(t), top+ph)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", sx(t), top+ph+14, num(t))
	}
	for i := 0; i <= 4; i++ {
		y := y1 / 4 * float64(i) // y1/4 first, so that no product overflows
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, left, sy(y), left+pw, sy(y))
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-4, sy(y)+4, num(y))
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", left+pw/2, top+ph+32, esc(f.XLabel))
	fmt.Fprintf(b, `<text transform="translate(%.1f,%.1f) rotate(-90)" text-anchor="middle">%s</text>`+"\n", float64(ox+14), top+ph/2, esc(f.YLabel))
	for _, m := range p.Markers {
		if f.LogX && !(m.X > 0) {
			continue
		}
		fmt.Fprintf(b, `<line class="marker" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#555" stroke-dasharray="4 3"/>`, sx(m.X), top, sx(m.X), top+ph)
		// Labels near the right edge go left of their line.
		if sx(m.X) > left+pw*0.7 {
			fmt.Fprintf(b, `<text x="%.1f" y="%.1f" fill="#555" text-anchor="end">%s</text>`+"\n", sx(m.X)-3, top+12, esc(m.Label))
		} else {
			fmt.Fprintf(b, `<text x="%.1f" y="%.1f" fill="#555">%s</text>`+"\n", sx(m.X)+3, top+12, esc(m.Label))
		}
	}
	for _, s := range p.Series {
		var pts []string
		for _, pt := range s.Points {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", sx(pt.X), sy(pt.Y)))
		}
		if len(pts) == 0 {
			continue
		}
		fmt.Fprintf(b, `<polyline class="series" data-name="%s" fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", esc(s.Name), colour[s.Name], strings.Join(pts, " "))
		for _, p := range pts {
			xy := strings.Split(p, ",")
			fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="2.5" fill="%s"/>`, xy[0], xy[1], colour[s.Name])
		}
		b.WriteString("\n")
	}
	b.WriteString("</g>\n")
}

// ticks are the powers of ten within the axis on a log axis, five even
// steps on a linear one; lo and hi are the axis's as panel computes them.
// Only finite ticks are returned, and at most a few hundred: lo and hi are
// finite, so the log loop runs over at most the float64 exponents.
func (f *Figure) ticks(lo, hi float64) []float64 {
	var t []float64
	if f.LogX {
		for e := math.Floor(lo); e <= math.Ceil(hi) && len(t) < 700; e++ {
			if v := math.Pow(10, e); finite(v) && v > 0 && e >= lo+math.Log10(0.999) && e <= hi+math.Log10(1.001) {
				t = append(t, v)
			}
		}
		return t
	}
	for i := 0; i <= 4; i++ {
		if v := lo + hi*(float64(i)/2-1); finite(v) {
			t = append(t, v)
		}
	}
	return t
}

// niceCeil rounds up to 1, 2 or 5 times a power of ten, or to
// math.MaxFloat64 where that would overflow.
func niceCeil(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p {
			return math.Min(m*p, math.MaxFloat64)
		}
	}
	return math.Min(10*p, math.MaxFloat64)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// clamp keeps a coordinate of a point far outside the panel (a y far below
// zero) finite and short.
func clamp(v float64) float64 { return math.Max(-1e6, math.Min(v, 1e6)) }

func num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e9 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// esc escapes s for XML text and attributes, replacing what XML 1.0 does
// not allow (control characters other than tab, newline and carriage
// return, U+FFFE, U+FFFF, bytes that are not UTF-8) by U+FFFD.
func esc(s string) string {
	return html.EscapeString(strings.Map(func(r rune) rune {
		switch {
		case r == '\t', r == '\n', r == '\r',
			r >= 0x20 && r <= 0xD7FF,
			r >= 0xE000 && r <= 0xFFFD,
			r >= 0x10000 && r <= 0x10FFFF:
			return r
		}
		return utf8.RuneError
	}, s))
}
