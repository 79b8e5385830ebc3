//go:build amd64 && gc && !noasm

#include "go_asm.h"
#include "textflag.h"

// decodeFast decodes whole sequences of an LZ4 block for as long as each one
// starts with ample room on both sides, and returns where it stopped.
//
// Invariant, on which its safety rests:
//   - A sequence is decoded only when it starts at least const_fastSrcRoom
//     bytes before the end of src and at least const_fastDstRoom bytes
//     before the end of dst.
//   - Every load from src is below the end of src: the token and 16 bytes
//     of short literals lie within fastSrcRoom = 18 bytes; each length byte
//     is checked before it is read; long literals are copied only when 16
//     bytes of src remain after them.
//   - Every store is below the end of dst and at or after the sequence's
//     output position: short literals store 16 bytes and a short match
//     with an offset of 16 or more 32 bytes, together at most 46 bytes into
//     the fastDstRoom = 48; long literals are copied only when 16 bytes of
//     dst remain after them and any other match only when 32 remain.
//   - Every load from dst is at or after its start (offset <= output
//     position, checked) and below its end (a match source ends at most 15
//     bytes past the output position, within the room checked for stores).
//   - A sequence is either decoded whole, with every check of
//     reference.DecompressBlock passing on it, or not at all: on a zero
//     offset, an offset past the output, a length above maxLength or
//     anything that leaves the room above, it returns the position of the
//     sequence's start, and the caller's checks take it from there. Bytes
//     stored into dst beyond the returned position are not part of the
//     output, which DecompressBlock permits.
//
// Registers:
//   SI, DI  src and dst positions      R14, R9  the sequence's start in src and dst
//   R8      &dst[0]                    R10, R11 the ends of dst and src
//   R12     last start in src          R13      last start in dst
//   AX, BX, CX, DX, X0-X3 scratch

// func decodeFast(dst, src []byte, in, out int) (nin, nout int)
TEXT ·decodeFast(SB), NOSPLIT, $0-80
	MOVQ dst_base+0(FP), R8
	MOVQ dst_len+8(FP), R10
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), R11
	MOVQ in+48(FP), AX
	MOVQ out+56(FP), DI

	// Return at once unless both rooms hold at the first sequence, so that
	// the limits below cannot wrap around.
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

loop:
	CMPQ SI, R12
	JA   done
	CMPQ DI, R13
	JA   done
	MOVQ SI, R14
	MOVQ DI, R9

	MOVBQZX (SI), DX // token
	MOVQ    DX, CX
	SHRQ    $4, CX   // literal length
	ANDQ    $15, DX  // match length - minMatch
	CMPQ    CX, $15
	JEQ     long_literals

	// 0 to 14 literals: one 16-byte move, then the offset.
	MOVOU   1(SI), X0
	MOVOU   X0, (DI)
	LEAQ    1(SI)(CX*1), SI
	ADDQ    CX, DI
	MOVWQZX (SI), AX
	ADDQ    $2, SI
	MOVQ    DI, BX
	SUBQ    AX, BX   // match source
	JCS     bail
	CMPQ    BX, R8
	JCS     bail     // offset > output position
	TESTQ   AX, AX
	JEQ     bail     // offset 0
	CMPQ    DX, $15
	JEQ     long_match
	CMPQ    AX, $16
	JCS     short_offset

	// A match of 4 to 18 bytes at an offset of 16 or more: two 16-byte
	// moves, the second reading bytes the first may have written.
	MOVOU (BX), X0
	MOVOU X0, (DI)
	MOVOU 16(BX), X1
	MOVOU X1, 16(DI)
	LEAQ  const_minMatch(DI)(DX*1), DI
	JMP   loop

short_offset:
	LEAQ const_minMatch(DX), CX
	JMP  match

long_literals:
	INCQ SI

literal_length:
	CMPQ    SI, R11
	JCC     bail
	MOVBQZX (SI), AX
	INCQ    SI
	ADDQ    AX, CX
	CMPQ    AX, $255
	JEQ     literal_length
	CMPQ    CX, $const_maxLength
	JHI     bail
	LEAQ    16(SI)(CX*1), AX
	CMPQ    AX, R11
	JHI     bail     // also where the literals end the block
	LEAQ    16(DI)(CX*1), AX
	CMPQ    AX, R10
	JHI     bail

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
	MOVQ    DI, BX
	SUBQ    AX, BX
	JCS     bail
	CMPQ    BX, R8
	JCS     bail
	TESTQ   AX, AX
	JEQ     bail
	LEAQ    const_minMatch(DX), CX
	CMPQ    DX, $15
	JNE     match

long_match:
	CMPQ    SI, R11
	JCC     bail
	MOVBQZX (SI), CX
	INCQ    SI
	ADDQ    CX, DX
	CMPQ    CX, $255
	JEQ     long_match
	CMPQ    DX, $const_maxLength
	JHI     bail
	LEAQ    const_minMatch(DX), CX

	// A match of CX bytes from BX at offset AX, with 32 bytes of room
	// behind it.
match:
	LEAQ 32(DI)(CX*1), DX
	CMPQ DX, R10
	JHI  bail
	LEAQ (DI)(CX*1), DX // end of the match
	CMPQ AX, $16
	JCS  pattern

	// Offset 16 or more: each 16-byte load reads bytes stored before it.
match_copy:
	MOVOU (BX), X0
	MOVOU X0, (DI)
	ADDQ  $16, BX
	ADDQ  $16, DI
	CMPQ  DI, DX
	JCS   match_copy
	MOVQ  DX, DI
	JMP   loop

	// Offset 1 to 15: X0 and X1 hold the next 32 bytes of the repeating
	// pattern, shuffled out of the offset bytes before DI, and are stored
	// every step bytes (the largest multiple of the offset up to 32).
pattern:
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

pattern_store:
	MOVOU X0, (DI)
	MOVOU X1, 16(DI)
	ADDQ  BX, DI
	CMPQ  DI, DX
	JCS   pattern_store
	MOVQ  DX, DI
	JMP   loop

bail:
	MOVQ R14, SI
	MOVQ R9, DI

done:
	SUBQ src_base+24(FP), SI
	SUBQ R8, DI
	MOVQ SI, nin+64(FP)
	MOVQ DI, nout+72(FP)
	RET

early:
	MOVQ AX, nin+64(FP)
	MOVQ DI, nout+72(FP)
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

// patternSteps holds, for each offset d, 32 - 32 mod d.
DATA patternSteps<>+0(SB)/8, $0x1c1e1e201e202000
DATA patternSteps<>+8(SB)/8, $0x1e1c1a18161e1b20
GLOBL patternSteps<>(SB), RODATA|NOPTR, $16

// func hasSSSE3() bool
TEXT ·hasSSSE3(SB), NOSPLIT, $0-1
	MOVL  $1, AX
	XORL  CX, CX
	CPUID
	SHRL  $9, CX
	ANDL  $1, CX
	MOVB  CX, ret+0(FP)
	RET
