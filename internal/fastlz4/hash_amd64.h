// ENTER enters position pos+k (k from 0 to 7) of the chunk being hashed,
// as hashGroupsAsm does for each of eight positions a round: u = the word
// at pos+k goes to AX, h = hash(u) (PARSE-1) to R8, the entry e = table[h]
// to R9 and to the operand cand, and the table takes pos+k | e<<16 (made
// in t1, PARSE-2). Then u XOR the word at c1 = e&0xffff and u XOR the word
// at c2 = e>>16 (the second in t2), one of them 0 exactly when a candidate
// verifies (PARSE-3), multiply to 0 exactly then (32-bit factors, a 64-bit
// product), which CMPQ $1 turns into the carry flag, which RCRQ shifts
// into R15 from the top.
#define ENTER(k, src, table, pos, t1, t2, cand) \
	MOVL    k(src)(pos*1), AX; \
	IMUL3L  $0x9e3779b1, AX, R8; \
	SHRL    $21, R8; \
	MOVL    (table)(R8*4), R9; \
	MOVL    R9, t1; \
	SHLL    $16, t1; \
	LEAQ    k(pos)(t1*1), t1; \
	MOVL    t1, (table)(R8*4); \
	MOVL    R9, cand; \
	MOVWLZX R9, R8; \
	SHRL    $16, R9; \
	MOVL    AX, t2; \
	XORL    (src)(R8*1), AX; \
	XORL    (src)(R9*1), t2; \
	IMULQ   t2, AX; \
	CMPQ    AX, $1; \
	RCRQ    $1, R15

// ENTERB is ENTER for encodeLoopAsm's rounds of B, with other registers:
// u in DX, h and then c1 in R8, e and then c2 in R14, the new entry and
// then the copy of u in CX, the table at R13, pos in BX, the verified set
// in R15.
#define ENTERB(k, cand) \
	MOVL    k(SI)(BX*1), DX; \
	IMUL3L  $0x9e3779b1, DX, R8; \
	SHRL    $21, R8; \
	MOVL    (R13)(R8*4), R14; \
	MOVL    R14, CX; \
	SHLL    $16, CX; \
	LEAQ    k(BX)(CX*1), CX; \
	MOVL    CX, (R13)(R8*4); \
	MOVL    R14, cand; \
	MOVWLZX R14, R8; \
	SHRL    $16, R14; \
	MOVL    DX, CX; \
	XORL    (SI)(R8*1), DX; \
	XORL    (SI)(R14*1), CX; \
	IMULQ   CX, DX; \
	CMPQ    DX, $1; \
	RCRQ    $1, R15

// HASHROUND enters the next sixteen positions of B (encodeLoopAsm), from
// BX on, with the rest of B's state in the frame; it keeps AX, R9 to
// R13, SI and DI.
#define HASHROUND \
	MOVQ R12, 0(SP); \
	MOVQ R13, 8(SP); \
	MOVQ table+8(FP), R13; \
	MOVQ 32(SP), R12; \
	MOVQ 40(SP), R15; \
	ENTERB(0, 0(R12)); \
	ENTERB(1, 4(R12)); \
	ENTERB(2, 8(R12)); \
	ENTERB(3, 12(R12)); \
	ENTERB(4, 16(R12)); \
	ENTERB(5, 20(R12)); \
	ENTERB(6, 24(R12)); \
	ENTERB(7, 28(R12)); \
	ENTERB(8, 32(R12)); \
	ENTERB(9, 36(R12)); \
	ENTERB(10, 40(R12)); \
	ENTERB(11, 44(R12)); \
	ENTERB(12, 48(R12)); \
	ENTERB(13, 52(R12)); \
	ENTERB(14, 56(R12)); \
	ENTERB(15, 60(R12)); \
	ADDQ $16, BX; \
	ADDQ $64, R12; \
	MOVQ R12, 32(SP); \
	MOVQ R15, 40(SP); \
	DECQ 48(SP); \
	MOVQ 0(SP), R12; \
	MOVQ 8(SP), R13

// SCAN enters position BX+k as ENTER does, for scanGroupsAsm, and jumps
// to found with the entry in R9 where one of its candidates verifies.
#define SCAN(k, found) \
	MOVL    k(DX)(BX*1), AX; \
	IMUL3L  $0x9e3779b1, AX, R8; \
	SHRL    $21, R8; \
	MOVL    (DI)(R8*4), R9; \
	MOVL    R9, R10; \
	SHLL    $16, R10; \
	LEAQ    k(BX)(R10*1), R10; \
	MOVL    R10, (DI)(R8*4); \
	MOVWLZX R9, R10; \
	CMPL    AX, (DX)(R10*1); \
	JEQ     found; \
	MOVL    R9, R10; \
	SHRL    $16, R10; \
	CMPL    AX, (DX)(R10*1); \
	JEQ     found
