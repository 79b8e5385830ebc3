// Command tracematrix prints the traceability matrix of the module: every
// rule of spec/*.md with the scenarios and tests that cite it, the rules
// that only GPU tests check with the device run that last passed one, then
// the problems (uncited rules, citations of undefined IDs); it exits with
// status 1 when there are problems.
package main

import (
	"fmt"
	"os"

	"github.com/lz4warp/lz4warp/internal/trace"
)

func main() {
	root, err := trace.ModuleRoot(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	m, err := trace.Scan(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Print(m.Table())
	probs := m.Problems()
	for _, p := range probs {
		fmt.Println("problem:", p)
	}
	if len(probs) > 0 {
		os.Exit(1)
	}
}
