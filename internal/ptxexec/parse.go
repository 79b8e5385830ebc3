package ptxexec

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// opcode is a decoded instruction form.
type opcode uint8

const (
	opInvalid opcode = iota
	opMov32
	opMov64
	opCvt64from32
	opCvt32from64
	opCvtaGlobal
	opCvtaShared
	opAdd32
	opSub32
	opMulLo32
	opMadLo32
	opMulWide32
	opAdd64
	opShl32
	opShr32
	opAnd32
	opOr32
	opXor32
	opNot32
	opNeg32
	opMinU32
	opMaxU32
	opMinS32
	opMaxS32
	opSelp32
	opShfRClamp
	opBfind
	opBfindShift
	opBrev
	opClz
	opPopc
	opAndPred
	opOrPred
	opNotPred
	opSetpU32
	opSetpS32
	opSetpU64
	opLdParam64
	opLd   // scalar load: space, width
	opLdV4 // 16-byte load into four registers
	opSt   // scalar store
	opStV4 // 16-byte store of four registers
	opAtomInc
	opMatchAny
	opBallot
	opShflIdx
	opWarpSync
	opMembar
	opBarSync
	opBra
	opBraUni
	opRet
)

// Comparison operators of setp.
const (
	cmpEQ uint8 = iota
	cmpNE
	cmpLT
	cmpLE
	cmpGT
	cmpGE
)

// State spaces of loads and stores.
const (
	spaceGlobal uint8 = iota
	spaceShared
	spaceParam
	spaceGeneric // global memory or, inside the shared window, shared memory
)

var spaceNames = [...]string{"global", "shared", "param", "generic"}

// Generic addresses from sharedWindow to sharedWindow+sharedWindowSize are
// the block's shared memory (cvta.shared.u64 adds sharedWindow), as on the
// GPU, where a window of the generic address space maps the shared state
// space. The window lies far from global allocations (memBase).
const (
	sharedWindow     = 0x0000_7d00_0000_0000
	sharedWindowSize = 1 << 24
)

// formSpec is how the loader decodes one instruction form: its opcode, the
// operand letters (see decodeOperand), and for memory and setp forms the
// space, width and comparison.
type formSpec struct {
	op      opcode
	sig     string
	anyLane bool // a relaxed store: lanes may store different values at one address
	space   uint8
	width   uint8
	cmp     uint8
}

// formTable maps every instruction form the executor implements to its
// decoding. It is the executor's half of the contract with ptx.Opcodes().
var formTable = map[string]formSpec{
	"mov.u32":                   {op: opMov32, sig: "rS"},
	"mov.u64":                   {op: opMov64, sig: "dY"},
	"cvt.u64.u32":               {op: opCvt64from32, sig: "dX"},
	"cvt.u32.u64":               {op: opCvt32from64, sig: "rE"},
	"cvta.to.global.u64":        {op: opCvtaGlobal, sig: "dE"},
	"cvta.shared.u64":           {op: opCvtaShared, sig: "dZ"},
	"ld.u32":                    {op: opLd, sig: "ra", space: spaceGeneric, width: 4},
	"st.u32":                    {op: opSt, sig: "aX", space: spaceGeneric, width: 4},
	"add.u32":                   {op: opAdd32, sig: "rRR"},
	"sub.u32":                   {op: opSub32, sig: "rRR"},
	"mul.lo.u32":                {op: opMulLo32, sig: "rRR"},
	"mad.lo.u32":                {op: opMadLo32, sig: "rRRR"},
	"mul.wide.u32":              {op: opMulWide32, sig: "dRR"},
	"add.u64":                   {op: opAdd64, sig: "dDD"},
	"shl.b32":                   {op: opShl32, sig: "rRR"},
	"shr.u32":                   {op: opShr32, sig: "rRR"},
	"and.b32":                   {op: opAnd32, sig: "rRR"},
	"or.b32":                    {op: opOr32, sig: "rRR"},
	"xor.b32":                   {op: opXor32, sig: "rRR"},
	"not.b32":                   {op: opNot32, sig: "rX"},
	"neg.s32":                   {op: opNeg32, sig: "rX"},
	"min.u32":                   {op: opMinU32, sig: "rRR"},
	"max.u32":                   {op: opMaxU32, sig: "rRR"},
	"min.s32":                   {op: opMinS32, sig: "rRR"},
	"max.s32":                   {op: opMaxS32, sig: "rRR"},
	"selp.b32":                  {op: opSelp32, sig: "rRRq"},
	"shf.r.clamp.b32":           {op: opShfRClamp, sig: "rXXR"},
	"bfind.u32":                 {op: opBfind, sig: "rX"},
	"bfind.shiftamt.u32":        {op: opBfindShift, sig: "rX"},
	"brev.b32":                  {op: opBrev, sig: "rX"},
	"clz.b32":                   {op: opClz, sig: "rX"},
	"popc.b32":                  {op: opPopc, sig: "rX"},
	"and.pred":                  {op: opAndPred, sig: "pqq"},
	"or.pred":                   {op: opOrPred, sig: "pqq"},
	"not.pred":                  {op: opNotPred, sig: "pq"},
	"ld.param.u64":              {op: opLdParam64, sig: "da", space: spaceParam, width: 8},
	"ld.global.u8":              {op: opLd, sig: "ra", space: spaceGlobal, width: 1},
	"ld.global.u32":             {op: opLd, sig: "ra", space: spaceGlobal, width: 4},
	"ld.global.v4.u32":          {op: opLdV4, sig: "va", space: spaceGlobal, width: 16},
	"st.global.u8":              {op: opSt, sig: "aX", space: spaceGlobal, width: 1},
	"st.global.u32":             {op: opSt, sig: "aX", space: spaceGlobal, width: 4},
	"ld.shared.u8":              {op: opLd, sig: "ra", space: spaceShared, width: 1},
	"ld.shared.u16":             {op: opLd, sig: "ra", space: spaceShared, width: 2},
	"ld.shared.u32":             {op: opLd, sig: "ra", space: spaceShared, width: 4},
	"ld.shared.v4.u32":          {op: opLdV4, sig: "va", space: spaceShared, width: 16},
	"st.global.v4.u32":          {op: opStV4, sig: "aV", space: spaceGlobal, width: 16},
	"atom.global.inc.u32":       {op: opAtomInc, sig: "raR", space: spaceGlobal, width: 4},
	"st.shared.u8":              {op: opSt, sig: "aX", space: spaceShared, width: 1},
	"st.shared.u16":             {op: opSt, sig: "aX", space: spaceShared, width: 2},
	"st.relaxed.cta.shared.u16": {op: opSt, sig: "aX", space: spaceShared, width: 2, anyLane: true},
	"st.relaxed.cta.shared.u32": {op: opSt, sig: "aX", space: spaceShared, width: 4, anyLane: true},
	"st.shared.u32":             {op: opSt, sig: "aX", space: spaceShared, width: 4},
	"st.shared.v4.u32":          {op: opStV4, sig: "aV", space: spaceShared, width: 16},
	"match.any.sync.b32":        {op: opMatchAny, sig: "rRm"},
	"vote.sync.ballot.b32":      {op: opBallot, sig: "rPm"},
	"shfl.sync.idx.b32":         {op: opShflIdx, sig: "rRRRm"},
	"bar.warp.sync":             {op: opWarpSync, sig: "m"},
	"membar.sys":                {op: opMembar, sig: ""},
	"bar.sync":                  {op: opBarSync, sig: "R"},
	"bra":                       {op: opBra, sig: "l"},
	"bra.uni":                   {op: opBraUni, sig: "l"},
	"ret":                       {op: opRet, sig: ""},
}

func init() {
	cmps := []string{"eq", "ne", "lt", "le", "gt", "ge"}
	for i, c := range cmps {
		formTable["setp."+c+".u32"] = formSpec{op: opSetpU32, sig: "pRR", cmp: uint8(i)}
		formTable["setp."+c+".s32"] = formSpec{op: opSetpS32, sig: "pRR", cmp: uint8(i)}
		formTable["setp."+c+".u64"] = formSpec{op: opSetpU64, sig: "pDD", cmp: uint8(i)}
	}
}

// Register classes of the executor's register files.
const (
	classPred uint8 = iota
	class16
	class32
	class64
)

// regRef names one register read by an instruction, for the check that
// every register is written before it is read.
type regRef struct {
	class uint8
	idx   int32
}

// inst is one decoded instruction. Register operands are indices into the
// warp's register files; immediates, special registers and symbol addresses
// are indices of read-only registers filled when a warp starts, so that every
// source operand is a register.
type inst struct {
	op       opcode
	space    uint8
	width    uint8
	cmp      uint8
	guard    int32 // predicate index, or -1
	guardNeg bool
	negPred  bool  // vote's source is !%p
	anyLane  bool  // st.relaxed: the lowest of the lanes storing at one address wins
	d        int32 // destination
	a, b, c  int32 // sources
	mask     int32 // member mask (a 32-bit register index)
	vec      [4]int32
	base     int32 // address base: a 64-bit register, a 32-bit one (base32), or the parameter index for ld.param
	base32   bool  // the address base is a 32-bit register (shared accesses only)
	off      int64 // address offset
	target   int32 // branch target
	reads    []regRef
	line     int32
	text     string
}

// kernel is one decoded entry.
type kernel struct {
	name       string
	params     []string
	nregs      [4]int // declared registers per class
	sharedSize int
	code       []inst
	// Read-only registers appended after the declared ones: the special
	// registers, then the constants.
	consts32 []uint32
	consts64 []uint64
}

// Indices of the special registers among a kernel's read-only 32-bit
// registers (after the declared ones).
const (
	specTidX = iota
	specNtidX
	specCtaidX
	specNctaidX
	specLaneID
	numSpecials
)

var specialNames = map[string]int{"%tid.x": specTidX, "%ntid.x": specNtidX, "%ctaid.x": specCtaidX, "%nctaid.x": specNctaidX, "%laneid": specLaneID}

// parseError is a load-time error for one line.
func parseError(line int, text, format string, args ...any) error {
	return fmt.Errorf("%w: line %d: %s: %s", ErrSyntax, line, strings.TrimSpace(text), fmt.Sprintf(format, args...))
}

// parseModule reads PTX text in the dialect of spec/gpu.md (GPU-4).
func parseModule(text string) (*Module, error) {
	m := &Module{kernels: map[string]*kernel{}}
	lines := strings.Split(text, "\n")
	header := map[string]bool{}
	i := 0
	for i < len(lines) {
		raw := lines[i]
		line := stripComment(raw)
		i++
		if line == "" {
			continue
		}
		switch {
		case strings.HasPrefix(line, ".version "):
			header["version"] = true
			m.version = strings.TrimSpace(strings.TrimPrefix(line, ".version "))
		case strings.HasPrefix(line, ".target "):
			header["target"] = true
			m.target = strings.TrimSpace(strings.TrimPrefix(line, ".target "))
			if !strings.HasPrefix(m.target, "sm_") {
				return nil, parseError(i, raw, "unknown target")
			}
		case line == ".address_size 64":
			header["address_size"] = true
		case strings.HasPrefix(line, ".visible .entry "):
			if len(header) != 3 {
				return nil, parseError(i, raw, "entry before the .version, .target and .address_size 64 header")
			}
			k, next, err := parseEntry(lines, i-1)
			if err != nil {
				return nil, err
			}
			if _, dup := m.kernels[k.name]; dup {
				return nil, parseError(i, raw, "kernel defined twice")
			}
			m.kernels[k.name] = k
			m.order = append(m.order, k.name)
			i = next
		default:
			return nil, parseError(i, raw, "unknown directive")
		}
	}
	if len(m.kernels) == 0 {
		return nil, fmt.Errorf("%w: no .visible .entry in the module", ErrSyntax)
	}
	return m, nil
}

func stripComment(s string) string {
	if i := strings.Index(s, "//"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// parseEntry reads one entry starting at lines[start] and returns it with
// the index of the line after its closing brace.
func parseEntry(lines []string, start int) (*kernel, int, error) {
	first := stripComment(lines[start])
	name := strings.TrimPrefix(first, ".visible .entry ")
	if !strings.HasSuffix(name, "(") {
		return nil, 0, parseError(start+1, lines[start], "expected NAME(")
	}
	name = strings.TrimSuffix(name, "(")
	if !validIdent(name) {
		return nil, 0, parseError(start+1, lines[start], "invalid kernel name")
	}
	k := &kernel{name: name}
	i := start + 1
	// Parameters, one per line, then ")".
	for ; ; i++ {
		if i >= len(lines) {
			return nil, 0, parseError(i, "", "unterminated parameter list")
		}
		line := stripComment(lines[i])
		if line == ")" {
			i++
			break
		}
		p := strings.TrimSuffix(line, ",")
		if !strings.HasPrefix(p, ".param .u64 ") || !validIdent(strings.TrimPrefix(p, ".param .u64 ")) {
			return nil, 0, parseError(i+1, lines[i], "expected .param .u64 NAME")
		}
		k.params = append(k.params, strings.TrimPrefix(p, ".param .u64 "))
	}
	for ; i < len(lines) && stripComment(lines[i]) == ""; i++ {
	}
	if i >= len(lines) || stripComment(lines[i]) != "{" {
		return nil, 0, parseError(i+1, "", "expected { after the parameters")
	}
	i++
	type pending struct {
		line  int
		text  string
		guard string
		op    string
		args  []string
	}
	var body []pending
	labels := map[string]int32{}
	shared := map[string]int{}
	declared := [4]bool{}
	for ; ; i++ {
		if i >= len(lines) {
			return nil, 0, parseError(i, "", "entry %s has no closing }", name)
		}
		raw := lines[i]
		line := stripComment(raw)
		switch {
		case line == "":
			continue
		case line == "}":
			i++
			goto decode
		case strings.HasPrefix(line, ".reg "):
			class, n, err := parseRegDecl(line)
			if err != nil {
				return nil, 0, parseError(i+1, raw, "%v", err)
			}
			if declared[class] {
				return nil, 0, parseError(i+1, raw, "register class declared twice")
			}
			declared[class] = true
			k.nregs[class] = n
		case strings.HasPrefix(line, ".shared "):
			var align, size int
			var sname string
			f := strings.Fields(strings.TrimSuffix(line, ";"))
			if len(f) != 5 || f[1] != ".align" || f[3] != ".b8" || !strings.HasSuffix(line, ";") {
				return nil, 0, parseError(i+1, raw, "expected .shared .align A .b8 NAME[SIZE];")
			}
			align, err := strconv.Atoi(f[2])
			if err != nil || align <= 0 || align&(align-1) != 0 {
				return nil, 0, parseError(i+1, raw, "bad alignment")
			}
			open := strings.IndexByte(f[4], '[')
			if open < 0 || !strings.HasSuffix(f[4], "]") {
				return nil, 0, parseError(i+1, raw, "expected NAME[SIZE]")
			}
			sname = f[4][:open]
			size, err = strconv.Atoi(f[4][open+1 : len(f[4])-1])
			if err != nil || size <= 0 || !validIdent(sname) {
				return nil, 0, parseError(i+1, raw, "bad shared variable")
			}
			if _, dup := shared[sname]; dup {
				return nil, 0, parseError(i+1, raw, "shared variable declared twice")
			}
			off := (k.sharedSize + align - 1) &^ (align - 1)
			shared[sname] = off
			k.sharedSize = off + size
		case strings.HasPrefix(line, "."):
			return nil, 0, parseError(i+1, raw, "unknown directive inside an entry")
		case strings.HasSuffix(line, ":"):
			l := strings.TrimSuffix(line, ":")
			if !validIdent(l) {
				return nil, 0, parseError(i+1, raw, "invalid label")
			}
			if _, dup := labels[l]; dup {
				return nil, 0, parseError(i+1, raw, "label placed twice")
			}
			labels[l] = int32(len(body))
		default:
			if !strings.HasSuffix(line, ";") {
				return nil, 0, parseError(i+1, raw, "statement without ;")
			}
			st := strings.TrimSpace(strings.TrimSuffix(line, ";"))
			p := pending{line: i + 1, text: strings.TrimSpace(raw)}
			if strings.HasPrefix(st, "@") {
				sp := strings.IndexByte(st, ' ')
				if sp < 0 {
					return nil, 0, parseError(i+1, raw, "guard without instruction")
				}
				p.guard, st = st[1:sp], strings.TrimSpace(st[sp+1:])
			}
			if sp := strings.IndexAny(st, " \t"); sp >= 0 {
				p.op, st = st[:sp], strings.TrimSpace(st[sp+1:])
				args, err := splitOperands(st)
				if err != nil {
					return nil, 0, parseError(i+1, raw, "%v", err)
				}
				p.args = args
			} else {
				p.op = st
			}
			body = append(body, p)
		}
	}
decode:
	d := &decoder{k: k, shared: shared, labels: labels, c32: map[uint32]int32{}, c64: map[uint64]int32{}}
	for _, p := range body {
		in, err := d.decode(p.op, p.guard, p.args)
		if err != nil {
			return nil, 0, fmt.Errorf("%w: line %d: %s: %w", ErrSyntax, p.line, p.text, err)
		}
		in.line = int32(p.line)
		in.text = p.text
		k.code = append(k.code, in)
	}
	for l, at := range labels {
		if int(at) >= len(k.code) {
			return nil, 0, parseError(i, "}", "label %s has no instruction after it", l)
		}
	}
	if len(k.code) == 0 || !endsFlow(k.code[len(k.code)-1]) {
		// Falling off the end of the code would run past the last
		// instruction: the kernel must end with ret or an unconditional branch.
		return nil, 0, parseError(i, "}", "entry %s does not end with ret or an unconditional branch", name)
	}
	return k, i, nil
}

func endsFlow(in inst) bool {
	return in.guard < 0 && (in.op == opRet || in.op == opBra || in.op == opBraUni)
}

func parseRegDecl(line string) (uint8, int, error) {
	f := strings.Fields(strings.TrimSuffix(line, ";"))
	if len(f) != 3 || !strings.HasSuffix(line, ";") {
		return 0, 0, fmt.Errorf("expected .reg .TYPE %%x<N>;")
	}
	var class uint8
	var prefix string
	switch f[1] {
	case ".pred":
		class, prefix = classPred, "%p"
	case ".b16":
		class, prefix = class16, "%h"
	case ".b32":
		class, prefix = class32, "%r"
	case ".b64":
		class, prefix = class64, "%rd"
	default:
		return 0, 0, fmt.Errorf("unknown register type %s", f[1])
	}
	if !strings.HasPrefix(f[2], prefix+"<") || !strings.HasSuffix(f[2], ">") {
		return 0, 0, fmt.Errorf("expected %s<N>", prefix)
	}
	n, err := strconv.Atoi(f[2][len(prefix)+1 : len(f[2])-1])
	if err != nil || n < 0 || n > 1<<16 {
		return 0, 0, fmt.Errorf("bad register count")
	}
	return class, n, nil
}

// splitOperands splits at the commas outside braces.
func splitOperands(s string) ([]string, error) {
	var out []string
	depth, startAt := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced brackets")
			}
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[startAt:i]))
				startAt = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced brackets")
	}
	out = append(out, strings.TrimSpace(s[startAt:]))
	for _, o := range out {
		if o == "" {
			return nil, fmt.Errorf("empty operand")
		}
	}
	return out, nil
}

type decoder struct {
	k      *kernel
	shared map[string]int
	labels map[string]int32
	c32    map[uint32]int32
	c64    map[uint64]int32
}

// const32 returns the index of the read-only register holding v.
func (d *decoder) const32(v uint32) int32 {
	if idx, ok := d.c32[v]; ok {
		return idx
	}
	idx := int32(d.k.nregs[class32] + numSpecials + len(d.k.consts32))
	d.k.consts32 = append(d.k.consts32, v)
	d.c32[v] = idx
	return idx
}

func (d *decoder) const64(v uint64) int32 {
	if idx, ok := d.c64[v]; ok {
		return idx
	}
	idx := int32(d.k.nregs[class64] + len(d.k.consts64))
	d.k.consts64 = append(d.k.consts64, v)
	d.c64[v] = idx
	return idx
}

// reg parses %pN, %hN, %rN or %rdN and checks it against the declarations.
func (d *decoder) reg(s string) (uint8, int32, error) {
	var class uint8
	var num string
	switch {
	case strings.HasPrefix(s, "%rd"):
		class, num = class64, s[3:]
	case strings.HasPrefix(s, "%r"):
		class, num = class32, s[2:]
	case strings.HasPrefix(s, "%p"):
		class, num = classPred, s[2:]
	case strings.HasPrefix(s, "%h"):
		class, num = class16, s[2:]
	default:
		return 0, 0, fmt.Errorf("%q is not a register", s)
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || strconv.Itoa(n) != num {
		return 0, 0, fmt.Errorf("%q is not a register", s)
	}
	if n >= d.k.nregs[class] {
		return 0, 0, fmt.Errorf("register %s is not declared", s)
	}
	return class, int32(n), nil
}

// parseImm reads an integer literal as PTX does (as C does): 0x or 0X and
// hexadecimal digits, 0b or 0B and binary digits, a leading 0 and octal
// digits (so 010 is 8), else decimal; a leading - negates it.
func parseImm(s string) (int64, bool) {
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	digits, base := body, 10
	switch {
	case len(body) > 1 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X'):
		digits, base = body[2:], 16
	case len(body) > 1 && body[0] == '0' && (body[1] == 'b' || body[1] == 'B'):
		digits, base = body[2:], 2
	case len(body) > 1 && body[0] == '0':
		digits, base = body[1:], 8
	}
	// With an explicit base, ParseUint takes neither a sign, a prefix nor
	// underscores, so 0x+1, 0_1 and 09 are not literals.
	u, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	return int64(u), true
}

// src32 decodes a 32-bit source: a %r register or, where allowed, an
// immediate or a special register.
func (d *decoder) src32(s string, imm, special bool, in *inst) (int32, error) {
	if idx, ok := specialNames[s]; ok {
		if !special {
			return 0, fmt.Errorf("special register %s is not allowed here", s)
		}
		return int32(d.k.nregs[class32] + idx), nil
	}
	if v, ok := parseImm(s); ok {
		if !imm {
			return 0, fmt.Errorf("immediate %s is not allowed here", s)
		}
		if v < math.MinInt32 || v > math.MaxUint32 {
			return 0, fmt.Errorf("immediate %s does not fit 32 bits", s)
		}
		return d.const32(uint32(v)), nil
	}
	class, n, err := d.reg(s)
	if err != nil {
		return 0, err
	}
	if class != class32 {
		return 0, fmt.Errorf("%s is not a 32-bit register", s)
	}
	in.reads = append(in.reads, regRef{class32, n})
	return n, nil
}

func (d *decoder) src64(s string, imm, symbol bool, in *inst) (int32, error) {
	if v, ok := parseImm(s); ok {
		if !imm {
			return 0, fmt.Errorf("immediate %s is not allowed here", s)
		}
		return d.const64(uint64(v)), nil
	}
	if off, ok := d.shared[s]; ok {
		if !symbol {
			return 0, fmt.Errorf("symbol %s is not allowed here", s)
		}
		return d.const64(uint64(off)), nil
	}
	class, n, err := d.reg(s)
	if err != nil {
		return 0, err
	}
	if class != class64 {
		return 0, fmt.Errorf("%s is not a 64-bit register", s)
	}
	in.reads = append(in.reads, regRef{class64, n})
	return n, nil
}

func (d *decoder) dst(s string, want uint8) (int32, error) {
	class, n, err := d.reg(s)
	if err != nil {
		return 0, err
	}
	if class != want {
		return 0, fmt.Errorf("%s has the wrong register class for this operand", s)
	}
	return n, nil
}

func (d *decoder) predSrc(s string, allowNot bool, in *inst) (int32, bool, error) {
	neg := false
	if strings.HasPrefix(s, "!") {
		if !allowNot {
			return 0, false, fmt.Errorf("negated predicate %s is not allowed here", s)
		}
		neg, s = true, s[1:]
	}
	n, err := d.dst(s, classPred)
	if err != nil {
		return 0, false, err
	}
	in.reads = append(in.reads, regRef{classPred, n})
	return n, neg, nil
}

// address decodes [%rdN], [%rdN+imm], [%rdN-imm], [NAME] or [NAME+imm],
// and for a shared access also [%rN], [%rN+imm] or [%rN-imm].
func (d *decoder) address(s string, space uint8, in *inst) error {
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return fmt.Errorf("%q is not an address", s)
	}
	body := s[1 : len(s)-1]
	base, off := body, int64(0)
	if i := strings.IndexAny(body, "+-"); i > 0 {
		v, ok := parseImm(body[i:])
		if !ok && body[i] == '+' {
			v, ok = parseImm(body[i+1:])
		}
		if !ok {
			return fmt.Errorf("bad address offset in %s", s)
		}
		base, off = body[:i], v
	}
	in.off = off
	if space == spaceParam {
		for i, p := range d.k.params {
			if p == base {
				if off != 0 {
					return fmt.Errorf("parameter %s is read at offset 0 only", base)
				}
				in.base = int32(i)
				return nil
			}
		}
		return fmt.Errorf("%s is not a parameter of %s", base, d.k.name)
	}
	if soff, ok := d.shared[base]; ok {
		switch space {
		case spaceShared:
			in.base = d.const64(uint64(soff))
		case spaceGeneric: // the variable's generic address
			in.base = d.const64(sharedWindow + uint64(soff))
		default:
			return fmt.Errorf("shared variable %s used with a %s access", base, spaceNames[space])
		}
		return nil
	}
	class, n, err := d.reg(base)
	if err != nil {
		return err
	}
	switch {
	case class == class32 && space == spaceShared:
		in.base32 = true
	case class == class32:
		return fmt.Errorf("address base %s: a 32-bit register holds a shared address, not a %s one", base, spaceNames[space])
	case class != class64:
		return fmt.Errorf("address base %s is not a 64-bit register", base)
	}
	in.base = n
	in.reads = append(in.reads, regRef{class, n})
	return nil
}

func (d *decoder) decode(op, guard string, args []string) (inst, error) {
	in := inst{guard: -1}
	spec, ok := formTable[op]
	if !ok {
		return in, fmt.Errorf("%w %q", ErrUnknownInstruction, op)
	}
	in.op, in.space, in.width, in.cmp, in.anyLane = spec.op, spec.space, spec.width, spec.cmp, spec.anyLane
	if guard != "" {
		if strings.HasPrefix(guard, "!") {
			in.guardNeg, guard = true, guard[1:]
		}
		n, err := d.dst(guard, classPred)
		if err != nil {
			return in, fmt.Errorf("guard: %v", err)
		}
		in.guard = n
	}
	if len(args) != len(spec.sig) {
		return in, fmt.Errorf("%s takes %d operands, got %d", op, len(spec.sig), len(args))
	}
	srcs := []*int32{&in.a, &in.b, &in.c}
	nsrc := 0
	nextSrc := func() *int32 {
		p := srcs[nsrc]
		nsrc++
		return p
	}
	for i, letter := range []byte(spec.sig) {
		s := args[i]
		var err error
		switch letter {
		case 'r':
			in.d, err = d.dst(s, class32)
		case 'd':
			in.d, err = d.dst(s, class64)
		case 'p':
			in.d, err = d.dst(s, classPred)
		case 'R':
			*nextSrc(), err = d.src32(s, true, false, &in)
		case 'S':
			if off, ok := d.shared[s]; ok { // a shared variable's address fits 32 bits
				*nextSrc() = d.const32(uint32(off))
				break
			}
			*nextSrc(), err = d.src32(s, true, true, &in)
		case 'X':
			*nextSrc(), err = d.src32(s, false, false, &in)
		case 'D':
			*nextSrc(), err = d.src64(s, true, false, &in)
		case 'E':
			*nextSrc(), err = d.src64(s, false, false, &in)
		case 'Z':
			*nextSrc(), err = d.src64(s, false, true, &in)
		case 'Y':
			*nextSrc(), err = d.src64(s, true, true, &in)
		case 'q':
			var n int32
			n, _, err = d.predSrc(s, false, &in)
			*nextSrc() = n
		case 'P':
			var n int32
			n, in.negPred, err = d.predSrc(s, true, &in)
			*nextSrc() = n
		case 'm':
			in.mask, err = d.src32(s, true, false, &in)
		case 'a':
			err = d.address(s, spec.space, &in)
		case 'l':
			t, known := d.labels[s]
			if !known {
				err = fmt.Errorf("unknown label %s", s)
			}
			in.target = t
		case 'v', 'V':
			if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
				err = fmt.Errorf("%q is not a vector", s)
				break
			}
			parts := strings.Split(s[1:len(s)-1], ",")
			if len(parts) != 4 {
				err = fmt.Errorf("%q is not a vector of four registers", s)
				break
			}
			for j, p := range parts {
				if letter == 'v' {
					in.vec[j], err = d.dst(strings.TrimSpace(p), class32)
				} else {
					in.vec[j], err = d.src32(strings.TrimSpace(p), false, false, &in)
				}
				if err != nil {
					break
				}
			}
		default:
			panic("ptxexec: bad signature letter")
		}
		if err != nil {
			return in, err
		}
	}
	return in, nil
}

func validIdent(s string) bool {
	if s == "" {
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
