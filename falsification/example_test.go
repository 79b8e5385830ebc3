package falsification_test

import (
	"fmt"
	"strings"

	"github.com/lz4warp/lz4warp/falsification"
)

// The claim's own F082 pattern adds a 32-bit register to a 64-bit address:
// the experiment records that ptxas rejects it, and what the H100 said.
func ExampleLookup() {
	e, _ := falsification.Lookup("F082-1")
	fmt.Println(e.Claim, "varies:", e.Varied != "-")
	fmt.Println("rejected by ptxas:", e.Assembly.Rejected)
	fmt.Println("JIT on the device:", e.Recorded.JIT)
	fmt.Println("verdict:", strings.SplitN(e.Verdict(e.Recorded), ":", 2)[0])
	// Output:
	// F082 varies: true
	// rejected by ptxas: true
	// JIT on the device: CUDA_ERROR_INVALID_PTX
	// verdict: refuted
}

// Every experiment of both claims, each with the kernel text it runs.
func ExampleExperiments() {
	claims := map[string]int{}
	for _, e := range falsification.Experiments() {
		if strings.Contains(e.PTX(90), ".entry "+falsification.KernelName) {
			claims[e.Claim]++
		}
	}
	fmt.Println(falsification.F081, claims[falsification.F081], falsification.F082, claims[falsification.F082])
	// Output:
	// F081 5 F082 14
}
