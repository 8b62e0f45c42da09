//go:build !purego

#include "textflag.h"

// Rounding float32 to bfloat16 eight lanes at a time (AVX2), as bf16Bits
// does: s = u + 0x7fff + (u>>16 & 1), the bfloat16 in s's upper half; a
// NaN keeps its bits with the quiet bit set instead, so that it cannot
// carry into the exponent or the sign.
DATA bf16c<>+0(SB)/4, $0x00007fff
DATA bf16c<>+4(SB)/4, $0x7fffffff
DATA bf16c<>+8(SB)/4, $0x7f800000
DATA bf16c<>+12(SB)/4, $0x00400000
DATA bf16c<>+16(SB)/4, $0xffff0000
DATA bf16c<>+20(SB)/4, $0x00000001
GLOBL bf16c<>(SB), RODATA|NOPTR, $24

// Y8 = 0x7fff, Y9 = 0x7fffffff, Y10 = +Inf, Y11 = quiet bit, Y12 = upper
// half, Y13 = 1 in every lane.
#define CONSTANTS \
	VPBROADCASTD bf16c<>+0(SB), Y8; \
	VPBROADCASTD bf16c<>+4(SB), Y9; \
	VPBROADCASTD bf16c<>+8(SB), Y10; \
	VPBROADCASTD bf16c<>+12(SB), Y11; \
	VPBROADCASTD bf16c<>+16(SB), Y12; \
	VPBROADCASTD bf16c<>+20(SB), Y13

// ROUND rounds the float32 lanes of u (overwritten) into s, bfloat16 in
// the upper halves; t is a temporary.
#define ROUND(u, t, s) \
	VPSRLD $16, u, t; \
	VPAND t, Y13, t; \
	VPADDD t, u, s; \
	VPADDD s, Y8, s; \
	VPAND u, Y9, t; \
	VPCMPGTD Y10, t, t; \
	VPOR u, Y11, u; \
	VPBLENDVB t, u, s, s

// func bf16PackRows(n, w int, x0, x1 *float32, alpha float32, dst *uint32, dstStride int)
//
// dst[(j/w)·dstStride + j%w] = bf16(α·x0[j]) | bf16(α·x1[j])<<16 for j < n:
// two rows (two steps of k) into pairs, in chunks of w words (w and n
// multiples of 8, n of w) dstStride words apart.
TEXT ·bf16PackRows(SB), NOSPLIT, $0-56
	MOVQ n+0(FP), CX
	MOVQ w+8(FP), R8
	MOVQ x0+16(FP), SI
	MOVQ x1+24(FP), BX
	VBROADCASTSS alpha+32(FP), Y15
	MOVQ dst+40(FP), DI
	MOVQ dstStride+48(FP), R9
	SHLQ $2, R9
	CONSTANTS
	TESTQ CX, CX
	JEQ rowsdone

rowschunk:
	MOVQ DI, R10
	MOVQ R8, DX

rowsloop:
	VMULPS (SI), Y15, Y0
	VMULPS (BX), Y15, Y1
	ROUND(Y0, Y4, Y2)
	ROUND(Y1, Y5, Y3)
	VPSRLD $16, Y2, Y2
	VPAND Y3, Y12, Y3
	VPOR Y2, Y3, Y2
	VMOVDQU Y2, (R10)
	ADDQ $32, SI
	ADDQ $32, BX
	ADDQ $32, R10
	SUBQ $8, CX
	SUBQ $8, DX
	JNE rowsloop
	ADDQ R9, DI
	TESTQ CX, CX
	JNE rowschunk

rowsdone:
	VZEROUPPER
	RET

// func bf16PackPairs(n int, x *float32, alpha float32, dst *uint32)
//
// dst[p] = bf16(α·x[2p]) | bf16(α·x[2p+1])<<16 for p < n (a multiple of
// 8): a row whose pairs of steps of k lie side by side.
TEXT ·bf16PackPairs(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), SI
	VBROADCASTSS alpha+16(FP), Y15
	MOVQ dst+24(FP), DI
	CONSTANTS
	TESTQ CX, CX
	JEQ pairsdone

pairsloop:
	VMULPS (SI), Y15, Y0
	VMULPS 32(SI), Y15, Y1
	ROUND(Y0, Y4, Y2)
	ROUND(Y1, Y5, Y3)
	VPSRLD $16, Y2, Y2
	VPSRLD $16, Y3, Y3
	VPACKUSDW Y3, Y2, Y2
	VPERMQ $0xD8, Y2, Y2
	VMOVDQU Y2, (DI)
	ADDQ $64, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNE pairsloop

pairsdone:
	VZEROUPPER
	RET
