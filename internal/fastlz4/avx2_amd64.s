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

// func clearTableAVX2(table *[2048]uint16)
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
	CMPQ    CX, $4096
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
