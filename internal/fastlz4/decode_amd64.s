//go:build amd64 && gc && !purego

#include "go_asm.h"
#include "textflag.h"

// decodeFast decodes whole sequences of an LZ4 block while they start with
// room on both sides, and returns where it stopped.
//
// Invariant, on which its safety rests:
//   - Entry needs const_fastSrcRoom (19) bytes of src and const_fastDstRoom
//     (38) bytes of dst left. A sequence starting with that much room takes
//     the main path; one with less takes the tight path, which checks each
//     read and write against the ends and copies literals exactly.
//   - Loads from src stay below its end: the token, 16 bytes of short
//     literals, and the two bytes after a short run's offset (the next
//     token, or a match's first length byte and the byte after it) lie
//     within the 19 bytes of room, as does the first length byte of a long
//     run of literals; any other length byte is checked before it is read;
//     long literals are copied only when 16 bytes of src (their offset and
//     the 16-byte move's overrun) follow them, 32 where their first length
//     byte is under 255 (then the match's first length byte is inside
//     these too), and the tight path checks its literals and offset
//     against the end.
//   - Stores to dst stay at or after the sequence's output position and
//     below the end of dst: short literals store 16 bytes and a match of
//     up to 18 bytes at an offset of 8 or more at most 18, together at most
//     32 bytes into the room; long literals are copied only when 16 bytes
//     of dst follow them (32 where their first length byte is under 255,
//     and then their match may take the short one's 18 bytes), so that
//     every match starts 16 bytes or more before the end of dst; any other
//     match is checked to fit, and either has 32 bytes of dst after it for
//     the stores that run past it (64 for a long match from the main path,
//     whose first 64 bytes are moved whatever its length) or is copied
//     with stores that end exactly at its end (one 16-byte move when it is
//     16 bytes or shorter and 16 bytes of dst follow its start, one byte
//     at a time near the end of dst); literals of 15 or more without 16
//     bytes of src and of dst after them are copied with moves that end
//     exactly at their end.
//   - Loads from dst stay at or after its start (offset <= output position,
//     checked) and below its end: a match source starts before the match
//     and is loaded in pieces of 1 to 16 bytes, none reaching further than
//     the match's own stores.
//   - A sequence is decoded whole, with every check of
//     reference.DecompressBlock passing on it, or not at all: on a zero
//     offset, an offset past the output, a length above MaxLengthField, or a
//     sequence that does not fit as above, it returns the position of the
//     sequence's start, and the caller's checks take it from there. The
//     last sequence, literals that end src exactly, is decoded only where
//     the literals are copied exactly (the tight path, or literals_exact
//     for 15 or more), which then returns last = true, so that a page
//     decoded whole does not leave its last sequences to the caller. Bytes stored into dst beyond the returned
//     position are not part of the output, which DecompressBlock permits.
//
// Registers:
//   SI, DI  src and dst positions      R14, R9  the sequence's start in src and dst
//   R8      &dst[0]                    R10, R11 the ends of dst and src
//   R12     last main-path start in src  R13    last start in dst
//   AX, BX, CX, DX, X0-X3 scratch
// The main path keeps the sequence's start in SI and DI while it may
// return it, and uses R9 and R14 for the bytes it loads ahead.

// func decodeFast(dst, src []byte, in, out int) (nin, nout int, last bool)
TEXT ·decodeFast(SB), NOSPLIT, $0-81
	MOVQ dst_base+0(FP), R8
	MOVQ dst_len+8(FP), R10
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), R11
	MOVQ in+48(FP), AX
	MOVQ out+56(FP), DI

	// Return at once unless both rooms hold at the first sequence, so that
	// the limits below cannot wrap around, and unless dst lies at 64 KiB
	// or above, so that no match source (the output position less an
	// offset below 64 KiB) can wrap around either.
	CMPQ R8, $0x10000
	JCS  early
	MOVQ R11, CX
	SUBQ AX, CX
	CMPQ CX, $const_fastSrcRoom
	JLT  early
	MOVQ R10, CX
	SUBQ DI, CX
	CMPQ CX, $const_fastDstRoom
	JLT  early

	ADDQ R8, R10
	ADDQ SI, R11
	ADDQ AX, SI
	ADDQ R8, DI
	LEAQ -const_fastSrcRoom(R11), R12
	LEAQ -const_fastDstRoom(R10), R13

	// PCALIGN $64 also aligns the function to 64 bytes, so that where
	// the hot loop falls in the fetch windows does not depend on the code
	// linked before it.
	PCALIGN $64

loop:
	CMPQ    DI, R13
	JHI     tight
	CMPQ    SI, R12
	JHI     tight
	MOVBQZX (SI), DX

	// The main path, with the token of the sequence at SI in DX and both
	// rooms checked. It loads the next sequence's token before it copies
	// this one's match, so that the chain from token to token is a load,
	// a shift and an add, and carries it into the next turn in DX. SI and
	// DI stay at the sequence's start until its literals are read; R9 and
	// R14 are free here.
main:
	MOVQ    DX, CX
	SHRQ    $4, CX   // literal length
	ANDQ    $15, DX  // match length - minMatch
	CMPQ    CX, $15
	JEQ     main_long_literals

	// 0 to 14 literals: one 16-byte move, then the offset. The two bytes
	// after the offset, inside the 19 bytes of room, are the next token
	// (R9) or, after a long match's first length byte (R9), the next
	// token when that byte ends the length (R14).
	MOVOU   1(SI), X0
	MOVOU   X0, (DI)
	MOVWQZX 1(SI)(CX*1), AX
	LEAQ    3(SI)(CX*1), SI
	MOVBQZX (SI), R9
	MOVBQZX 1(SI), R14
	ADDQ    CX, DI
	MOVQ    DI, BX
	SUBQ    AX, BX           // match source
	CMPQ    BX, R8
	JCS     main_bail        // offset > output position
	CMPQ    AX, $8
	JCS     main_short_offset // or offset 0
	CMPQ    DX, $15
	JEQ     main_long_match

main_match:
	CMPQ    DX, $12
	JHI     main_match18

	// A match of 4 to 16 bytes at an offset of 8 or more: two 8-byte
	// moves, the second ending at the match's end (or repeating the first
	// for 8 bytes or fewer), each reading only bytes stored before it.
	// Loads that reach past the match, into bytes that recent stores are
	// still writing, wait for them: these read no more than they must.
	LEAQ    matchTail<>(SB), CX
	MOVBQZX (CX)(DX*1), CX
	MOVQ    (BX), AX
	MOVQ    AX, (DI)
	MOVQ    (BX)(CX*1), AX
	MOVQ    AX, (DI)(CX*1)
	LEAQ    const_minMatch(DI)(DX*1), DI
	MOVQ    R9, DX

	// The next sequence, its token in DX.
next:
	CMPQ DI, R13
	JHI  tight
	CMPQ SI, R12
	JLS  main
	JMP  tight

	// 17 or 18 bytes at an offset of 8 or more: moves of 8, 8 and 2 bytes.
main_match18:
	MOVQ    (BX), AX
	MOVQ    AX, (DI)
	MOVQ    8(BX), AX
	MOVQ    AX, 8(DI)
	MOVWQZX 16(BX), AX
	MOVW    AX, 16(DI)
	LEAQ    const_minMatch(DI)(DX*1), DI
	MOVQ    R9, DX
	JMP     next

	// A match of 4 to 18 bytes at an offset of 1 to 7 (the offset checked
	// above is not 0): with 32 bytes of dst, one period shuffled out to 32
	// bytes and stored at once, as at pattern_load.
main_short_offset:
	TESTQ  AX, AX
	JEQ    main_bail // offset 0
	CMPQ   DX, $15
	JEQ    main_long_match_slow
	LEAQ   32(DI), R14
	CMPQ   R14, R10
	JHI    main_short_offset_slow
	SHLQ   $5, AX
	LEAQ   patternMasks<>(SB), R14
	MOVOU  (BX), X0
	MOVOU  X0, X1
	MOVOU  (R14)(AX*1), X2
	MOVOU  16(R14)(AX*1), X3
	PSHUFB X2, X0
	PSHUFB X3, X1
	MOVOU  X0, (DI)
	MOVOU  X1, 16(DI)
	LEAQ   const_minMatch(DI)(DX*1), DI
	MOVQ   R9, DX
	JMP    next

	// A match of 19 bytes or more, its first length byte in R9 and the
	// byte after it in R14. At an offset of 32 or more, under 255 and with
	// 64 bytes of dst after it, its first 64 bytes take four 16-byte moves
	// with no branch on the length (most such matches are 64 bytes or
	// shorter), and match_far_copy the rest.
main_long_match:
	CMPQ  R9, $255
	JEQ   main_long_match_slow
	CMPQ  AX, $32
	JCS   main_long_match_slow
	LEAQ  (15+const_minMatch)(R9), DX
	LEAQ  64(DI)(DX*1), R9
	CMPQ  R9, R10
	JHI   main_long_match_slow
	MOVOU (BX), X0
	MOVOU X0, (DI)
	MOVOU 16(BX), X1
	MOVOU X1, 16(DI)
	MOVOU 32(BX), X0
	MOVOU X0, 32(DI)
	MOVOU 48(BX), X1
	MOVOU X1, 48(DI)
	INCQ  SI
	CMPQ  DX, $64
	JHI   main_long_rest
	ADDQ  DX, DI
	MOVQ  R14, DX
	JMP   next

main_long_rest:
	LEAQ (DI)(DX*1), DX // end of the match
	ADDQ $64, BX
	ADDQ $64, DI
	JMP  match_far_copy

	// Where the main path leaves a sequence to the paths below, these
	// expect R14 and R9 to hold its start, and bail returns to it.
main_bail:
	SUBQ CX, DI
	SUBQ CX, SI
	SUBQ $3, SI
	JMP  done

	// 15 to 48 literals, with 48 bytes of src and of dst after them
	// (which hold the offset, the bytes loaded ahead and the overrun):
	// three 16-byte moves with no branch on the length, then, for a
	// match of up to 16 bytes at an offset of 8 or more, the main path
	// from main_match. The checks come before SI and DI move, so that
	// done returns the sequence's start. Any other sequence goes to
	// long_literals.
main_long_literals:
	MOVBQZX 1(SI), CX
	CMPQ    CX, $255
	JEQ     main_long_literals_slow
	ADDQ    $15, CX
	CMPQ    CX, $48
	JHI     main_long_literals_slow
	LEAQ    50(SI)(CX*1), AX
	CMPQ    AX, R11
	JHI     main_long_literals_slow
	LEAQ    48(DI)(CX*1), AX
	CMPQ    AX, R10
	JHI     main_long_literals_slow
	CMPQ    DX, $15
	JEQ     main_long_literals_slow
	MOVWQZX 2(SI)(CX*1), AX
	LEAQ    (DI)(CX*1), BX
	SUBQ    AX, BX
	JCS     done
	CMPQ    BX, R8
	JCS     done // offset > output position
	CMPQ    AX, $8
	JCS     main_long_literals_slow // or offset 0
	MOVOU   2(SI), X0
	MOVOU   18(SI), X1
	MOVOU   34(SI), X2
	MOVOU   X0, (DI)
	MOVOU   X1, 16(DI)
	MOVOU   X2, 32(DI)
	MOVBQZX 4(SI)(CX*1), R9
	LEAQ    4(SI)(CX*1), SI
	ADDQ    CX, DI
	JMP     main_match

main_long_literals_slow:
	MOVL $15, CX
	MOVQ SI, R14
	MOVQ DI, R9
	JMP  long_literals

main_long_match_slow:
	MOVL $15, DX
	LEAQ -3(SI), R14
	SUBQ CX, R14
	MOVQ DI, R9
	SUBQ CX, R9
	JMP  long_match_first

main_short_offset_slow:
	LEAQ -3(SI), R14
	SUBQ CX, R14
	MOVQ DI, R9
	SUBQ CX, R9
	JMP  short_offset

	// The offset AX, read after long literals; DX the match length field;
	// the first length byte, if any, at SI, and 18 bytes of dst at DI.
main_offset:
	MOVQ    DI, BX
	SUBQ    AX, BX   // match source
	JCS     bail
	CMPQ    BX, R8
	JCS     bail     // offset > output position
	TESTQ   AX, AX
	JEQ     bail     // offset 0
	CMPQ    DX, $15
	JEQ     long_match_first
	CMPQ    AX, $8
	JCS     short_offset
	MOVQ    (BX), AX
	MOVQ    AX, (DI)
	MOVQ    8(BX), AX
	MOVQ    AX, 8(DI)
	MOVWQZX 16(BX), AX
	MOVW    AX, 16(DI)
	LEAQ    const_minMatch(DI)(DX*1), DI
	JMP     loop

short_offset:
	LEAQ const_minMatch(DX), CX
	JMP  match

	// A match of 19 bytes or more after long literals, or of the main
	// path's that main_long_match leaves: its first length byte at SI.
long_match_first:
	MOVBQZX (SI), CX
	CMPQ    CX, $255
	JEQ     long_match
	INCQ    SI
	ADDQ    $(15+const_minMatch), CX
	JMP     match

	// Fewer than 19 bytes of src or 38 of dst left: literals are copied
	// exactly, with moves that overlap (15 or more at literal_length), and
	// a match that ends near the end of dst is copied by match_bytes.
tight:
	CMPQ    SI, R11
	JCC     done
	MOVQ    SI, R14
	MOVQ    DI, R9
	MOVBQZX (SI), DX
	MOVQ    DX, CX
	SHRQ    $4, CX
	ANDQ    $15, DX
	CMPQ    CX, $15
	JEQ     tight_long_literals
	LEAQ    1(SI)(CX*1), AX // end of the literals in src
	CMPQ    AX, R11
	JHI     bail
	LEAQ    (DI)(CX*1), BX  // end of the literals in dst
	CMPQ    BX, R10
	JHI     bail
	CMPQ    CX, $8
	JCS     tight_literals4
	MOVQ    1(SI), BX
	MOVQ    BX, (DI)
	MOVQ    -8(AX), BX
	MOVQ    BX, -8(DI)(CX*1)
	JMP     tight_literals_done

tight_literals4:
	CMPQ CX, $4
	JCS  tight_literals2
	MOVL 1(SI), BX
	MOVL BX, (DI)
	MOVL -4(AX), BX
	MOVL BX, -4(DI)(CX*1)
	JMP  tight_literals_done

tight_literals2:
	CMPQ    CX, $2
	JCS     tight_literals1
	MOVWLZX 1(SI), BX
	MOVW    BX, (DI)
	MOVWLZX -2(AX), BX
	MOVW    BX, -2(DI)(CX*1)
	JMP     tight_literals_done

tight_literals1:
	TESTQ   CX, CX
	JEQ     tight_literals_done
	MOVBLZX 1(SI), BX
	MOVB    BX, (DI)

tight_literals_done:
	MOVQ AX, SI
	ADDQ CX, DI

literals_done:
	CMPQ SI, R11
	JEQ  last        // literals only: the last sequence
	LEAQ 2(SI), AX
	CMPQ AX, R11
	JHI  bail
	MOVWQZX (SI), AX
	ADDQ    $2, SI
	JMP     offset

	// 15 or more literals, from the main path: the first length byte lies
	// inside the room. Under 255, with 32 bytes of src and of dst after
	// the literals, the first 32 bytes take two 16-byte moves with no
	// branch on the length (most runs are 32 bytes or shorter), and the
	// sequence goes on at main_offset; without that room, at literal_room.
long_literals:
	MOVBQZX 1(SI), AX
	CMPQ    AX, $255
	JEQ     long_literals_run
	ADDQ    AX, CX
	ADDQ    $2, SI
	LEAQ    32(SI)(CX*1), AX
	CMPQ    AX, R11
	JHI     literal_room
	LEAQ    32(DI)(CX*1), AX
	CMPQ    AX, R10
	JHI     literal_room
	MOVOU   (SI), X0
	MOVOU   16(SI), X1
	MOVOU   X0, (DI)
	MOVOU   X1, 16(DI)
	CMPQ    CX, $32
	JHI     long_literals_rest
	MOVWQZX (SI)(CX*1), AX
	LEAQ    2(SI)(CX*1), SI
	ADDQ    CX, DI
	JMP     main_offset

long_literals_rest:
	LEAQ (DI)(CX*1), BX // end of the literals in dst
	SUBQ DI, SI         // SI holds the distance from dst to src
	ADDQ $32, DI

long_literal_copy:
	MOVOU (SI)(DI*1), X0
	MOVOU X0, (DI)
	ADDQ  $16, DI
	CMPQ  DI, BX
	JCS   long_literal_copy
	MOVQ  BX, DI
	ADDQ  DI, SI
	MOVWQZX (SI), AX
	ADDQ    $2, SI
	JMP     main_offset

long_literals_run:
	INCQ SI

literal_length:
	CMPQ    SI, R11
	JCC     bail
	MOVBQZX (SI), AX
	INCQ    SI
	ADDQ    AX, CX
	CMPQ    AX, $255
	JEQ     literal_length
	CMPQ    CX, $const_MaxLengthField
	JHI     bail

	// CX literals at SI, with or without room after them.
literal_room:
	LEAQ    16(SI)(CX*1), AX
	CMPQ    AX, R11
	JHI     literals_exact
	LEAQ    16(DI)(CX*1), AX
	CMPQ    AX, R10
	JHI     literals_exact

	// Copy 16 bytes at a time up to the end of the literals, rounded up.
	LEAQ (DI)(CX*1), BX // end of the literals in dst
	SUBQ DI, SI         // SI holds the distance from dst to src

literal_copy:
	MOVOU (SI)(DI*1), X0
	MOVOU X0, (DI)
	ADDQ  $16, DI
	CMPQ  DI, BX
	JCS   literal_copy
	MOVQ  BX, DI
	ADDQ  DI, SI

	MOVWQZX (SI), AX
	ADDQ    $2, SI

	// The offset AX, read; DX the match length field.
offset:
	MOVQ  DI, BX
	SUBQ  AX, BX
	JCS   bail
	CMPQ  BX, R8
	JCS   bail
	TESTQ AX, AX
	JEQ   bail
	LEAQ  const_minMatch(DX), CX
	CMPQ  DX, $15
	JNE   match

long_match:
	CMPQ    SI, R11
	JCC     bail
	MOVBQZX (SI), CX
	INCQ    SI
	ADDQ    CX, DX
	CMPQ    CX, $255
	JEQ     long_match
	CMPQ    DX, $const_MaxLengthField
	JHI     bail
	LEAQ    const_minMatch(DX), CX

	// A match of CX bytes from BX at offset AX. The main path and long
	// literals leave 16 bytes of dst from DI (at most 14 + 16 literals
	// into the room of 38, or 16 bytes of dst after long literals); from
	// the tight path, a match may end near the end of dst, and one without
	// room for the moves below goes to match_bytes.
match:
	LEAQ (DI)(CX*1), DX // end of the match
	CMPQ DX, R10
	JHI  bail
	CMPQ AX, $16
	JCS  pattern
	CMPQ CX, $16
	JHI  match_long

	// Up to 16 bytes at an offset of 16 or more: one 16-byte move.
	LEAQ  16(DI), CX
	CMPQ  CX, R10
	JHI   match_bytes
	MOVOU (BX), X0
	MOVOU X0, (DI)
	MOVQ  DX, DI
	JMP   loop

	// More than 16 bytes at an offset of 16 to 31, with 32 bytes of dst
	// after them: one period of the pattern with two 16-byte moves, then
	// its first 32 bytes (X0, X1) stored every offset bytes. Loads right
	// behind recent stores wait for them; these do so once per match.
match_long:
	CMPQ  AX, $32
	JCC   match_far
	LEAQ  32(DX), CX
	CMPQ  CX, R10
	JHI   match_far
	MOVOU (BX), X0
	MOVOU -16(BX)(AX*1), X1
	MOVOU X0, (DI)
	MOVOU X1, -16(DI)(AX*1)
	MOVOU 16(BX), X1
	ADDQ  AX, DI
	CMPQ  DI, DX
	JCC   match_tile_done

match_tile:
	MOVOU X0, (DI)
	MOVOU X1, 16(DI)
	ADDQ  AX, DI
	CMPQ  DI, DX
	JCS   match_tile

match_tile_done:
	MOVQ DX, DI
	JMP  loop

	// Reached with more than 16 bytes at an offset of 32 or more, or of 16
	// or more without 32 bytes of dst after them (these go on to
	// match_exact). With those 32 bytes: 32 bytes a step, whose loads read
	// bytes stored before it; most such matches take one step, without a
	// loop branch to miss.
match_far:
	LEAQ 32(DX), CX
	CMPQ CX, R10
	JHI  match_exact

match_far_copy:
	MOVOU (BX), X0
	MOVOU 16(BX), X1
	MOVOU X0, (DI)
	MOVOU X1, 16(DI)
	ADDQ  $32, BX
	ADDQ  $32, DI
	CMPQ  DI, DX
	JCS   match_far_copy
	MOVQ  DX, DI
	JMP   loop

	// More than 16 bytes at an offset of 16 or more: 16-byte moves, each
	// reading bytes stored before it, then the last 16 bytes of the match.
match_exact:
	LEAQ -16(DX), CX

match_long_copy:
	MOVOU (BX), X0
	MOVOU X0, (DI)
	ADDQ  $16, BX
	ADDQ  $16, DI
	CMPQ  DI, CX
	JCS   match_long_copy
	MOVQ  CX, BX
	SUBQ  AX, BX
	MOVOU (BX), X0
	MOVOU X0, (CX)
	MOVQ  DX, DI
	JMP   loop

	// Offset 1 to 15: X0 and X1 hold the next 32 bytes of the repeating
	// pattern, shuffled out of the offset bytes before DI, and are stored
	// every step bytes (the largest multiple of the offset up to 32).
	// Without 32 bytes of dst after the match, the match must be 32 bytes
	// or longer, for the copies from s bytes back below.
pattern:
	LEAQ 32(DX), CX
	CMPQ CX, R10
	JLS  pattern_load
	LEAQ -32(DX), CX
	CMPQ DI, CX
	JHI  match_bytes

pattern_load:
	MOVOU   (BX), X0 // the pattern, then up to 15 bytes the shuffles ignore
	MOVOU   X0, X1
	MOVQ    AX, CX
	SHLQ    $5, CX
	LEAQ    patternMasks<>(SB), BX
	MOVOU   (BX)(CX*1), X2
	MOVOU   16(BX)(CX*1), X3
	PSHUFB  X2, X0
	PSHUFB  X3, X1
	LEAQ    patternSteps<>(SB), BX
	MOVBQZX (BX)(AX*1), BX
	LEAQ    32(DX), CX
	CMPQ    CX, R10
	JHI     pattern_tight

pattern_store:
	MOVOU X0, (DI)
	MOVOU X1, 16(DI)
	ADDQ  BX, DI
	CMPQ  DI, DX
	JCS   pattern_store
	MOVQ  DX, DI
	JMP   loop

	// Store 32 bytes at a time while they end within the match; then
	// copy 16-byte pieces of the pattern from s bytes back (s a multiple
	// of the offset, 16 to 30), the last ending at the end of the match.
pattern_tight:
	LEAQ -32(DX), CX

pattern_tight_store:
	MOVOU X0, (DI)
	MOVOU X1, 16(DI)
	ADDQ  BX, DI
	CMPQ  DI, CX
	JLS   pattern_tight_store
	LEAQ    patternBack<>(SB), BX
	MOVBQZX (BX)(AX*1), BX
	LEAQ    -16(DX), CX
	CMPQ    DI, CX
	JCC     pattern_last
	MOVQ    DI, AX
	SUBQ    BX, AX
	MOVOU   (AX), X0
	MOVOU   X0, (DI)

pattern_last:
	MOVQ  CX, AX
	SUBQ  BX, AX
	MOVOU (AX), X0
	MOVOU X0, (CX)
	MOVQ  DX, DI
	JMP   loop

	// 15 or more literals from the tight path: their length from SI+1 on.
tight_long_literals:
	INCQ SI
	JMP  literal_length

	// CX literals (15 or more) at SI without 16 bytes of src or of dst
	// after them: moves that end exactly at their end, then the sequence
	// goes on as the tight path's.
literals_exact:
	LEAQ (SI)(CX*1), AX // end of the literals in src
	CMPQ AX, R11
	JHI  bail
	LEAQ (DI)(CX*1), BX // end of the literals in dst
	CMPQ BX, R10
	JHI  bail
	CMPQ CX, $16
	JCS  literals_exact15
	MOVOU -16(AX), X1
	LEAQ  -16(BX), CX

literals_exact_copy:
	MOVOU (SI), X0
	MOVOU X0, (DI)
	ADDQ  $16, SI
	ADDQ  $16, DI
	CMPQ  DI, CX
	JCS   literals_exact_copy
	MOVOU X1, (CX)
	MOVQ  AX, SI
	MOVQ  BX, DI
	JMP   literals_done

literals_exact15:
	MOVQ (SI), X0
	MOVQ -8(AX), X1
	MOVQ X0, (DI)
	MOVQ X1, -8(BX)
	MOVQ AX, SI
	MOVQ BX, DI
	JMP  literals_done

	// A short match near the end of dst, one byte at a time: each load
	// reads a byte stored before it, and the stores end at the match's
	// end (DX). The canonical parse puts the last match here once a page.
match_bytes:
	MOVBLZX (BX), CX
	MOVB    CX, (DI)
	INCQ    BX
	INCQ    DI
	CMPQ    DI, DX
	JCS     match_bytes
	JMP     loop

bail:
	MOVQ R14, SI
	MOVQ R9, DI

done:
	SUBQ src_base+24(FP), SI
	SUBQ R8, DI
	MOVQ SI, nin+64(FP)
	MOVQ DI, nout+72(FP)
	MOVB $0, last+80(FP)
	RET

last:
	SUBQ src_base+24(FP), SI
	SUBQ R8, DI
	MOVQ SI, nin+64(FP)
	MOVQ DI, nout+72(FP)
	MOVB $1, last+80(FP)
	RET

early:
	MOVQ AX, nin+64(FP)
	MOVQ DI, nout+72(FP)
	MOVB $0, last+80(FP)
	RET

// patternMasks holds, for each offset d from 1 to 15, the PSHUFB masks
// i mod d for i in 0..15 and in 16..31.
DATA patternMasks<>+32(SB)/8, $0x0000000000000000
DATA patternMasks<>+40(SB)/8, $0x0000000000000000
DATA patternMasks<>+48(SB)/8, $0x0000000000000000
DATA patternMasks<>+56(SB)/8, $0x0000000000000000
DATA patternMasks<>+64(SB)/8, $0x0100010001000100
DATA patternMasks<>+72(SB)/8, $0x0100010001000100
DATA patternMasks<>+80(SB)/8, $0x0100010001000100
DATA patternMasks<>+88(SB)/8, $0x0100010001000100
DATA patternMasks<>+96(SB)/8, $0x0100020100020100
DATA patternMasks<>+104(SB)/8, $0x0002010002010002
DATA patternMasks<>+112(SB)/8, $0x0201000201000201
DATA patternMasks<>+120(SB)/8, $0x0100020100020100
DATA patternMasks<>+128(SB)/8, $0x0302010003020100
DATA patternMasks<>+136(SB)/8, $0x0302010003020100
DATA patternMasks<>+144(SB)/8, $0x0302010003020100
DATA patternMasks<>+152(SB)/8, $0x0302010003020100
DATA patternMasks<>+160(SB)/8, $0x0201000403020100
DATA patternMasks<>+168(SB)/8, $0x0004030201000403
DATA patternMasks<>+176(SB)/8, $0x0302010004030201
DATA patternMasks<>+184(SB)/8, $0x0100040302010004
DATA patternMasks<>+192(SB)/8, $0x0100050403020100
DATA patternMasks<>+200(SB)/8, $0x0302010005040302
DATA patternMasks<>+208(SB)/8, $0x0504030201000504
DATA patternMasks<>+216(SB)/8, $0x0100050403020100
DATA patternMasks<>+224(SB)/8, $0x0006050403020100
DATA patternMasks<>+232(SB)/8, $0x0100060504030201
DATA patternMasks<>+240(SB)/8, $0x0201000605040302
DATA patternMasks<>+248(SB)/8, $0x0302010006050403
DATA patternMasks<>+256(SB)/8, $0x0706050403020100
DATA patternMasks<>+264(SB)/8, $0x0706050403020100
DATA patternMasks<>+272(SB)/8, $0x0706050403020100
DATA patternMasks<>+280(SB)/8, $0x0706050403020100
DATA patternMasks<>+288(SB)/8, $0x0706050403020100
DATA patternMasks<>+296(SB)/8, $0x0605040302010008
DATA patternMasks<>+304(SB)/8, $0x0504030201000807
DATA patternMasks<>+312(SB)/8, $0x0403020100080706
DATA patternMasks<>+320(SB)/8, $0x0706050403020100
DATA patternMasks<>+328(SB)/8, $0x0504030201000908
DATA patternMasks<>+336(SB)/8, $0x0302010009080706
DATA patternMasks<>+344(SB)/8, $0x0100090807060504
DATA patternMasks<>+352(SB)/8, $0x0706050403020100
DATA patternMasks<>+360(SB)/8, $0x04030201000a0908
DATA patternMasks<>+368(SB)/8, $0x01000a0908070605
DATA patternMasks<>+376(SB)/8, $0x0908070605040302
DATA patternMasks<>+384(SB)/8, $0x0706050403020100
DATA patternMasks<>+392(SB)/8, $0x030201000b0a0908
DATA patternMasks<>+400(SB)/8, $0x0b0a090807060504
DATA patternMasks<>+408(SB)/8, $0x0706050403020100
DATA patternMasks<>+416(SB)/8, $0x0706050403020100
DATA patternMasks<>+424(SB)/8, $0x0201000c0b0a0908
DATA patternMasks<>+432(SB)/8, $0x0a09080706050403
DATA patternMasks<>+440(SB)/8, $0x0504030201000c0b
DATA patternMasks<>+448(SB)/8, $0x0706050403020100
DATA patternMasks<>+456(SB)/8, $0x01000d0c0b0a0908
DATA patternMasks<>+464(SB)/8, $0x0908070605040302
DATA patternMasks<>+472(SB)/8, $0x030201000d0c0b0a
DATA patternMasks<>+480(SB)/8, $0x0706050403020100
DATA patternMasks<>+488(SB)/8, $0x000e0d0c0b0a0908
DATA patternMasks<>+496(SB)/8, $0x0807060504030201
DATA patternMasks<>+504(SB)/8, $0x01000e0d0c0b0a09
GLOBL patternMasks<>(SB), RODATA|NOPTR, $512

// matchTail holds, for each match length field f from 0 to 12 (a match
// of f+4 bytes), where its second 8-byte move starts: max(f-4, 0).
DATA matchTail<>+0(SB)/8, $0x0302010000000000
DATA matchTail<>+8(SB)/8, $0x0000000807060504
GLOBL matchTail<>(SB), RODATA|NOPTR, $16

// patternSteps holds, for each offset d, 32 - 32 mod d.
DATA patternSteps<>+0(SB)/8, $0x1c1e1e201e202000
DATA patternSteps<>+8(SB)/8, $0x1e1c1a18161e1b20
GLOBL patternSteps<>(SB), RODATA|NOPTR, $16

// patternBack holds, for each offset d, the least multiple of d from 16 up.
DATA patternBack<>+0(SB)/8, $0x1512141012101000
DATA patternBack<>+8(SB)/8, $0x1e1c1a1816141210
GLOBL patternBack<>(SB), RODATA|NOPTR, $16

// func hasSSSE3() bool
TEXT ·hasSSSE3(SB), NOSPLIT, $0-1
	MOVL  $1, AX
	XORL  CX, CX
	CPUID
	SHRL  $9, CX
	ANDL  $1, CX
	MOVB  CX, ret+0(FP)
	RET
