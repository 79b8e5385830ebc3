//go:build amd64 && gc && !purego

#include "textflag.h"
#include "hash_amd64.h"

// func hashGroupsAsm(table *[4096]uint16, cand *uint16, src *byte, base, groups int) uint64
//
// Per position p, in order: u = the word at p; h = hash(u) (PARSE-1); the
// candidate c = table[h] goes to cand; table[h] = p (PARSE-2). Then u XOR
// the word at c is 0 exactly when c verifies (PARSE-3), CMPL $1 turns that
// into the carry flag and RCRQ shifts it into R15 from the top: after the
// 8*groups positions, position base+k is at bit 64-8*groups+k. There is no
// branch. The caller keeps the loads inside src: p+3 is at most
// len(src)-9, and c, a position entered before p, is below p.
TEXT ·hashGroupsAsm(SB), NOSPLIT, $0-48
	MOVQ table+0(FP), DI
	MOVQ cand+8(FP), SI
	MOVQ src+16(FP), DX
	MOVQ base+24(FP), BX
	MOVQ groups+32(FP), R13
	XORQ R15, R15

loop:
	// Position pos+0, as ENTER (hash_amd64.h) but with pos itself for the table.
	MOVL    0(DX)(BX*1), AX
	IMUL3L  $0x9e3779b1, AX, R8
	SHRL    $20, R8
	MOVWLZX (DI)(R8*2), R9
	MOVW    BX, (DI)(R8*2)
	MOVW    R9, 0(SI)
	XORL    (DX)(R9*1), AX
	CMPL    AX, $1
	RCRQ    $1, R15

	ENTER(1, DX, DI, BX, R10, 2(SI))
	ENTER(2, DX, DI, BX, R10, 4(SI))
	ENTER(3, DX, DI, BX, R10, 6(SI))
	ENTER(4, DX, DI, BX, R10, 8(SI))
	ENTER(5, DX, DI, BX, R10, 10(SI))
	ENTER(6, DX, DI, BX, R10, 12(SI))
	ENTER(7, DX, DI, BX, R10, 14(SI))

	ADDQ $8, BX
	ADDQ $16, SI
	DECQ R13
	JNZ  loop

	MOVQ R15, ret+40(FP)
	RET

// func scanGroupsAsm(table *[4096]uint16, src *byte, p, stop int) (q, c int)
//
// scan, eight positions at a time while p+8 <= stop, then four if
// p+4 <= stop: the first position q whose candidate c verifies, or q, the
// first position not visited, and c = -1. The caller keeps the loads
// inside src, as for scan. One 8-byte load gives four words, each the low
// 32 bits after a shift by 8: a shift in place of a load, which random
// data, all scan, runs faster; so do fewer loop steps.
TEXT ·scanGroupsAsm(SB), NOSPLIT, $0-48
	MOVQ table+0(FP), DI
	MOVQ src+8(FP), DX
	MOVQ p+16(FP), BX
	MOVQ stop+24(FP), R13
	SUBQ $8, R13
	CMPQ BX, R13
	JGT  scan4

scan8:
	MOVQ    0(DX)(BX*1), AX
	IMUL3L  $0x9e3779b1, AX, R8
	SHRL    $20, R8
	MOVWLZX (DI)(R8*2), R9
	MOVW    BX, (DI)(R8*2)
	CMPL    AX, (DX)(R9*1)
	JEQ     found0

	SHRQ    $8, AX
	IMUL3L  $0x9e3779b1, AX, R8
	SHRL    $20, R8
	MOVWLZX (DI)(R8*2), R10
	LEAQ    1(BX), R11
	MOVW    R11, (DI)(R8*2)
	CMPL    AX, (DX)(R10*1)
	JEQ     found1

	SHRQ    $8, AX
	IMUL3L  $0x9e3779b1, AX, R8
	SHRL    $20, R8
	MOVWLZX (DI)(R8*2), R12
	LEAQ    2(BX), R11
	MOVW    R11, (DI)(R8*2)
	CMPL    AX, (DX)(R12*1)
	JEQ     found2

	SHRQ    $8, AX
	IMUL3L  $0x9e3779b1, AX, R8
	SHRL    $20, R8
	MOVWLZX (DI)(R8*2), R14
	LEAQ    3(BX), R11
	MOVW    R11, (DI)(R8*2)
	CMPL    AX, (DX)(R14*1)
	JEQ     found3

	MOVQ    4(DX)(BX*1), AX
	IMUL3L  $0x9e3779b1, AX, R8
	SHRL    $20, R8
	MOVWLZX (DI)(R8*2), R9
	LEAQ    4(BX), R11
	MOVW    R11, (DI)(R8*2)
	CMPL    AX, (DX)(R9*1)
	JEQ     found4

	SHRQ    $8, AX
	IMUL3L  $0x9e3779b1, AX, R8
	SHRL    $20, R8
	MOVWLZX (DI)(R8*2), R10
	LEAQ    5(BX), R11
	MOVW    R11, (DI)(R8*2)
	CMPL    AX, (DX)(R10*1)
	JEQ     found5

	SHRQ    $8, AX
	IMUL3L  $0x9e3779b1, AX, R8
	SHRL    $20, R8
	MOVWLZX (DI)(R8*2), R12
	LEAQ    6(BX), R11
	MOVW    R11, (DI)(R8*2)
	CMPL    AX, (DX)(R12*1)
	JEQ     found6

	SHRQ    $8, AX
	IMUL3L  $0x9e3779b1, AX, R8
	SHRL    $20, R8
	MOVWLZX (DI)(R8*2), R14
	LEAQ    7(BX), R11
	MOVW    R11, (DI)(R8*2)
	CMPL    AX, (DX)(R14*1)
	JEQ     found7

	ADDQ $8, BX
	CMPQ BX, R13
	JLE  scan8

scan4:
	// At most one group of four is left.
	ADDQ $4, R13
	CMPQ BX, R13
	JGT  notfound
	MOVQ    0(DX)(BX*1), AX
	IMUL3L  $0x9e3779b1, AX, R8
	SHRL    $20, R8
	MOVWLZX (DI)(R8*2), R9
	MOVW    BX, (DI)(R8*2)
	CMPL    AX, (DX)(R9*1)
	JEQ     found0

	SHRQ    $8, AX
	IMUL3L  $0x9e3779b1, AX, R8
	SHRL    $20, R8
	MOVWLZX (DI)(R8*2), R10
	LEAQ    1(BX), R11
	MOVW    R11, (DI)(R8*2)
	CMPL    AX, (DX)(R10*1)
	JEQ     found1

	SHRQ    $8, AX
	IMUL3L  $0x9e3779b1, AX, R8
	SHRL    $20, R8
	MOVWLZX (DI)(R8*2), R12
	LEAQ    2(BX), R11
	MOVW    R11, (DI)(R8*2)
	CMPL    AX, (DX)(R12*1)
	JEQ     found2

	SHRQ    $8, AX
	IMUL3L  $0x9e3779b1, AX, R8
	SHRL    $20, R8
	MOVWLZX (DI)(R8*2), R14
	LEAQ    3(BX), R11
	MOVW    R11, (DI)(R8*2)
	CMPL    AX, (DX)(R14*1)
	JEQ     found3

	ADDQ $4, BX

notfound:
	MOVQ BX, q+32(FP)
	MOVQ $-1, c+40(FP)
	RET

found0:
	LEAQ 0(BX), AX
	MOVQ AX, q+32(FP)
	MOVQ R9, c+40(FP)
	RET

found1:
	LEAQ 1(BX), AX
	MOVQ AX, q+32(FP)
	MOVQ R10, c+40(FP)
	RET

found2:
	LEAQ 2(BX), AX
	MOVQ AX, q+32(FP)
	MOVQ R12, c+40(FP)
	RET

found3:
	LEAQ 3(BX), AX
	MOVQ AX, q+32(FP)
	MOVQ R14, c+40(FP)
	RET

found4:
	LEAQ 4(BX), AX
	MOVQ AX, q+32(FP)
	MOVQ R9, c+40(FP)
	RET

found5:
	LEAQ 5(BX), AX
	MOVQ AX, q+32(FP)
	MOVQ R10, c+40(FP)
	RET

found6:
	LEAQ 6(BX), AX
	MOVQ AX, q+32(FP)
	MOVQ R12, c+40(FP)
	RET

found7:
	LEAQ 7(BX), AX
	MOVQ AX, q+32(FP)
	MOVQ R14, c+40(FP)
	RET
