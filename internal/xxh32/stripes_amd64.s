//go:build amd64 && gc && !purego

#include "textflag.h"

// func stripesAVX2(v *[4]uint32, p unsafe.Pointer, n uintptr)
//
// Each 32 bytes: the inputs' products by prime2 for two stripes at once
// (VPMULLD), through the stack to the lanes' chains, which add, rotate and
// multiply by prime1 in general registers. The chains so take one IMUL per
// word instead of two, the bound of the portable loop.
TEXT ·stripesAVX2(SB), NOSPLIT, $32-24
	MOVQ v+0(FP), DI
	MOVQ p+8(FP), SI
	MOVQ n+16(FP), CX
	MOVL 0(DI), R8
	MOVL 4(DI), R9
	MOVL 8(DI), R10
	MOVL 12(DI), R11
	MOVL $0x85EBCA77, AX // prime2
	MOVL AX, X15
	VPBROADCASTD X15, Y15
	ADDQ SI, CX

loop:
	CMPQ SI, CX
	JAE  done
	VMOVDQU (SI), Y0
	VPMULLD Y15, Y0, Y0
	VMOVDQU Y0, prod-32(SP)
	ADDL    prod-32(SP), R8
	ADDL    prod-28(SP), R9
	ADDL    prod-24(SP), R10
	ADDL    prod-20(SP), R11
	ROLL    $13, R8
	ROLL    $13, R9
	ROLL    $13, R10
	ROLL    $13, R11
	IMUL3L  $-1640531535, R8, R8 // prime1
	IMUL3L  $-1640531535, R9, R9
	IMUL3L  $-1640531535, R10, R10
	IMUL3L  $-1640531535, R11, R11
	ADDL    prod-16(SP), R8
	ADDL    prod-12(SP), R9
	ADDL    prod-8(SP), R10
	ADDL    prod-4(SP), R11
	ROLL    $13, R8
	ROLL    $13, R9
	ROLL    $13, R10
	ROLL    $13, R11
	IMUL3L  $-1640531535, R8, R8
	IMUL3L  $-1640531535, R9, R9
	IMUL3L  $-1640531535, R10, R10
	IMUL3L  $-1640531535, R11, R11
	ADDQ    $32, SI
	JMP     loop

done:
	MOVL R8, 0(DI)
	MOVL R9, 4(DI)
	MOVL R10, 8(DI)
	MOVL R11, 12(DI)
	VZEROUPPER
	RET
