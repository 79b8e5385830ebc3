//go:build amd64 && gc && !purego

#include "textflag.h"

// func sameFilledAVX2(page *[4096]byte) bool
//
// Every 8-byte word equals the first (PAGE-3) exactly when the page
// equals the first word repeated: VPBROADCASTQ puts it in every lane of
// Y0, and each step compares 128 bytes with it, ANDs the four byte masks
// and stops at the first step with a differing byte. It reads the 4,096
// bytes of the page and nothing else.
TEXT ·sameFilledAVX2(SB), NOSPLIT, $0-9
	MOVQ         page+0(FP), SI
	VPBROADCASTQ (SI), Y0
	XORQ         CX, CX

loop:
	VPCMPEQB  0(SI)(CX*1), Y0, Y1
	VPCMPEQB  32(SI)(CX*1), Y0, Y2
	VPCMPEQB  64(SI)(CX*1), Y0, Y3
	VPCMPEQB  96(SI)(CX*1), Y0, Y4
	VPAND     Y1, Y2, Y1
	VPAND     Y3, Y4, Y3
	VPAND     Y1, Y3, Y1
	VPMOVMSKB Y1, AX
	CMPL      AX, $0xffffffff
	JNE       differ
	ADDQ      $128, CX
	CMPQ      CX, $4096
	JNE       loop
	VZEROUPPER
	MOVB      $1, ret+8(FP)
	RET

differ:
	VZEROUPPER
	MOVB $0, ret+8(FP)
	RET

// func clearTableAVX2(table *[4096]uint16)
TEXT ·clearTableAVX2(SB), NOSPLIT, $0-8
	MOVQ  table+0(FP), DI
	VPXOR Y0, Y0, Y0
	XORQ  CX, CX

clear:
	VMOVDQU Y0, 0(DI)(CX*1)
	VMOVDQU Y0, 32(DI)(CX*1)
	VMOVDQU Y0, 64(DI)(CX*1)
	VMOVDQU Y0, 96(DI)(CX*1)
	VMOVDQU Y0, 128(DI)(CX*1)
	VMOVDQU Y0, 160(DI)(CX*1)
	VMOVDQU Y0, 192(DI)(CX*1)
	VMOVDQU Y0, 224(DI)(CX*1)
	ADDQ    $256, CX
	CMPQ    CX, $8192
	JNE     clear
	VZEROUPPER
	RET

// func fillPageAVX2(page *[4096]byte, word uint64)
//
// The page takes word in every 8 bytes (PAGE-3's same-filled page),
// 128 bytes a step with 32-byte stores.
TEXT ·fillPageAVX2(SB), NOSPLIT, $0-16
	MOVQ         page+0(FP), DI
	VPBROADCASTQ word+8(FP), Y0
	XORQ         CX, CX

fill:
	VMOVDQU Y0, 0(DI)(CX*1)
	VMOVDQU Y0, 32(DI)(CX*1)
	VMOVDQU Y0, 64(DI)(CX*1)
	VMOVDQU Y0, 96(DI)(CX*1)
	ADDQ    $128, CX
	CMPQ    CX, $4096
	JNE     fill
	VZEROUPPER
	RET

// Marks one position of countKeysAVX2: the key of the two bytes at x
// (SI) marked with gen (R8) in seen (DI).
#define MARK(x, r) \
	MOVWLZX x(SI)(BX*1), r; \
	ANDL    $0x3fff, r; \
	MOVB    R8, (DI)(r*1)

// func countKeysAVX2(seen *[16384]byte, page *[4096]byte, gen byte) int
//
// countKeysGo: the first 64 positions one at a time, counting the keys
// already marked, then the others eight a step, then the marks counted
// 32 bytes a step: VPCMPEQB makes each mark -1, VPSUBB adds it to a byte
// counter, 128 steps at most so that no counter wraps, and VPSADBW sums
// the counters.
TEXT ·countKeysAVX2(SB), NOSPLIT, $0-32
	MOVQ    seen+0(FP), DI
	MOVQ    page+8(FP), SI
	MOVBLZX gen+16(FP), R8
	XORL    BX, BX
	XORL    R10, R10         // repeats

probe:
	MOVWLZX (SI)(BX*1), AX
	ANDL    $0x3fff, AX
	XORL    CX, CX
	CMPB    (DI)(AX*1), R8
	SETEQ   CX
	ADDL    CX, R10
	MOVB    R8, (DI)(AX*1)
	INCQ    BX
	CMPQ    BX, $64
	JNE     probe
	CMPL    R10, $2
	JGT     fail

mark8:
	MARK(0, AX)
	MARK(1, CX)
	MARK(2, DX)
	MARK(3, R9)
	MARK(4, R10)
	MARK(5, R11)
	MARK(6, R12)
	MARK(7, R13)
	ADDQ $8, BX
	CMPQ BX, $4087           // while x+8 <= 4095, the positions' count
	JLE  mark8

mark1:
	MARK(0, AX)
	INCQ BX
	CMPQ BX, $4095
	JNE  mark1

	MOVQ         R8, X0
	VPBROADCASTB X0, Y0
	VPXOR        Y5, Y5, Y5  // zero
	VPXOR        Y6, Y6, Y6  // the sums, four 64-bit lanes
	XORQ         BX, BX

count:
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	MOVQ  $64, CX

count2:
	VPCMPEQB 0(DI)(BX*1), Y0, Y3
	VPCMPEQB 32(DI)(BX*1), Y0, Y4
	VPSUBB   Y3, Y1, Y1
	VPSUBB   Y4, Y2, Y2
	ADDQ     $64, BX
	DECQ     CX
	JNZ      count2
	VPSADBW  Y5, Y1, Y1
	VPSADBW  Y5, Y2, Y2
	VPADDQ   Y1, Y6, Y6
	VPADDQ   Y2, Y6, Y6
	CMPQ     BX, $16384
	JNE      count

	VEXTRACTI128 $1, Y6, X1
	VPADDQ       X1, X6, X6
	VPSHUFD      $0x4e, X6, X1
	VPADDQ       X1, X6, X6
	MOVQ         X6, AX
	VZEROUPPER
	MOVQ         AX, ret+24(FP)
	RET

fail:
	MOVQ $-1, ret+24(FP)
	RET

// func hasAVX2() bool
//
// AVX2 (CPUID leaf 7), with AVX and OSXSAVE (leaf 1) and the SSE and AVX
// state enabled in XCR0.
TEXT ·hasAVX2(SB), NOSPLIT, $0-1
	MOVB  $0, ret+0(FP)
	MOVL  $1, AX
	XORL  CX, CX
	CPUID
	ANDL  $0x18000000, CX    // OSXSAVE and AVX
	CMPL  CX, $0x18000000
	JNE   no
	XORL  CX, CX
	XGETBV
	ANDL  $6, AX
	CMPL  AX, $6
	JNE   no
	MOVL  $7, AX
	XORL  CX, CX
	CPUID
	SHRL  $5, BX             // AVX2
	ANDL  $1, BX
	MOVB  BX, ret+0(FP)

no:
	RET
