// ENTER enters position pos+k (k from 1 to 7) of the chunk being hashed,
// as hashGroupsAsm does for each of eight positions a round: u = the word at pos+k goes to AX, h = hash(u) (PARSE-1) to R8, the
// candidate c = table[h] to R9 and to the operand cand, the table takes
// pos+k (through posk, PARSE-2), and u XOR the word at c, 0 exactly when c
// verifies (PARSE-3), becomes the carry flag through CMPL $1, which RCRQ
// shifts into R15 from the top.
#define ENTER(k, src, table, pos, posk, cand) \
	MOVL    k(src)(pos*1), AX; \
	IMUL3L  $0x9e3779b1, AX, R8; \
	SHRL    $20, R8; \
	MOVWLZX (table)(R8*2), R9; \
	LEAQ    k(pos), posk; \
	MOVW    posk, (table)(R8*2); \
	MOVW    R9, cand; \
	XORL    (src)(R9*1), AX; \
	CMPL    AX, $1; \
	RCRQ    $1, R15

// ENTERB is ENTER for encodeLoopAsm's rounds of B, with other registers:
// u in DX, h in R8, c in R14, pos+k in CX, the table at R13, pos in BX,
// the verified set in R15.
#define ENTERB(k, cand) \
	MOVL    k(SI)(BX*1), DX; \
	IMUL3L  $0x9e3779b1, DX, R8; \
	SHRL    $20, R8; \
	MOVWLZX (R13)(R8*2), R14; \
	LEAQ    k(BX), CX; \
	MOVW    CX, (R13)(R8*2); \
	MOVW    R14, cand; \
	XORL    (SI)(R14*1), DX; \
	CMPL    DX, $1; \
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
	ENTERB(1, 2(R12)); \
	ENTERB(2, 4(R12)); \
	ENTERB(3, 6(R12)); \
	ENTERB(4, 8(R12)); \
	ENTERB(5, 10(R12)); \
	ENTERB(6, 12(R12)); \
	ENTERB(7, 14(R12)); \
	ENTERB(8, 16(R12)); \
	ENTERB(9, 18(R12)); \
	ENTERB(10, 20(R12)); \
	ENTERB(11, 22(R12)); \
	ENTERB(12, 24(R12)); \
	ENTERB(13, 26(R12)); \
	ENTERB(14, 28(R12)); \
	ENTERB(15, 30(R12)); \
	ADDQ $16, BX; \
	ADDQ $32, R12; \
	MOVQ R12, 32(SP); \
	MOVQ R15, 40(SP); \
	DECQ 48(SP); \
	MOVQ 0(SP), R12; \
	MOVQ 8(SP), R13
