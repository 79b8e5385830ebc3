// ENTER enters position pos+k (k from 1 to 7) of the chunk being hashed,
// as hashGroupsAsm and encodeLoopAsm do for each of eight positions a
// round: u = the word at pos+k goes to AX, h = hash(u) (PARSE-1) to R8, the
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
