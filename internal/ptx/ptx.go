// Package ptx builds PTX assembly text from Go: modules of kernels with typed
// virtual registers, labels, predicated statements and a fixed set of
// instruction forms (Opcodes), so that the emitted text stays within the
// small dialect of spec/gpu.md that both the CUDA driver and the CPU executor
// of internal/ptxexec read.
//
// The text is deterministic: registers are numbered in the order they are
// allocated, declarations come first, and every statement sits on its own
// line. A builder mistake (an unknown instruction form, an operand of the
// wrong class, a label placed twice or never) panics when the statement is
// emitted or when the text is rendered, since it is a bug in the generator and
// never a property of the input.
package ptx

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Class is the register class of a virtual register.
type Class uint8

// Register classes and their PTX declaration prefixes.
const (
	Pred Class = iota // .pred, %p
	B16               // .b16, %h
	B32               // .b32, %r
	B64               // .b64, %rd
	numClasses
)

var classInfo = [numClasses]struct{ decl, prefix string }{
	Pred: {".pred", "%p"},
	B16:  {".b16", "%h"},
	B32:  {".b32", "%r"},
	B64:  {".b64", "%rd"},
}

// Operand is anything that can appear as an instruction operand.
type Operand interface {
	String() string
	operand()
}

// Reg is a virtual register: %pN, %hN, %rN or %rdN.
type Reg struct {
	Class Class
	N     int
}

func (r Reg) String() string { return classInfo[r.Class].prefix + strconv.Itoa(r.N) }
func (Reg) operand()         {}

// NotPred is a negated predicate source operand, !%pN (vote.sync's source).
type NotPred struct{ P Reg }

// Not negates a predicate source operand.
func Not(p Reg) NotPred { return NotPred{p} }

func (n NotPred) String() string { return "!" + n.P.String() }
func (NotPred) operand()         {}

// Imm is an integer immediate written in decimal.
type Imm int64

func (i Imm) String() string { return strconv.FormatInt(int64(i), 10) }
func (Imm) operand()         {}

// Hex is an unsigned 32-bit immediate written in hexadecimal, for masks.
type Hex uint32

func (h Hex) String() string { return "0x" + strconv.FormatUint(uint64(h), 16) }
func (Hex) operand()         {}

// FullMask is the member mask of a whole warp.
const FullMask = Hex(0xffffffff)

// Special is a read-only special register.
type Special string

// Special registers the dialect allows.
const (
	TidX   Special = "%tid.x"
	NtidX  Special = "%ntid.x"
	CtaidX Special = "%ctaid.x"
	// NctaidX is the launch's number of blocks.
	NctaidX Special = "%nctaid.x"
	LaneID  Special = "%laneid"
)

func (s Special) String() string { return string(s) }
func (Special) operand()         {}

// Symbol names a kernel parameter or a shared variable; as a plain operand
// (mov.u64 %rd0, NAME) it is the variable's address in its state space, and
// a shared variable's fits 32 bits (mov.u32 %r0, NAME).
type Symbol string

func (s Symbol) String() string { return string(s) }
func (Symbol) operand()         {}

// Address is a memory operand: [%rdN], [%rdN+off], [NAME] or [NAME+off],
// and for the shared state space also [%rN] and [%rN+off].
type Address struct {
	Base Operand // a B64 Reg, a B32 Reg (shared accesses only) or a Symbol
	Off  int64
}

// At is the address held in the register base, plus off bytes: a 64-bit
// register, or a 32-bit one holding a shared address, which only the
// shared state space's loads and stores take (Emit checks): shared
// addresses fit 32 bits, and 32-bit arithmetic on them takes fewer
// instructions.
func At(base Reg, off int64) Address {
	if base.Class != B64 && base.Class != B32 {
		panic(fmt.Sprintf("ptx: address base %v is not a 32- or 64-bit register", base))
	}
	return Address{base, off}
}

// AtSym is the address of a parameter or shared variable, plus off bytes.
func AtSym(name Symbol, off int64) Address { return Address{name, off} }

func (a Address) String() string {
	switch {
	case a.Off > 0:
		return "[" + a.Base.String() + "+" + strconv.FormatInt(a.Off, 10) + "]"
	case a.Off < 0:
		return "[" + a.Base.String() + strconv.FormatInt(a.Off, 10) + "]"
	}
	return "[" + a.Base.String() + "]"
}
func (Address) operand() {}

// Vec4 is a vector of four 32-bit registers, {%rA, %rB, %rC, %rD}, the data
// operand of the .v4 loads and stores.
type Vec4 [4]Reg

func (v Vec4) String() string {
	return "{" + v[0].String() + ", " + v[1].String() + ", " + v[2].String() + ", " + v[3].String() + "}"
}
func (Vec4) operand() {}

// Label is a branch target inside one kernel.
type Label struct{ name string }

func (l Label) String() string { return l.name }
func (Label) operand()         {}

// Module is one PTX module: a header and its kernels.
type Module struct {
	sm      int
	entries []*Kernel
}

// NewModule starts a module for the GPU architecture sm_<sm> (70, 75, 80,
// 86, 89, 90). The .version line is the oldest PTX ISA that knows the target,
// so that the oldest driver able to run the GPU can also JIT the text.
func NewModule(sm int) *Module {
	if ISAVersion(sm) == "" {
		panic(fmt.Sprintf("ptx: unsupported target sm_%d", sm))
	}
	return &Module{sm: sm}
}

// SM is the module's target architecture.
func (m *Module) SM() int { return m.sm }

// ISAVersion is the PTX ISA version a module for sm_<sm> declares, or "" for
// an unsupported target.
func ISAVersion(sm int) string {
	switch sm {
	case 70, 75, 80:
		return "7.0"
	case 86:
		return "7.1"
	case 89, 90:
		return "7.8"
	}
	return ""
}

// Entry adds a kernel (a .visible .entry) whose parameters are all .u64, in
// the order given.
func (m *Module) Entry(name string, params ...string) *Kernel {
	if !validIdent(name) {
		panic(fmt.Sprintf("ptx: invalid kernel name %q", name))
	}
	for _, p := range params {
		if !validIdent(p) {
			panic(fmt.Sprintf("ptx: invalid parameter name %q", p))
		}
	}
	f := &kernelBody{name: name, params: params, labels: map[string]*labelState{}}
	k := &Kernel{f: f}
	m.entries = append(m.entries, k)
	return k
}

// String renders the module as PTX text.
func (m *Module) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, ".version %s\n.target sm_%d\n.address_size 64\n", ISAVersion(m.sm), m.sm)
	for _, k := range m.entries {
		b.WriteString("\n")
		k.f.render(&b)
	}
	return b.String()
}

// Kernel builds the body of one entry. The value returned by If or IfNot is
// a view of the same kernel whose next statement is predicated.
type Kernel struct {
	f     *kernelBody
	guard string
}

type kernelBody struct {
	name    string
	params  []string
	nregs   [numClasses]int
	shared  []sharedVar
	lines   []string
	labels  map[string]*labelState
	nlabels int
}

type sharedVar struct {
	name        string
	align, size int
}

type labelState struct{ placed, used bool }

// Name is the kernel's entry name.
func (k *Kernel) Name() string { return k.f.name }

// Param is the parameter's address for ld.param, e.g. [src].
func (k *Kernel) Param(name string) Address {
	for _, p := range k.f.params {
		if p == name {
			return AtSym(Symbol(name), 0)
		}
	}
	panic(fmt.Sprintf("ptx: kernel %s has no parameter %q", k.f.name, name))
}

// NewReg allocates the next register of a class.
func (k *Kernel) NewReg(c Class) Reg {
	r := Reg{c, k.f.nregs[c]}
	k.f.nregs[c]++
	return r
}

// NewPred, NewReg16, NewReg32 and NewReg64 allocate the next register of
// their class.
func (k *Kernel) NewPred() Reg  { return k.NewReg(Pred) }
func (k *Kernel) NewReg16() Reg { return k.NewReg(B16) }
func (k *Kernel) NewReg32() Reg { return k.NewReg(B32) }
func (k *Kernel) NewReg64() Reg { return k.NewReg(B64) }

// Shared declares a .shared byte array inside the kernel and returns its
// symbol; mov.u64 %rd, NAME gives its address in the shared state space.
func (k *Kernel) Shared(name string, size, align int) Symbol {
	if !validIdent(name) || size <= 0 || align <= 0 || align&(align-1) != 0 {
		panic(fmt.Sprintf("ptx: invalid shared variable %q[%d] align %d", name, size, align))
	}
	for _, p := range k.f.params {
		if p == name {
			panic(fmt.Sprintf("ptx: shared variable %q has the name of a parameter of kernel %s", name, k.f.name))
		}
	}
	for _, v := range k.f.shared {
		if v.name == name {
			panic(fmt.Sprintf("ptx: shared variable %q declared twice in kernel %s", name, k.f.name))
		}
	}
	k.f.shared = append(k.f.shared, sharedVar{name, align, size})
	return Symbol(name)
}

// NewLabel makes a fresh label; the hint makes the text readable and the
// counter makes the name unique.
func (k *Kernel) NewLabel(hint string) Label {
	if !validIdent("L" + hint) {
		panic(fmt.Sprintf("ptx: invalid label hint %q", hint))
	}
	name := fmt.Sprintf("L%d_%s", k.f.nlabels, hint)
	k.f.nlabels++
	k.f.labels[name] = &labelState{}
	return Label{name}
}

// Place puts a label at the current point of the body.
func (k *Kernel) Place(l Label) {
	st, ok := k.f.labels[l.name]
	if !ok || st.placed {
		panic(fmt.Sprintf("ptx: label %s unknown or placed twice", l.name))
	}
	if k.guard != "" {
		panic("ptx: a label cannot be predicated")
	}
	st.placed = true
	k.f.lines = append(k.f.lines, l.name+":")
}

// Comment adds a line of its own holding // text.
func (k *Kernel) Comment(text string) {
	k.f.lines = append(k.f.lines, "\t// "+oneLine(text))
}

// Note appends // text to the last statement.
func (k *Kernel) Note(text string) {
	n := len(k.f.lines)
	if n == 0 {
		panic("ptx: Note before any statement")
	}
	k.f.lines[n-1] += " // " + oneLine(text)
}

// If returns a view of the kernel whose next statement runs only in the
// threads where p is true.
func (k *Kernel) If(p Reg) *Kernel { return k.guarded("@", p) }

// IfNot returns a view of the kernel whose next statement runs only in the
// threads where p is false.
func (k *Kernel) IfNot(p Reg) *Kernel { return k.guarded("@!", p) }

func (k *Kernel) guarded(prefix string, p Reg) *Kernel {
	if p.Class != Pred {
		panic(fmt.Sprintf("ptx: guard %v is not a predicate", p))
	}
	if k.guard != "" {
		panic("ptx: statement guarded twice")
	}
	return &Kernel{f: k.f, guard: prefix + p.String()}
}

// Emit appends one instruction after checking that op is one of Opcodes()
// and that the operands fit its form. The typed helpers call it; use it
// directly for forms without a helper.
func (k *Kernel) Emit(op string, operands ...Operand) {
	form, ok := forms[op]
	if !ok {
		panic(fmt.Sprintf("ptx: instruction form %q is not in the builder's set", op))
	}
	if len(operands) != len(form) {
		panic(fmt.Sprintf("ptx: %s takes %d operands, got %d", op, len(form), len(operands)))
	}
	for i, o := range operands {
		if !form[i].accepts(o) {
			panic(fmt.Sprintf("ptx: %s operand %d (%v) is not %s", op, i, o, form[i].describe()))
		}
		if l, isLabel := o.(Label); isLabel {
			st, known := k.f.labels[l.name]
			if !known {
				panic(fmt.Sprintf("ptx: label %s is not from this kernel", l.name))
			}
			st.used = true
		}
		for _, r := range regsOf(o) {
			if r.N >= k.f.nregs[r.Class] {
				panic(fmt.Sprintf("ptx: register %v was never allocated", r))
			}
		}
	}
	if op == "bar.sync" {
		checkBarrier(operands[0])
	}
	var b strings.Builder
	b.WriteString("\t")
	if k.guard != "" {
		b.WriteString(k.guard)
		b.WriteString(" ")
	}
	b.WriteString(op)
	for i, o := range operands {
		if i == 0 {
			b.WriteString(" ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(o.String())
	}
	b.WriteString(";")
	k.f.lines = append(k.f.lines, b.String())
}

// regsOf lists the registers an operand names.
func regsOf(o Operand) []Reg {
	switch v := o.(type) {
	case Reg:
		return []Reg{v}
	case NotPred:
		return []Reg{v.P}
	case Address:
		if r, ok := v.Base.(Reg); ok {
			return []Reg{r}
		}
	case Vec4:
		return v[:]
	}
	return nil
}

func (f *kernelBody) render(b *strings.Builder) {
	names := make([]string, 0, len(f.labels))
	for name, st := range f.labels {
		if st.used && !st.placed {
			names = append(names, name)
		}
	}
	if len(names) > 0 {
		sort.Strings(names)
		panic(fmt.Sprintf("ptx: kernel %s branches to labels never placed: %v", f.name, names))
	}
	fmt.Fprintf(b, ".visible .entry %s(\n", f.name)
	for i, p := range f.params {
		sep := ","
		if i == len(f.params)-1 {
			sep = ""
		}
		fmt.Fprintf(b, "\t.param .u64 %s%s\n", p, sep)
	}
	b.WriteString(")\n{\n")
	for c := Class(0); c < numClasses; c++ {
		if f.nregs[c] > 0 {
			fmt.Fprintf(b, "\t.reg %s %s<%d>;\n", classInfo[c].decl, classInfo[c].prefix, f.nregs[c])
		}
	}
	for _, s := range f.shared {
		fmt.Fprintf(b, "\t.shared .align %d .b8 %s[%d];\n", s.align, s.name, s.size)
	}
	b.WriteString("\n")
	for _, l := range f.lines {
		b.WriteString(l)
		b.WriteString("\n")
	}
	b.WriteString("}\n")
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// validIdent reports whether s is a PTX identifier the builder emits: a
// letter or underscore followed by letters, digits and underscores; a lone
// underscore is not an identifier in PTX.
func validIdent(s string) bool {
	if s == "" || s == "_" {
		return false
	}
	for i, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !(letter || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
