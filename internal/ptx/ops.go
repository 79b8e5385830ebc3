package ptx

import (
	"fmt"
	"sort"
	"strings"
)

// accept is the set of operand kinds one operand position takes.
type accept uint16

const (
	aPred    accept = 1 << iota // %pN
	aNotPred                    // !%pN
	aR16                        // %hN
	aR32                        // %rN
	aR64                        // %rdN
	aImm                        // Imm or Hex
	aSpecial                    // %tid.x, ...
	aSymbol                     // NAME (an address of a variable)
	aAddr                       // [...] with a 64-bit register or a symbol as base
	aAddr32                     // [...] with a 32-bit register as base (shared addresses)
	aLabel                      // a label
	aVec4                       // {%rA, %rB, %rC, %rD}
)

var acceptNames = []string{"predicate", "negated predicate", "b16 register", "b32 register",
	"b64 register", "immediate", "special register", "symbol", "address",
	"shared address in a b32 register", "label", "vector of 4 b32 registers"}

func (a accept) accepts(o Operand) bool {
	switch v := o.(type) {
	case Reg:
		switch v.Class {
		case Pred:
			return a&aPred != 0
		case B16:
			return a&aR16 != 0
		case B32:
			return a&aR32 != 0
		case B64:
			return a&aR64 != 0
		}
	case NotPred:
		return a&aNotPred != 0 && v.P.Class == Pred
	case Imm, Hex:
		return a&aImm != 0
	case Special:
		return a&aSpecial != 0
	case Symbol:
		return a&aSymbol != 0
	case Address:
		if a&aAddr == 0 {
			return false
		}
		switch base := v.Base.(type) {
		case Reg:
			return base.Class == B64 || base.Class == B32 && a&aAddr32 != 0
		case Symbol:
			return validIdent(string(base))
		}
	case Label:
		return a&aLabel != 0
	case Vec4:
		if a&aVec4 == 0 {
			return false
		}
		for _, r := range v {
			if r.Class != B32 {
				return false
			}
		}
		return true
	}
	return false
}

func (a accept) describe() string {
	var parts []string
	for i, name := range acceptNames {
		if a&(1<<i) != 0 {
			parts = append(parts, name)
		}
	}
	return strings.Join(parts, " or ")
}

// Operand-form letters of the table below.
var letters = map[byte]accept{
	'p': aPred,
	'P': aPred | aNotPred,
	'r': aR32,
	'R': aR32 | aImm,
	'd': aR64,
	'D': aR64 | aImm,
	'S': aR32 | aImm | aSpecial | aSymbol, // mov.u32 source: a shared variable's address fits 32 bits
	'Y': aR64 | aImm | aSymbol,            // mov.u64 source
	'a': aAddr,
	's': aAddr | aAddr32, // a shared access: its address may be in a 32-bit register
	'l': aLabel,
	'v': aVec4,
	'm': aR32 | aImm,    // member mask
	'Z': aR64 | aSymbol, // cvta source: a register or a variable's address
}

// forms maps every instruction form the builder emits to its operands.
var forms = map[string][]accept{}

func init() {
	table := map[string]string{
		"mov.u32":                   "r,S",
		"mov.u64":                   "d,Y",
		"cvt.u64.u32":               "d,r",
		"cvt.u32.u64":               "r,d",
		"cvta.to.global.u64":        "d,d",
		"cvta.shared.u64":           "d,Z",
		"add.u32":                   "r,R,R",
		"sub.u32":                   "r,R,R",
		"mul.lo.u32":                "r,R,R",
		"mad.lo.u32":                "r,R,R,R",
		"mul.wide.u32":              "d,r,R",
		"add.u64":                   "d,D,D",
		"shl.b32":                   "r,R,R",
		"shr.u32":                   "r,R,R",
		"and.b32":                   "r,R,R",
		"or.b32":                    "r,R,R",
		"xor.b32":                   "r,R,R",
		"not.b32":                   "r,r",
		"neg.s32":                   "r,r",
		"min.u32":                   "r,R,R",
		"max.u32":                   "r,R,R",
		"min.s32":                   "r,R,R",
		"max.s32":                   "r,R,R",
		"selp.b32":                  "r,R,R,p",
		"shf.r.clamp.b32":           "r,r,r,R",
		"bfind.u32":                 "r,r",
		"bfind.shiftamt.u32":        "r,r",
		"brev.b32":                  "r,r",
		"clz.b32":                   "r,r",
		"popc.b32":                  "r,r",
		"and.pred":                  "p,p,p",
		"or.pred":                   "p,p,p",
		"not.pred":                  "p,p",
		"ld.param.u64":              "d,a",
		"ld.global.u8":              "r,a",
		"ld.global.u32":             "r,a",
		"ld.global.v4.u32":          "v,a",
		"st.global.u8":              "a,r",
		"st.global.u32":             "a,r",
		"st.global.v4.u32":          "a,v",
		"atom.global.inc.u32":       "r,a,R",
		"ld.shared.u8":              "r,s",
		"ld.shared.u16":             "r,s",
		"ld.shared.u32":             "r,s",
		"ld.shared.v4.u32":          "v,s",
		"st.shared.u8":              "s,r",
		"st.shared.u16":             "s,r",
		"st.relaxed.cta.shared.u16": "s,r",
		"st.relaxed.cta.shared.u32": "s,r",
		"st.shared.u32":             "s,r",
		"st.shared.v4.u32":          "s,v",
		"ld.u32":                    "r,a",
		"st.u32":                    "a,r",
		"bar.sync":                  "R",
		"match.any.sync.b32":        "r,R,m",
		"vote.sync.ballot.b32":      "r,P,m",
		"shfl.sync.idx.b32":         "r,R,R,R,m",
		"bar.warp.sync":             "m",
		"membar.sys":                "",
		"bra":                       "l",
		"bra.uni":                   "l",
		"ret":                       "",
	}
	for _, cmp := range []string{"eq", "ne", "lt", "le", "gt", "ge"} {
		table["setp."+cmp+".u32"] = "p,R,R"
		table["setp."+cmp+".s32"] = "p,R,R"
		table["setp."+cmp+".u64"] = "p,D,D"
	}
	for op, sig := range table {
		var form []accept
		if sig != "" {
			for _, l := range strings.Split(sig, ",") {
				a, ok := letters[l[0]]
				if !ok || len(l) != 1 {
					panic(fmt.Sprintf("ptx: bad form letter %q for %s", l, op))
				}
				form = append(form, a)
			}
		}
		forms[op] = form
	}
}

// Opcodes lists, sorted, every instruction form (opcode with its modifiers)
// the builder can emit; an executor of the dialect must implement them all.
func Opcodes() []string {
	ops := make([]string, 0, len(forms))
	for op := range forms {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	return ops
}

// OperandForm describes the operands of an instruction form in words, or
// reports false for a form the builder does not know.
func OperandForm(op string) ([]string, bool) {
	form, ok := forms[op]
	if !ok {
		return nil, false
	}
	out := make([]string, len(form))
	for i, a := range form {
		out[i] = a.describe()
	}
	return out, true
}

// Typed helpers. The type suffix comes from the destination's class where
// PTX allows one choice (add, mov); otherwise it is in the method's name.

// Mov copies src (a register, an immediate, a special register, or a
// variable's address: for a 32-bit destination a shared variable's) into
// dst.
func (k *Kernel) Mov(dst Reg, src Operand) {
	switch dst.Class {
	case B32:
		k.Emit("mov.u32", dst, src)
	case B64:
		k.Emit("mov.u64", dst, src)
	default:
		panic(fmt.Sprintf("ptx: mov into %v", dst))
	}
}

// Add is dst = a + b in the width of dst (add.u32 or add.u64).
func (k *Kernel) Add(dst Reg, a, b Operand) {
	if dst.Class == B64 {
		k.Emit("add.u64", dst, a, b)
		return
	}
	k.Emit("add.u32", dst, a, b)
}

// Sub is dst = a - b (32 bits).
func (k *Kernel) Sub(dst Reg, a, b Operand) { k.Emit("sub.u32", dst, a, b) }

// Mul is the low 32 bits of a × b.
func (k *Kernel) Mul(dst Reg, a, b Operand) { k.Emit("mul.lo.u32", dst, a, b) }

// Mad is the low 32 bits of a × b + c.
func (k *Kernel) Mad(dst Reg, a, b, c Operand) { k.Emit("mad.lo.u32", dst, a, b, c) }

// MulWide is the 64-bit product of two unsigned 32-bit values.
func (k *Kernel) MulWide(dst Reg, a, b Operand) { k.Emit("mul.wide.u32", dst, a, b) }

// Shl is a << b; shift counts of 32 or more give 0.
func (k *Kernel) Shl(dst Reg, a, b Operand) { k.Emit("shl.b32", dst, a, b) }

// Shr is the logical a >> b; shift counts of 32 or more give 0.
func (k *Kernel) Shr(dst Reg, a, b Operand) { k.Emit("shr.u32", dst, a, b) }

// And, Or and Xor are bitwise on 32 bits.
func (k *Kernel) And(dst Reg, a, b Operand) { k.Emit("and.b32", dst, a, b) }
func (k *Kernel) Or(dst Reg, a, b Operand)  { k.Emit("or.b32", dst, a, b) }
func (k *Kernel) Xor(dst Reg, a, b Operand) { k.Emit("xor.b32", dst, a, b) }

// Not is the bitwise complement, Neg the two's complement negation.
func (k *Kernel) Not(dst, a Reg) { k.Emit("not.b32", dst, a) }
func (k *Kernel) Neg(dst, a Reg) { k.Emit("neg.s32", dst, a) }

// MinU and MaxU compare unsigned, MinS and MaxS signed.
func (k *Kernel) MinU(dst Reg, a, b Operand) { k.Emit("min.u32", dst, a, b) }
func (k *Kernel) MaxU(dst Reg, a, b Operand) { k.Emit("max.u32", dst, a, b) }
func (k *Kernel) MinS(dst Reg, a, b Operand) { k.Emit("min.s32", dst, a, b) }
func (k *Kernel) MaxS(dst Reg, a, b Operand) { k.Emit("max.s32", dst, a, b) }

// Selp is dst = p ? a : b.
func (k *Kernel) Selp(dst Reg, a, b Operand, p Reg) { k.Emit("selp.b32", dst, a, b, p) }

// ShfR is the funnel shift right with clamp: the low 32 bits of the 64-bit
// value hi:lo shifted right by min(n, 32).
func (k *Kernel) ShfR(dst, lo, hi Reg, n Operand) { k.Emit("shf.r.clamp.b32", dst, lo, hi, n) }

// Bfind is the bit position of the most significant 1 of a, or 0xffffffff
// for a zero a.
func (k *Kernel) Bfind(dst, a Reg) { k.Emit("bfind.u32", dst, a) }

// BfindShiftAmt sets dst to the number of zero bits above a's highest set
// bit (clz for a nonzero a, 0xffffffff for 0), in one instruction where
// clz.b32 takes two on some targets.
func (k *Kernel) BfindShiftAmt(dst, a Reg) { k.Emit("bfind.shiftamt.u32", dst, a) }

// Brev reverses the bits, Clz counts leading zeros, Popc counts ones.
func (k *Kernel) Brev(dst, a Reg) { k.Emit("brev.b32", dst, a) }
func (k *Kernel) Clz(dst, a Reg)  { k.Emit("clz.b32", dst, a) }
func (k *Kernel) Popc(dst, a Reg) { k.Emit("popc.b32", dst, a) }

// Cmp is a comparison operator of setp.
type Cmp string

// Comparisons of setp.
const (
	EQ Cmp = "eq"
	NE Cmp = "ne"
	LT Cmp = "lt"
	LE Cmp = "le"
	GT Cmp = "gt"
	GE Cmp = "ge"
)

// SetpU sets p to a cmp b, comparing unsigned 32-bit values.
func (k *Kernel) SetpU(cmp Cmp, p Reg, a, b Operand) { k.Emit("setp."+string(cmp)+".u32", p, a, b) }

// SetpS sets p to a cmp b, comparing signed 32-bit values.
func (k *Kernel) SetpS(cmp Cmp, p Reg, a, b Operand) { k.Emit("setp."+string(cmp)+".s32", p, a, b) }

// SetpU64 sets p to a cmp b, comparing unsigned 64-bit values.
func (k *Kernel) SetpU64(cmp Cmp, p Reg, a, b Operand) { k.Emit("setp."+string(cmp)+".u64", p, a, b) }

// AndPred, OrPred and NotPred combine predicates.
func (k *Kernel) AndPred(dst, a, b Reg) { k.Emit("and.pred", dst, a, b) }
func (k *Kernel) OrPred(dst, a, b Reg)  { k.Emit("or.pred", dst, a, b) }
func (k *Kernel) NotPred(dst, a Reg)    { k.Emit("not.pred", dst, a) }

// Cvt64 zero-extends a 32-bit value; Cvt32 truncates a 64-bit one.
func (k *Kernel) Cvt64(dst, a Reg) { k.Emit("cvt.u64.u32", dst, a) }
func (k *Kernel) Cvt32(dst, a Reg) { k.Emit("cvt.u32.u64", dst, a) }

// CvtaGlobal converts a generic address (a kernel pointer argument) to a
// global one.
func (k *Kernel) CvtaGlobal(dst, a Reg) { k.Emit("cvta.to.global.u64", dst, a) }

// CvtaShared converts an address in the shared state space (a shared
// variable's name, or a register holding such an address) to a generic one.
func (k *Kernel) CvtaShared(dst Reg, a Operand) { k.Emit("cvta.shared.u64", dst, a) }

// Space is a state space of loads and stores.
type Space string

// State spaces. Generic is no state space: the address is a generic one,
// which the hardware maps to global, shared or local memory.
const (
	Global  Space = "global"
	Shared  Space = "shared"
	Param   Space = "param"
	Generic Space = ""
)

func memOp(op string, space Space, typ string) string {
	if space == Generic {
		return op + "." + typ
	}
	return op + "." + string(space) + "." + typ
}

// Ld loads a value of type typ (u8, u16, u32, u64) from space into dst;
// narrower values are zero-extended into a 32-bit register.
func (k *Kernel) Ld(space Space, typ string, dst Reg, addr Address) {
	k.Emit(memOp("ld", space, typ), dst, addr)
}

// St stores the low typ bits of src to space.
func (k *Kernel) St(space Space, typ string, addr Address, src Reg) {
	k.Emit(memOp("st", space, typ), addr, src)
}

// StAnyLane is St to shared memory with .relaxed.cta: lanes of the warp may
// store different values at one address, and one of them, which the PTX
// memory model leaves open, is the value there afterwards.
func (k *Kernel) StAnyLane(typ string, addr Address, src Reg) {
	k.Emit("st.relaxed.cta.shared."+typ, addr, src)
}

// LdV4 loads 16 aligned bytes into four 32-bit registers.
func (k *Kernel) LdV4(space Space, dst Vec4, addr Address) {
	k.Emit("ld."+string(space)+".v4.u32", dst, addr)
}

// StV4 stores four 32-bit registers to 16 aligned bytes.
func (k *Kernel) StV4(space Space, addr Address, src Vec4) {
	k.Emit("st."+string(space)+".v4.u32", addr, src)
}

// MatchAny sets dst to the mask of the lanes in mask whose value equals
// this lane's (match.any.sync, sm_70 and newer).
func (k *Kernel) MatchAny(dst Reg, value, mask Operand) {
	k.Emit("match.any.sync.b32", dst, value, mask)
}

// Ballot sets dst to the mask of the lanes in mask whose predicate holds.
func (k *Kernel) Ballot(dst Reg, p, mask Operand) { k.Emit("vote.sync.ballot.b32", dst, p, mask) }

// ShflIdx sets dst to value as held by lane src (clamped by c, 31 for a
// whole warp).
func (k *Kernel) ShflIdx(dst Reg, value, src, c, mask Operand) {
	k.Emit("shfl.sync.idx.b32", dst, value, src, c, mask)
}

// WarpSync waits for the lanes in mask and orders their memory accesses.
func (k *Kernel) WarpSync(mask Operand) { k.Emit("bar.warp.sync", mask) }

// AtomInc sets dst to the 32-bit word at addr in global memory and, in
// one atomic step, replaces the word w with w >= bound ? 0 : w+1.
func (k *Kernel) AtomInc(dst Reg, addr Address, bound Operand) {
	k.Emit("atom.global.inc.u32", dst, addr, bound)
}

// MembarSys orders the thread's earlier memory writes before its later
// ones for every observer, the host through a mapping included.
func (k *Kernel) MembarSys() { k.Emit("membar.sys") }

// BarSync waits for every thread of the block at barrier id and orders
// their shared and global memory accesses. An immediate id must be a barrier
// number, 0 to 15 (Emit checks).
func (k *Kernel) BarSync(id Operand) { k.Emit("bar.sync", id) }

// checkBarrier panics unless an immediate barrier id is 0..15, the barriers
// a CTA has.
func checkBarrier(id Operand) {
	var n int64
	switch v := id.(type) {
	case Imm:
		n = int64(v)
	case Hex:
		n = int64(v)
	}
	if n < 0 || n > 15 {
		panic(fmt.Sprintf("ptx: bar.sync barrier %v is not a barrier number 0..15", id))
	}
}

// Bra jumps to l; BraUni promises that every active thread jumps alike.
func (k *Kernel) Bra(l Label)    { k.Emit("bra", l) }
func (k *Kernel) BraUni(l Label) { k.Emit("bra.uni", l) }

// Ret ends the thread.
func (k *Kernel) Ret() { k.Emit("ret") }
