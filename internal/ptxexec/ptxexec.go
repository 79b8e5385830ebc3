// Package ptxexec runs PTX text in the dialect of internal/ptx (spec/gpu.md,
// GPU-4) on the CPU, one CTA at a time, warp by warp, so that the kernels the
// GPU runs are checked in CI without a GPU (spec/executor.md).
//
// Load parses the text once into a compact instruction form: registers are
// indices, immediates and special registers are read-only registers, branch
// targets are instruction indices. An instruction form the executor does not
// implement is a load-time error. Launch then runs a grid of blocks: every
// warp of a block has 32 lanes of registers, the block has its own shared
// memory, and global memory is the byte slices of a Memory, mapped at
// synthetic 64-bit addresses (cvta.shared.u64 maps shared memory into a
// window of the same generic address space). Every memory access is checked
// for bounds and alignment; in shared memory also for initialisation and for
// races, between warps (no bar.sync between them) and between lanes of a
// warp (no bar.warp.sync between them, as the CUDA memory model requires
// since sm_70). A failing access is a *Fault naming the instruction, its
// line, the thread and the address. Reads of registers a lane never wrote,
// divergent uniform branches and member-mask misuse of the warp intrinsics
// are faults too: what PTX leaves undefined is reported, not invented.
//
// After a divergent branch a warp runs the lanes at the lowest program
// counter first (a minimum-PC scheduler, spec/executor.md EXEC-4), so the
// lanes meet again at the first common instruction after the branch.
package ptxexec

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Sentinel errors; a *Fault wraps one of the run-time ones.
var (
	ErrSyntax             = errors.New("ptxexec: invalid PTX")
	ErrUnknownInstruction = errors.New("ptxexec: unknown instruction")
	ErrUnknownKernel      = errors.New("ptxexec: no such kernel")
	ErrLaunch             = errors.New("ptxexec: invalid launch")

	ErrOutOfBounds   = errors.New("ptxexec: out-of-bounds access")
	ErrMisaligned    = errors.New("ptxexec: misaligned access")
	ErrUninitShared  = errors.New("ptxexec: read of shared memory never written")
	ErrSharedRace    = errors.New("ptxexec: shared-memory race")
	ErrStoreConflict = errors.New("ptxexec: lanes of one store write different values to one byte")
	ErrUndefinedReg  = errors.New("ptxexec: read of a register never written")
	ErrDivergent     = errors.New("ptxexec: divergent uniform operation")
	ErrMemberMask    = errors.New("ptxexec: invalid member mask")
	ErrDeadlock      = errors.New("ptxexec: lanes wait for lanes that never arrive")
	ErrStepLimit     = errors.New("ptxexec: step limit reached")
)

// DefaultStepLimit bounds the instructions one warp may execute, so that a
// kernel that loops forever fails instead of hanging the test.
const DefaultStepLimit = 1 << 28

// Module is a loaded PTX module.
type Module struct {
	version, target string
	kernels         map[string]*kernel
	order           []string

	// Workers is the number of goroutines that run blocks of a launch;
	// 0 means GOMAXPROCS. Blocks are independent, so any value gives the
	// same result for a kernel without races between blocks.
	Workers int
	// StepLimit bounds the instructions each warp executes; 0 means
	// DefaultStepLimit.
	StepLimit int64

	steps atomic.Int64

	profMu  sync.Mutex
	profile map[string][]int64 // per kernel, per instruction; nil when off
}

// EnableProfile makes later launches count how often each instruction
// executes (once per warp, however many lanes execute it).
func (m *Module) EnableProfile() {
	m.profMu.Lock()
	defer m.profMu.Unlock()
	if m.profile == nil {
		m.profile = map[string][]int64{}
	}
}

// LineCount is how often one instruction executed.
type LineCount struct {
	Line  int
	Text  string
	Count int64
}

// Profile returns the execution count of every instruction of kernel, in
// text order, summed over the launches since EnableProfile.
func (m *Module) Profile(kernel string) []LineCount {
	k, ok := m.kernels[kernel]
	if !ok {
		return nil
	}
	m.profMu.Lock()
	defer m.profMu.Unlock()
	counts := m.profile[kernel]
	out := make([]LineCount, len(k.code))
	for i, in := range k.code {
		out[i] = LineCount{Line: int(in.line), Text: in.text}
		if counts != nil {
			out[i].Count = counts[i]
		}
	}
	return out
}

// Load parses and decodes PTX text.
func Load(text string) (*Module, error) { return parseModule(text) }

// Target is the module's .target, e.g. "sm_90".
func (m *Module) Target() string { return m.target }

// Kernels lists the module's entry points in text order.
func (m *Module) Kernels() []string { return slices.Clone(m.order) }

// Params lists a kernel's parameters, or nil for an unknown kernel.
func (m *Module) Params(kernel string) []string {
	if k, ok := m.kernels[kernel]; ok {
		return slices.Clone(k.params)
	}
	return nil
}

// SharedBytes is a kernel's static shared memory per block.
func (m *Module) SharedBytes(kernel string) int {
	if k, ok := m.kernels[kernel]; ok {
		return k.sharedSize
	}
	return 0
}

// Steps is the number of warp instructions executed by all launches so far.
func (m *Module) Steps() int64 { return m.steps.Load() }

// Fault is a run-time error of one thread at one instruction.
type Fault struct {
	Kernel string
	Line   int    // line of the instruction in the PTX text
	Text   string // the instruction as written
	Block  int    // %ctaid.x
	Thread int    // %tid.x of the faulting lane, or -1 for a whole warp
	Space  string // "global" or "shared" for a memory fault
	Addr   uint64
	Err    error  // the sentinel
	Detail string // what exactly went wrong
}

func (f *Fault) Error() string {
	who := fmt.Sprintf("block %d", f.Block)
	if f.Thread >= 0 {
		who += fmt.Sprintf(" thread %d (warp %d lane %d)", f.Thread, f.Thread/32, f.Thread%32)
	}
	where := ""
	if f.Space != "" {
		where = fmt.Sprintf(" %s address %#x:", f.Space, f.Addr)
	}
	return fmt.Sprintf("%v: %s line %d `%s`: %s:%s %s", f.Err, f.Kernel, f.Line, f.Text, who, where, f.Detail)
}

func (f *Fault) Unwrap() error { return f.Err }

// Launch runs kernel on a grid of grid blocks of block threads (one
// dimension, as in spec/gpu.md), with the given .u64 parameters, against
// mem. It returns the fault of the lowest-numbered failing block, if any.
// mem must not be changed (Alloc) while the launch runs.
func (m *Module) Launch(kernel string, grid, block int, params []uint64, mem *Memory) error {
	k, ok := m.kernels[kernel]
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownKernel, kernel)
	}
	if grid < 0 || block < 1 || block > 1024 {
		return fmt.Errorf("%w: grid %d, block %d (1 to 1024 threads)", ErrLaunch, grid, block)
	}
	if len(params) != len(k.params) {
		return fmt.Errorf("%w: %s takes %d parameters, got %d", ErrLaunch, kernel, len(k.params), len(params))
	}
	if mem == nil {
		mem = NewMemory()
	}
	workers := m.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, grid)
	limit := m.StepLimit
	if limit <= 0 {
		limit = DefaultStepLimit
	}
	var (
		next     atomic.Int64
		failedAt atomic.Int64 // lowest failing block so far
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	failedAt.Store(int64(grid))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newCTA(k, grid, block, params, mem, limit)
			m.profMu.Lock()
			if m.profile != nil {
				c.counts = make([]int64, len(k.code))
			}
			m.profMu.Unlock()
			for {
				b := next.Add(1) - 1
				if b >= int64(grid) || b > failedAt.Load() {
					break
				}
				err := c.run(int(b))
				if err == nil {
					continue
				}
				mu.Lock()
				if b < failedAt.Load() {
					failedAt.Store(b)
					firstErr = err
				}
				mu.Unlock()
			}
			m.steps.Add(c.steps)
			if c.counts != nil {
				m.profMu.Lock()
				total := m.profile[kernel]
				if total == nil {
					total = make([]int64, len(k.code))
					m.profile[kernel] = total
				}
				for i, n := range c.counts {
					total[i] += n
				}
				m.profMu.Unlock()
			}
		}()
	}
	wg.Wait()
	return firstErr
}
