//go:build amd64 && gc && !purego

#include "textflag.h"
#include "hash_amd64.h"

// SYNC brings st.cursor and st.skipTo up to date after the matches the
// loop took since it last did: a sequence only records its offset, as
// the cursor is the anchor after a match, and skipTo follows from both
// (see CompressBlock). It leaves st in R8 and changes CX, DX and R15.
#define SYNC \
	MOVQ    st+0(FP), R8; \
	MOVQ    lim+32(FP), R15; \
	LEAQ    -4(R12), CX; \
	CMPQ    CX, 32(R15); \
	CMOVQGT 32(R15), CX; \
	MOVQ    80(SP), DX; \
	SUBQ    DX, CX; \
	SUBQ    DX, CX; \
	INCQ    CX; \
	MOVQ    R12, R15; \
	TESTQ   DX, DX; \
	CMOVQEQ 24(R8), CX; \
	CMOVQEQ 32(R8), R15; \
	MOVQ    CX, 24(R8); \
	MOVQ    R15, 32(R8); \
	MOVQ    $0, 80(SP)

// func encodeLoopAsm(st *loopState, link *uint16, dst, src *byte, lim *loopLimits)
//
// CompressBlock's loop (encode.go) for as long as it needs nothing that
// only the Go loop does: it hashes whole chunks of 64 positions (as
// hashGroupsAsm does, PARSE-1 to PARSE-3) and takes the greedy parse's
// sequences from them (PARSE-4, PARSE-5, PARSE-7). It stores its state and
// returns, with the step at hand not started, where the Go loop must take
// over: a chunk of fewer than 64 positions (the block's last), a sparse
// stretch (scan), a sequence that may not fit dst (the Go loop checks it
// exactly and reports ErrShortBuffer), or literals within 16 bytes of the
// end of src.
//
// Taking a chunk's sequences is a chain of dependent steps, hashing one
// is many independent ones: so while it takes the sequences of a chunk
// (A), the loop hashes the next (B), one round of eight positions before
// each sequence, and the CPU overlaps the two; the rounds left when A is
// done run in one loop. (Rounds of sixteen, over 200 micro-ops, issue
// hashing ahead of the sequence's own steps, and rounds of four leave
// most of B to that loop: both are 4 to 6% slower.) B starts at max(A's
// end, skipTo) as the next chunk would; a later match that moves skipTo
// past B's start only means that B entered positions that need not enter,
// which changes no candidate of a position the parse takes (see
// CompressBlock). On exit a B that was started is finished and handed to
// the Go loop as pending.
//
// The verified set of A, m, has position base+k at bit k, so TZCNT finds
// the first; TZCNT runs as BSF on CPUs without BMI1, which gives the same
// result for the nonzero operands it gets here. st.m keeps it while the
// loop runs; the loop itself holds it shifted down to the position rel,
// the cursor or the chunk's base if that is later, so that taking a
// sequence is a chain of few steps: the first set bit j gives p = rel+j
// and its candidates c1 = link[p] and c2 = link[c1] (see hashTable in
// encode.go), of which the one with the longer match is c, and once the
// match's length is known the set moves down past its end, which becomes
// rel.
//
// Registers in the parse: AX the set from rel, R9 rel (then end), R10
// link, R11 out, R12 anchor, R13 litLimit, R14 p then the offset, R15 c,
// SI src, DI dst; CX, DX and R8 are scratch. litLimit is always dstLen -
// out + anchor. A's base is st.base; BX is B's next position to hash,
// from one round to the next.
//
// The frame holds the rest of B's state: 40(SP) the verified set so far
// (complete after eight rounds; its first position highest, see ENTER),
// 48(SP) its end, base+64 (B has rounds left while BX is below it; 0 and
// BX 0 at the start), 56(SP) whether B exists, 64(SP) its base, 72(SP)
// whether the loop is exiting; 80(SP) the offset of the last match, or 0
// if there was none since st.cursor and st.skipTo were last brought up to
// date (SYNC); and, while two candidates are measured, 88(SP) c1, 96(SP)
// c2, 104(SP) and 112(SP) a length or count. 32(SP) holds matchLimit-20.
// The table lies just before link (4,096 bytes), as Encoder.tables gives
// them.
TEXT ·encodeLoopAsm(SB), NOSPLIT, $120-40
	MOVQ st+0(FP), R8
	MOVQ 0(R8), AX
	MOVQ 8(R8), R9           // base: m holds no position before the cursor
	MOVQ 40(R8), R11
	MOVQ 48(R8), R12
	MOVQ 56(R8), R13
	MOVQ link+8(FP), R10
	MOVQ dst+16(FP), DI
	MOVQ src+24(FP), SI
	MOVBQZX 88(R8), CX       // pending: B exists, hashed
	MOVQ CX, 56(SP)
	MOVQ $0, 48(SP)
	XORL BX, BX
	MOVQ 72(R8), CX
	REVERSE64(CX, DX, R15)   // 40(SP) holds the set as ENTERB builds it
	MOVQ CX, 40(SP)
	MOVQ 80(R8), CX
	MOVQ CX, 64(SP)
	MOVQ $0, 72(SP)
	MOVQ $0, 80(SP)
	MOVQ lim+32(FP), CX
	MOVQ 0(CX), CX           // matchLimit
	SUBQ $20, CX
	MOVQ CX, 32(SP)

sequence:
	CMPQ    BX, 48(SP)
	JGE     parse
	HASHROUND

parse:
	TESTQ   AX, AX
	JZ      switch
	TZCNTQ  AX, CX           // j
	LEAQ    (R9)(CX*1), R14  // p: the first verified position left
	CMPQ    R14, R13
	JGE     exitrel
	MOVWLZX (R10)(R14*2), R15 // c1
	CMPQ    R14, 32(SP)      // matchLimit-20
	JGT     slowpick
	// The set from p+4 on: no match ends before.
	SHRQ    CL, AX
	SHRQ    $4, AX
	// PARSE-3, PARSE-4: the common match ends within the 16 bytes past
	// the 4 that verified; then its length less 4 is the number of equal
	// bytes, the first differing bit of the two 8-byte differences over 8.
	// Each candidate's count, -1 where it does not verify, and the larger
	// (c1 on a tie) are found without a branch: which candidate wins is
	// as hard to predict as a coin.
	MOVWLZX (R10)(R15*2), DX // c2
	EQUAL16(R15)
	MOVQ    R8, 112(SP)      // c1's count
	EQUAL16(DX)
	MOVQ    112(SP), CX
	CMPQ    R8, CX
	CMOVQGT DX, R15
	CMOVQGT R8, CX           // matchLen less 4, 16 when it may go on
	CMPQ    CX, $16
	JEQ     long16
	SHRQ    CL, AX
	LEAQ    4(R14)(CX*1), R9 // end
	MOVQ    CX, R8

extended:
	MOVQ R14, DX
	SUBQ R12, DX             // litLen
	SUBQ R15, R14            // offset
	MOVQ lim+32(FP), CX
	CMPQ DX, $15
	JGE  long
	CMPQ R8, $15
	JGE  long
	CMPQ R11, 8(CX)          // outMax
	JGT  long
	CMPQ R12, 16(CX)         // anchorMax
	JGT  exitp

	// The common sequence: token, literals (16 bytes moved: the bytes
	// past them are overwritten next or lie past the block), offset.
	MOVQ  DX, R15
	SHLQ  $4, R15
	ORQ   R8, R15
	MOVB  R15, (DI)(R11*1)
	MOVOU (SI)(R12*1), X0
	MOVOU X0, 1(DI)(R11*1)
	LEAQ  1(R11)(DX*1), R11
	MOVW  R14, (DI)(R11*1)
	ADDQ  $2, R11

matched:
	MOVQ R9, R12             // anchor = end
	MOVQ 24(CX), R13         // dstLen
	SUBQ R11, R13
	ADDQ R12, R13
	MOVQ R14, 80(SP)         // offset, for SYNC
	JMP  sequence

slowext4:
	// Fewer than 16 bytes before matchLimit: on from p+4.
	LEAQ 4(R14), R9
	LEAQ 4(R15), DX
	MOVQ lim+32(FP), CX
	JMP  extend16

slowext20:
	// The first 16 bytes past p+4 are equal: on from p+20.
	LEAQ 20(R14), R9
	LEAQ 20(R15), DX
	MOVQ lim+32(FP), CX

extend16:
	// 16 bytes a step (a long match is some 40 bytes on average), then 8,
	// then 1.
	LEAQ     16(R9), R8
	CMPQ     R8, 0(CX)       // matchLimit
	JGT      extend8
	MOVOU    (SI)(R9*1), X0
	MOVOU    (SI)(DX*1), X1
	PCMPEQB  X1, X0
	PMOVMSKB X0, R8
	XORL     $0xffff, R8
	JNZ      extended16
	ADDQ     $16, R9
	ADDQ     $16, DX
	JMP      extend16

extended16:
	TZCNTL R8, R8
	ADDQ   R8, R9
	JMP    slowdone

extend8:
	LEAQ 8(R9), R8
	CMPQ R8, 0(CX)           // matchLimit
	JGT  extend1
	MOVQ (SI)(R9*1), R8
	XORQ (SI)(DX*1), R8
	JNZ  extended8
	ADDQ $8, R9
	ADDQ $8, DX
	JMP  extend8

extend1:
	CMPQ    R9, 0(CX)
	JGE     slowdone
	MOVBLZX (SI)(R9*1), R8
	CMPB    R8, (SI)(DX*1)
	JNE     slowdone
	INCQ    R9
	INCQ    DX
	JMP     extend1

extended8:
	TZCNTQ R8, R8
	SHRQ $3, R8
	ADDQ R8, R9

slowdone:
	// The set from end on, taken again from st.m.
	LEAQ  -4(R9), R8
	SUBQ  R14, R8            // matchLen
	MOVQ  R9, CX
	MOVQ  st+0(FP), DX
	SUBQ  8(DX), CX          // base
	XORL  AX, AX
	CMPQ  CX, $64
	JGE   extended
	MOVQ  0(DX), AX
	SHRQ  CL, AX
	JMP   extended

long16:
	// The 16 bytes past p+4 are equal: the match goes on from p+20, or
	// where both candidates' do, both are measured to their ends.
	CMPQ R8, 112(SP)
	JNE  slowext20
	MOVQ DX, 96(SP)          // c2
	JMP  bothslow

slowpick:
	// Fewer than 16 bytes before matchLimit: the candidate that verifies,
	// or both to their ends where both do.
	MOVWLZX (R10)(R15*2), DX // c2
	MOVL    (SI)(R14*1), R8
	CMPL    R8, (SI)(R15*1)
	JNE     slowpick2
	CMPL    R8, (SI)(DX*1)
	JNE     slowext4
	CMPQ    DX, R15
	JEQ     slowext4
	MOVQ    DX, 96(SP)       // c2
	JMP     bothslow

slowpick2:
	MOVQ DX, R15
	JMP  slowext4

bothslow:
	// Both candidates verify and may go on past 16 bytes, or end near
	// matchLimit: the end of each match (as extend8 and extend1 find it),
	// then the longer, c1 of two as long, on to slowdone.
	MOVQ R15, 88(SP)         // c1
	MOVQ lim+32(FP), CX
	LEAQ 4(R14), R9
	LEAQ 4(R15), DX

both1x8:
	LEAQ 8(R9), R8
	CMPQ R8, 0(CX)           // matchLimit
	JGT  both1x1
	MOVQ (SI)(R9*1), R8
	XORQ (SI)(DX*1), R8
	JNZ  both1diff
	ADDQ $8, R9
	ADDQ $8, DX
	JMP  both1x8

both1x1:
	CMPQ    R9, 0(CX)
	JGE     both1done
	MOVBLZX (SI)(R9*1), R8
	CMPB    R8, (SI)(DX*1)
	JNE     both1done
	INCQ    R9
	INCQ    DX
	JMP     both1x1

both1diff:
	TZCNTQ R8, R8
	SHRQ   $3, R8
	ADDQ   R8, R9

both1done:
	MOVQ R9, 104(SP)         // c1's end
	LEAQ 4(R14), R9
	MOVQ 96(SP), DX
	ADDQ $4, DX

both2x8:
	LEAQ 8(R9), R8
	CMPQ R8, 0(CX)           // matchLimit
	JGT  both2x1
	MOVQ (SI)(R9*1), R8
	XORQ (SI)(DX*1), R8
	JNZ  both2diff
	ADDQ $8, R9
	ADDQ $8, DX
	JMP  both2x8

both2x1:
	CMPQ    R9, 0(CX)
	JGE     both2done
	MOVBLZX (SI)(R9*1), R8
	CMPB    R8, (SI)(DX*1)
	JNE     both2done
	INCQ    R9
	INCQ    DX
	JMP     both2x1

both2diff:
	TZCNTQ R8, R8
	SHRQ   $3, R8
	ADDQ   R8, R9

both2done:
	MOVQ 96(SP), R15
	CMPQ R9, 104(SP)
	JGT  slowdone
	MOVQ 104(SP), R9
	MOVQ 88(SP), R15
	JMP  slowdone

switch:
	// A is done: finish B and take it, or hash a chunk if there is none.
	CMPQ 56(SP), $0
	JEQ  refill

finish:
	// B's rounds left, in one loop.
	CMPQ BX, 48(SP)
	JGE  finished
	MOVQ 40(SP), R15

finishround:
	ENTER8B
	CMPQ BX, 48(SP)
	JLT  finishround
	MOVQ R15, 40(SP)

finished:
	CMPQ 72(SP), $0
	JNE  exitpending
	SYNC
	// As refill would: no chunk once max(next, skipTo) reaches litLimit.
	MOVQ    16(R8), CX
	CMPQ    CX, 24(R8)
	CMOVQLT 24(R8), CX
	CMPQ    CX, R13
	JGE     exit
	// A = B.
	MOVQ    64(SP), R9
	MOVQ    40(SP), AX
	REVERSE64(AX, CX, DX)
	MOVQ    $0, 56(SP)
	MOVQ    AX, 0(R8)        // m
	MOVQ    R9, 8(R8)        // base
	LEAQ    64(R9), CX
	MOVQ    CX, 16(R8)       // next
	XORL    DX, DX
	TESTQ   AX, AX
	SETEQ   DX
	MOVB    DX, 64(R8)       // sparse
	JEQ     taken
	// A new B at max(next, skipTo), if refill would hash a chunk there.
	CMPQ    CX, 24(R8)
	CMOVQLT 24(R8), CX
	CMPQ    CX, R13
	JGE     taken
	MOVQ    lim+32(FP), DX
	CMPQ    CX, 40(DX)       // fullChunk
	JGT     taken
	MOVQ    CX, BX
	MOVQ    CX, 64(SP)
	MOVQ    $0, 40(SP)
	ADDQ    $64, CX
	MOVQ    CX, 48(SP)
	MOVQ    $1, 56(SP)

taken:
	// m keeps the positions from cursor on: rel = max(cursor, base).
	MOVQ    32(R8), CX
	SUBQ    R9, CX
	JLE     sequence
	CMPQ    CX, $64
	JGE     emptied
	SHRQ    CL, AX
	ADDQ    CX, R9
	JMP     sequence

emptied:
	XORQ AX, AX
	JMP  sequence

refill:
	// The next chunk starts at max(next, skipTo); only whole chunks, and
	// not after a sparse one. It is hashed as B, then taken.
	SYNC
	MOVQ    16(R8), CX
	CMPQ    CX, 24(R8)
	CMOVQLT 24(R8), CX
	CMPQ    CX, R13
	JGE     exit
	MOVQ    lim+32(FP), DX
	CMPQ    CX, 40(DX)       // fullChunk
	JGT     exit
	CMPB    64(R8), $0       // sparse
	JNE     exit
	MOVQ    CX, BX
	MOVQ    CX, 64(SP)
	MOVQ    $0, 40(SP)
	ADDQ    $64, CX
	MOVQ    CX, 48(SP)
	MOVQ    $1, 56(SP)
	JMP     finish

long:
	// A literal or match length of 15 or more, or little room left: with
	// out + 21 + litLen + litLen/128 + matchLen/128 at most dstLen, the
	// sequence and a 16-byte move past its literals fit (PARSE-7).
	CMPQ R12, 16(CX)         // anchorMax
	JGT  exitp
	MOVQ DX, R15
	SHRQ $7, R15
	ADDQ DX, R15
	MOVQ R8, R13
	SHRQ $7, R13
	ADDQ R13, R15
	LEAQ 21(R11)(R15*1), R15
	CMPQ R15, 24(CX)         // dstLen
	JGT  exitp
	// token
	MOVQ    $15, R15
	MOVQ    DX, CX
	CMPQ    CX, R15
	CMOVQGT R15, CX
	SHLQ    $4, CX
	MOVQ    R8, R13
	CMPQ    R13, R15
	CMOVQGT R15, R13
	ORQ     R13, CX
	MOVB    CX, (DI)(R11*1)
	INCQ    R11
	CMPQ    DX, $15
	JLT     literals
	LEAQ    -15(DX), R13

litlen:
	CMPQ R13, $255
	JLT  litlenlast
	MOVB $255, (DI)(R11*1)
	INCQ R11
	SUBQ $255, R13
	JMP  litlen

litlenlast:
	MOVB R13, (DI)(R11*1)
	INCQ R11

literals:
	// 16 bytes at a time; more than 16 end with the 16 that end at p,
	// so that no load passes p.
	LEAQ  (SI)(R12*1), CX
	LEAQ  (DI)(R11*1), R13
	ADDQ  DX, R11
	MOVQ  DX, R15
	CMPQ  R15, $16
	JGT   lit16
	MOVOU (CX), X0
	MOVOU X0, (R13)
	JMP   offset

lit16:
	MOVOU (CX), X0
	MOVOU X0, (R13)
	ADDQ  $16, CX
	ADDQ  $16, R13
	SUBQ  $16, R15
	CMPQ  R15, $16
	JGT   lit16
	MOVOU -16(CX)(R15*1), X0
	MOVOU X0, -16(R13)(R15*1)

offset:
	MOVW R14, (DI)(R11*1)
	ADDQ $2, R11
	CMPQ R8, $15
	JLT  longdone
	LEAQ -15(R8), R13

matchlen:
	CMPQ R13, $255
	JLT  matchlenlast
	MOVB $255, (DI)(R11*1)
	INCQ R11
	SUBQ $255, R13
	JMP  matchlen

matchlenlast:
	MOVB R13, (DI)(R11*1)
	INCQ R11

longdone:
	MOVQ lim+32(FP), CX
	JMP  matched

exitrel:
	// A sequence not started: the set back to bits from base.
	MOVQ R9, CX
	MOVQ st+0(FP), R8
	SUBQ 8(R8), CX           // base
	SHLQ CL, AX
	JMP  exit

exitp:
	// A sequence not finished, at p = anchor + litLen: st.m from p on.
	MOVQ st+0(FP), R8
	MOVQ 0(R8), AX
	LEAQ (R12)(DX*1), CX
	SUBQ 8(R8), CX           // base
	MOVQ $-1, R15
	SHLQ CL, R15
	ANDQ R15, AX

exit:
	SYNC
	MOVQ AX, 0(R8)
	MOVQ R11, 40(R8)
	MOVQ R12, 48(R8)
	MOVQ lim+32(FP), CX
	MOVQ 24(CX), R13
	SUBQ R11, R13
	ADDQ R12, R13
	MOVQ R13, 56(R8)
	MOVB $0, 88(R8)          // pending
	CMPQ 56(SP), $0
	JEQ  done
	// B goes to the Go loop, hashed to its end.
	MOVQ $1, 72(SP)
	JMP  finish

exitpending:
	MOVQ st+0(FP), R8
	MOVB $1, 88(R8)
	MOVQ 40(SP), CX
	REVERSE64(CX, AX, DX)
	MOVQ CX, 72(R8)          // bM
	MOVQ 64(SP), CX
	MOVQ CX, 80(R8)          // bBase

done:
	RET
