package falsification

import (
	"fmt"
	"io"
	"strings"
)

// Run identifies the device run whose outcomes are recorded.
type Run struct {
	Device string
	Driver string
	Date   string // YYYY-MM-DD, UTC
}

// CUDAResult condenses the JIT, launch and synchronisation results.
func (o Outcome) CUDAResult() string {
	switch {
	case o.JIT != success:
		return "JIT " + o.JIT
	case o.Launch != success:
		return "launch " + o.Launch
	case o.Sync != success:
		return "sync " + o.Sync
	}
	return success
}

// WriteTable writes the Markdown table of one claim's experiments with the
// outcomes given by outcome (the recorded ones, or a fresh run's).
func WriteTable(w io.Writer, claim string, run Run, outcome func(Experiment) Outcome) error {
	var b strings.Builder
	b.WriteString("| experiment | what varied | prediction | device | driver | date | CUDA result | output | sanitizer (memcheck) | verdict |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, e := range experiments {
		if e.Claim != claim {
			continue
		}
		o := outcome(e)
		varied := e.Varied
		if ref := e.Reference(); ref != "" {
			varied = fmt.Sprintf("%s (vs %s)", e.Varied, ref)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			e.ID, cell(varied), cell(e.Prediction), cell(run.Device), cell(run.Driver), run.Date,
			o.CUDAResult(), cell(o.Output), cell(o.Sanitizer), cell(e.Verdict(o)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func cell(s string) string {
	if s == "" {
		return "-"
	}
	return strings.ReplaceAll(s, "|", `\|`)
}
