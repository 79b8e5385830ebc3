//go:build amd64 && gc && !purego

#include "textflag.h"
#include "hash_amd64.h"

// func hashGroupsAsm(table *[2048]uint32, cand *uint32, src *byte, base, groups int) uint64
//
// Per position p, in order, as ENTER (hash_amd64.h) says: u = the word at
// p; h = hash(u) (PARSE-1); the entry e = table[h] goes to cand; table[h]
// = p | e<<16 (PARSE-2); then whether c1 or c2 verifies (PARSE-3) is
// shifted into R15 from the bottom, which REVERSE64 turns round: after the
// 8*groups positions, position base+k is at bit 64-8*groups+k. There is
// no branch. The caller keeps the
// loads inside src: p+3 is at most len(src)-9, and c1 and c2, positions
// entered before p, are below p.
TEXT ·hashGroupsAsm(SB), NOSPLIT, $0-48
	MOVQ table+0(FP), DI
	MOVQ cand+8(FP), SI
	MOVQ src+16(FP), DX
	MOVQ base+24(FP), BX
	MOVQ groups+32(FP), R13
	XORQ R15, R15

loop:
	ENTER(0, DX, DI, BX, R10, R11, 0(SI))
	ENTER(1, DX, DI, BX, R10, R11, 4(SI))
	ENTER(2, DX, DI, BX, R10, R11, 8(SI))
	ENTER(3, DX, DI, BX, R10, R11, 12(SI))
	ENTER(4, DX, DI, BX, R10, R11, 16(SI))
	ENTER(5, DX, DI, BX, R10, R11, 20(SI))
	ENTER(6, DX, DI, BX, R10, R11, 24(SI))
	ENTER(7, DX, DI, BX, R10, R11, 28(SI))

	ADDQ $8, BX
	ADDQ $32, SI
	DECQ R13
	JNZ  loop

	REVERSE64(R15, AX, R8)
	MOVQ R15, ret+40(FP)
	RET

// func scanGroupsAsm(table *[2048]uint32, src *byte, p, stop int) (q, e int)
//
// scan, eight positions at a time while p+8 <= stop, then four if
// p+4 <= stop: the first position q with a candidate that verifies, with
// the entry e it found, or q, the first position not visited, and e = -1.
// The caller keeps the loads inside src, as for scan.
TEXT ·scanGroupsAsm(SB), NOSPLIT, $0-48
	MOVQ table+0(FP), DI
	MOVQ src+8(FP), DX
	MOVQ p+16(FP), BX
	MOVQ stop+24(FP), R13
	SUBQ $8, R13
	CMPQ BX, R13
	JGT  scan4

scan8:
	SCAN(0, found0)
	SCAN(1, found1)
	SCAN(2, found2)
	SCAN(3, found3)
	SCAN(4, found4)
	SCAN(5, found5)
	SCAN(6, found6)
	SCAN(7, found7)
	ADDQ $8, BX
	CMPQ BX, R13
	JLE  scan8

scan4:
	// At most one group of four is left.
	ADDQ $4, R13
	CMPQ BX, R13
	JGT  notfound
	SCAN(0, found0)
	SCAN(1, found1)
	SCAN(2, found2)
	SCAN(3, found3)
	ADDQ $4, BX

notfound:
	MOVQ BX, q+32(FP)
	MOVQ $-1, e+40(FP)
	RET

found0:
	LEAQ 0(BX), AX
	JMP  found

found1:
	LEAQ 1(BX), AX
	JMP  found

found2:
	LEAQ 2(BX), AX
	JMP  found

found3:
	LEAQ 3(BX), AX
	JMP  found

found4:
	LEAQ 4(BX), AX
	JMP  found

found5:
	LEAQ 5(BX), AX
	JMP  found

found6:
	LEAQ 6(BX), AX
	JMP  found

found7:
	LEAQ 7(BX), AX

found:
	MOVQ AX, q+32(FP)
	MOVQ R9, e+40(FP)
	RET
