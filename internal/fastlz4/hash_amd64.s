//go:build amd64 && gc && !purego

#include "textflag.h"
#include "hash_amd64.h"

// func hashGroupsAsm(table *[2048]uint16, link *uint16, src *byte, base, groups int) uint64
//
// Per position p, in order, as ENTER (hash_amd64.h) says: u = the word at
// p; h = hash(u) (PARSE-1); c1 = table[h]; table[h] = p and link[p] = c1
// (PARSE-2); c2 = link[c1]; then whether c1 or c2 verifies (PARSE-3) is
// shifted into R15 from the bottom, which REVERSE64 turns round: after the
// 8*groups positions, position base+k is at bit 64-8*groups+k. There is
// no branch. The caller keeps the loads inside src: p+3 is at most
// len(src)-9, and c1 and c2, positions entered before p, are below p.
TEXT ·hashGroupsAsm(SB), NOSPLIT, $0-48
	MOVQ table+0(FP), DI
	MOVQ link+8(FP), SI
	MOVQ src+16(FP), DX
	MOVQ base+24(FP), BX
	MOVQ groups+32(FP), R13
	XORQ R15, R15

loop:
	ENTER(0, 0)
	ENTER(1, 2)
	ENTER(2, 4)
	ENTER(3, 6)
	ENTER(4, 8)
	ENTER(5, 10)
	ENTER(6, 12)
	ENTER(7, 14)

	ADDQ $8, BX
	DECQ R13
	JNZ  loop

	REVERSE64(R15, AX, R8)
	MOVQ R15, ret+40(FP)
	RET

// func scanGroupsAsm(table *[2048]uint16, link *uint16, src *byte, p, stop int) (q int, found bool)
//
// scan, eight positions at a time while p+8 <= stop, then four if
// p+4 <= stop: the first position q with a candidate that verifies and
// true, or q, the first position not visited, and false. The caller
// keeps the loads inside src, as for scan.
TEXT ·scanGroupsAsm(SB), NOSPLIT, $0-49
	MOVQ table+0(FP), DI
	MOVQ link+8(FP), R11
	MOVQ src+16(FP), DX
	MOVQ p+24(FP), BX
	MOVQ stop+32(FP), R13
	SUBQ $8, R13
	CMPQ BX, R13
	JGT  scan4

scan8:
	SCAN(0, 0, found0)
	SCAN(1, 2, found1)
	SCAN(2, 4, found2)
	SCAN(3, 6, found3)
	SCAN(4, 8, found4)
	SCAN(5, 10, found5)
	SCAN(6, 12, found6)
	SCAN(7, 14, found7)
	ADDQ $8, BX
	CMPQ BX, R13
	JLE  scan8

scan4:
	// At most one group of four is left.
	ADDQ $4, R13
	CMPQ BX, R13
	JGT  notfound
	SCAN(0, 0, found0)
	SCAN(1, 2, found1)
	SCAN(2, 4, found2)
	SCAN(3, 6, found3)
	ADDQ $4, BX

notfound:
	MOVQ BX, q+40(FP)
	MOVB $0, found+48(FP)
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
	MOVQ AX, q+40(FP)
	MOVB $1, found+48(FP)
	RET
