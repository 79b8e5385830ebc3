// Package ptxas runs NVIDIA's offline PTX assembler on generated PTX text and
// reads its resource report, so that kernels can be checked against their
// register, shared-memory and spill budgets on a machine without a GPU.
package ptxas

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

var (
	// ErrNotFound reports that no ptxas binary could be found.
	ErrNotFound = errors.New("ptxas: assembler not found (set PTXAS or run make cuda-sdk)")
	// ErrAssemble reports PTX text that ptxas rejected; the error carries its log.
	ErrAssemble = errors.New("ptxas: assembly failed")
)

// Path finds ptxas: the file named by the environment variable PTXAS, else
// .cache/cuda/bin/ptxas under the root of the enclosing Go module (where
// make cuda-sdk puts it).
func Path() (string, error) {
	if p := os.Getenv("PTXAS"); p != "" {
		if isExecutable(p) {
			return p, nil
		}
		return "", fmt.Errorf("%w: PTXAS=%s is not an executable file", ErrNotFound, p)
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(dir, ".cache", "cuda", "bin", "ptxas")
			if isExecutable(p) {
				return p, nil
			}
			return "", fmt.Errorf("%w: no %s", ErrNotFound, p)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%w: no go.mod above the working directory", ErrNotFound)
		}
		dir = parent
	}
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// Resources is what ptxas -v reports for one kernel on one architecture.
type Resources struct {
	Kernel       string
	Arch         string // e.g. sm_90
	Registers    int    // per thread
	SharedBytes  int    // static shared memory per block
	StackFrame   int    // bytes per thread
	SpillStores  int    // bytes
	SpillLoads   int    // bytes
	ConstantUsed string // ptxas's cmem figures, verbatim
}

// Report is the result of one assembly.
type Report struct {
	Kernels []Resources
	Log     string // ptxas's complete output
}

// Kernel returns the resources of the named kernel.
func (r Report) Kernel(name string) (Resources, bool) {
	for _, k := range r.Kernels {
		if k.Kernel == name {
			return k, true
		}
	}
	return Resources{}, false
}

// Assemble runs `ptxas -arch=sm_<sm> -v` on the PTX text with the binary at
// path and parses the resource report. The cubin is discarded.
func Assemble(ctx context.Context, path, text string, sm int) (Report, error) {
	dir, err := os.MkdirTemp("", "ptxas")
	if err != nil {
		return Report{}, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "in.ptx")
	if err := os.WriteFile(in, []byte(text), 0o600); err != nil {
		return Report{}, err
	}
	arch := "sm_" + strconv.Itoa(sm)
	cmd := exec.CommandContext(ctx, path, "-arch="+arch, "-v", "-o", filepath.Join(dir, "out.cubin"), in)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return Report{Log: out.String()}, fmt.Errorf("%w for %s: %v\n%s", ErrAssemble, arch, err, out.String())
	}
	rep, err := ParseVerbose(out.String())
	if err != nil {
		return rep, err
	}
	return rep, nil
}

var (
	reCompiling = regexp.MustCompile(`Compiling entry function '([^']+)' for '(sm_\d+)'`)
	reFrame     = regexp.MustCompile(`(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads`)
	// Newer ptxas (CUDA 12 on) puts "used N barriers" before the shared
	// memory figure.
	reUsed = regexp.MustCompile(`Used (\d+) registers(?:, used \d+ barriers)?(?:, (\d+) bytes smem)?(?:, (.*))?`)
)

// ParseVerbose reads the resource lines of ptxas -v output.
func ParseVerbose(log string) (Report, error) {
	rep := Report{Log: log}
	var cur *Resources
	for _, line := range strings.Split(log, "\n") {
		if m := reCompiling.FindStringSubmatch(line); m != nil {
			rep.Kernels = append(rep.Kernels, Resources{Kernel: m[1], Arch: m[2], Registers: -1})
			cur = &rep.Kernels[len(rep.Kernels)-1]
			continue
		}
		if cur == nil {
			continue
		}
		if m := reFrame.FindStringSubmatch(line); m != nil {
			cur.StackFrame, _ = strconv.Atoi(m[1])
			cur.SpillStores, _ = strconv.Atoi(m[2])
			cur.SpillLoads, _ = strconv.Atoi(m[3])
		}
		if m := reUsed.FindStringSubmatch(line); m != nil {
			cur.Registers, _ = strconv.Atoi(m[1])
			if m[2] != "" {
				cur.SharedBytes, _ = strconv.Atoi(m[2])
			}
			cur.ConstantUsed = strings.TrimSpace(m[3])
		}
	}
	if len(rep.Kernels) == 0 {
		return rep, fmt.Errorf("ptxas: no kernel in the -v report:\n%s", log)
	}
	for _, k := range rep.Kernels {
		if k.Registers < 0 {
			return rep, fmt.Errorf("ptxas: no register count for %s in the -v report:\n%s", k.Kernel, log)
		}
	}
	return rep, nil
}
