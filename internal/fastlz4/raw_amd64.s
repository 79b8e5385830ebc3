//go:build amd64 && gc && !purego

#include "textflag.h"

// CHECK adds 1 to acc where the key of the two bytes at x (SI) has no mark
// gen (R8) in seen (DI): CMPB sets the carry exactly where its mark is
// below gen. MARK does the same, then marks the key with gen.
#define CHECK(x, r, acc) \
	MOVWLZX x(SI)(BX*1), r; \
	ANDL    $0x3fff, r; \
	CMPB    (DI)(r*1), R8; \
	ADCQ    $0, acc

#define MARK(x, r, acc) \
	CHECK(x, r, acc); \
	MOVB R8, (DI)(r*1)

// func countFreshAsm(seen *[16384]byte, page *[4096]byte, gen byte) int
//
// countFreshGo: the first 64 positions, then the others eight a step, then
// the last seven. Its micro-ops bound its speed, five at an even position
// (which marks) and four at an odd one (about 0.9 cycle a position on an
// Intel Xeon, where marking every position took about one); four counters
// keep the carries' additions from forming one chain.
TEXT ·countFreshAsm(SB), NOSPLIT, $0-32
	MOVQ    seen+0(FP), DI
	MOVQ    page+8(FP), SI
	MOVBLZX gen+16(FP), R8
	XORL    BX, BX
	XORL    R10, R10
	XORL    R11, R11
	XORL    R12, R12
	XORL    R13, R13

probe:
	MARK(0, AX, R10)
	CHECK(1, AX, R10)
	ADDQ $2, BX
	CMPQ BX, $64
	JNE  probe
	CMPQ R10, $62            // at most 2 repeats among the first 64
	JLT  fail

mark8:
	MARK(0, AX, R10)
	CHECK(1, CX, R11)
	MARK(2, DX, R12)
	CHECK(3, R9, R13)
	MARK(4, AX, R10)
	CHECK(5, CX, R11)
	MARK(6, DX, R12)
	CHECK(7, R9, R13)
	ADDQ $8, BX
	CMPQ BX, $4087           // while x+8 <= 4095, the number of positions
	JLE  mark8

mark2:
	MARK(0, AX, R10)
	CHECK(1, CX, R11)
	ADDQ $2, BX
	CMPQ BX, $4094
	JNE  mark2
	MARK(0, AX, R10)

	ADDQ R11, R10
	ADDQ R12, R10
	ADDQ R13, R10
	MOVQ R10, ret+24(FP)
	RET

fail:
	MOVQ $-1, ret+24(FP)
	RET
