//go:build amd64 && gc && !purego

#include "textflag.h"

// func copyStreaming(dst, src *byte, n int)
// n is a multiple of 16 and dst is 16-byte aligned: 64 bytes a step with
// unaligned loads and non-temporal stores, then 16 bytes a step.
TEXT ·copyStreaming(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	CMPQ CX, $64
	JB   sixteen

step64:
	MOVOU  0(SI), X0
	MOVOU  16(SI), X1
	MOVOU  32(SI), X2
	MOVOU  48(SI), X3
	MOVNTO X0, 0(DI)
	MOVNTO X1, 16(DI)
	MOVNTO X2, 32(DI)
	MOVNTO X3, 48(DI)
	ADDQ   $64, SI
	ADDQ   $64, DI
	SUBQ   $64, CX
	CMPQ   CX, $64
	JAE    step64

sixteen:
	TESTQ  CX, CX
	JZ     done
	MOVOU  0(SI), X0
	MOVNTO X0, 0(DI)
	ADDQ   $16, SI
	ADDQ   $16, DI
	SUBQ   $16, CX
	JMP    sixteen

done:
	RET

// func storeFence()
TEXT ·storeFence(SB), NOSPLIT, $0-0
	SFENCE
	RET
