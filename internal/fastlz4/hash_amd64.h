// ENTER enters position BX+k (k from 0 to 7) of the chunk being hashed,
// as hashGroupsAsm does for each of eight positions a round, with k2 =
// 2*k: u = the word at BX+k goes to AX, h = hash(u) (PARSE-1) to R8, the
// entry c1 = table[h] to R9; the table takes BX+k and link[BX+k] takes c1
// (PARSE-2, see hashTable in encode.go); c2 = link[c1] goes to R10.
// Then u XOR the word at c1 and u XOR the word at c2, one of them 0
// exactly when a candidate verifies (PARSE-3), multiply to 0 exactly then
// (32-bit factors, a 64-bit product), which CMPQ $1 turns into the carry
// flag, which ADCQ shifts into R15 from the bottom: the first position
// ends highest, and REVERSE64 turns the set the right way round once per
// chunk (RCRQ, which would shift it in from the top, is two or three
// micro-ops on Intel cores, ADCQ one). The table is at DI, link at SI,
// src at DX.
#define ENTER(k, k2) \
	MOVL    k(DX)(BX*1), AX; \
	IMUL3L  $0x9e3779b1, AX, R8; \
	SHRL    $21, R8; \
	MOVWLZX (DI)(R8*2), R9; \
	LEAL    k(BX), R10; \
	MOVW    R10, (DI)(R8*2); \
	MOVW    R9, k2(SI)(BX*2); \
	MOVWLZX (SI)(R9*2), R10; \
	MOVL    (DX)(R10*1), R10; \
	XORL    AX, R10; \
	XORL    (DX)(R9*1), AX; \
	IMULQ   R10, AX; \
	CMPQ    AX, $1; \
	ADCQ    R15, R15

// ENTERB is ENTER for encodeLoopAsm's rounds of B, with other registers:
// u in DX, h in R8, c1 in R14, c2 in CX, link at R10 and the table just
// before it (4,096 bytes), src at SI, pos in BX, the verified set in R15
// (first position highest, as ENTER leaves it).
#define ENTERB(k, k2) \
	MOVL    k(SI)(BX*1), DX; \
	IMUL3L  $0x9e3779b1, DX, R8; \
	SHRL    $21, R8; \
	MOVWLZX -4096(R10)(R8*2), R14; \
	LEAL    k(BX), CX; \
	MOVW    CX, -4096(R10)(R8*2); \
	MOVW    R14, k2(R10)(BX*2); \
	MOVWLZX (R10)(R14*2), CX; \
	MOVL    (SI)(CX*1), CX; \
	XORL    DX, CX; \
	XORL    (SI)(R14*1), DX; \
	IMULQ   CX, DX; \
	CMPQ    DX, $1; \
	ADCQ    R15, R15

// ENTER8B enters the eight positions of B from BX on (ENTERB) and moves
// BX on.
#define ENTER8B \
	ENTERB(0, 0); \
	ENTERB(1, 2); \
	ENTERB(2, 4); \
	ENTERB(3, 6); \
	ENTERB(4, 8); \
	ENTERB(5, 10); \
	ENTERB(6, 12); \
	ENTERB(7, 14); \
	ADDQ $8, BX

// HASHROUND enters the next eight positions of B (encodeLoopAsm), from
// BX on, with its verified set in the frame; it keeps AX, R9 to R13, SI
// and DI.
#define HASHROUND \
	MOVQ 40(SP), R15; \
	ENTER8B; \
	MOVQ R15, 40(SP)

// SCAN enters position BX+k as ENTER does, with k2 = 2*k, the table at
// DI, link at R11 and src at DX, for scanGroupsAsm, and jumps to found
// where one of its candidates verifies.
#define SCAN(k, k2, found) \
	MOVL    k(DX)(BX*1), AX; \
	IMUL3L  $0x9e3779b1, AX, R8; \
	SHRL    $21, R8; \
	MOVWLZX (DI)(R8*2), R9; \
	LEAL    k(BX), R10; \
	MOVW    R10, (DI)(R8*2); \
	MOVW    R9, k2(R11)(BX*2); \
	CMPL    AX, (DX)(R9*1); \
	JEQ     found; \
	MOVWLZX (R11)(R9*2), R10; \
	CMPL    AX, (DX)(R10*1); \
	JEQ     found

// EQUAL16 sets R8 to the number of equal bytes in the 16 past p+4 (R14)
// and past c+4 (c a register other than R8 and CX), 16 for all, or to -1
// where u32(c) differs from u32(p), c not verifying (PARSE-3); it changes
// CX. encodeLoopAsm's loads stay inside src: p+20 <= matchLimit, c < p.
#define EQUAL16(c) \
	MOVQ    4(SI)(R14*1), R8; \
	XORQ    4(SI)(c*1), R8; \
	MOVQ    12(SI)(R14*1), CX; \
	XORQ    12(SI)(c*1), CX; \
	TZCNTQ  CX, CX; \
	ADDQ    $64, CX; \
	TZCNTQ  R8, R8; \
	CMPQ    R8, $64; \
	CMOVQEQ CX, R8; \
	SHRQ    $3, R8; \
	MOVL    (SI)(R14*1), CX; \
	CMPL    CX, (SI)(c*1); \
	MOVQ    $-1, CX; \
	CMOVQNE CX, R8

// REVERSE64 reverses the bits of x, bit j to bit 63-j, with t and m as
// scratch: a set that ENTER shifted in from the bottom, position k of n
// at bit n-1-k, then has it at bit 64-n+k.
#define REVERSE64(x, t, m) \
	BSWAPQ x; \
	MOVQ   $0x0f0f0f0f0f0f0f0f, m; \
	MOVQ   x, t; \
	SHRQ   $4, t; \
	ANDQ   m, t; \
	ANDQ   m, x; \
	SHLQ   $4, x; \
	ORQ    t, x; \
	MOVQ   $0x3333333333333333, m; \
	MOVQ   x, t; \
	SHRQ   $2, t; \
	ANDQ   m, t; \
	ANDQ   m, x; \
	SHLQ   $2, x; \
	ORQ    t, x; \
	MOVQ   $0x5555555555555555, m; \
	MOVQ   x, t; \
	SHRQ   $1, t; \
	ANDQ   m, t; \
	ANDQ   m, x; \
	ADDQ   x, x; \
	ORQ    t, x
