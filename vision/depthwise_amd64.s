//go:build amd64 && !purego

#include "textflag.h"

// func depthwise3x3AVX2(n, ch, step int, r0, r1, r2, w, bias, out *float32, lo, hi float32)
//
// n output pixels of a 3×3 depthwise convolution, ch channels (a multiple
// of 8), all taps inside the input:
//
//	out[i*ch+c] = clamp(bias[c] + Σ_ky Σ_kx r_ky[i*step + kx*ch + c]·w[(3ky+kx)*ch + c], lo, hi)
//
// For each group of 8 channels the nine weight vectors stay in Y0–Y8 while
// the pixels go by; the three kernel rows accumulate separately (Y12–Y14)
// to shorten the dependency chain.
TEXT ·depthwise3x3AVX2(SB), NOSPLIT, $0-80
	MOVQ ch+8(FP), R12
	SHLQ $2, R12            // R12 = ch in bytes: the next tap column
	LEAQ (R12)(R12*1), R13  // R13 = 2·ch
	MOVQ step+16(FP), R10
	SHLQ $2, R10            // R10 = step in bytes: the next pixel's taps
	VBROADCASTSS lo+72(FP), Y10
	VBROADCASTSS hi+76(FP), Y11
	XORQ AX, AX             // AX = byte offset of the channel group

group:
	MOVQ    w+48(FP), DX
	ADDQ    AX, DX
	VMOVUPS (DX), Y0
	VMOVUPS (DX)(R12*1), Y1
	VMOVUPS (DX)(R13*1), Y2
	ADDQ    R13, DX
	ADDQ    R12, DX
	VMOVUPS (DX), Y3
	VMOVUPS (DX)(R12*1), Y4
	VMOVUPS (DX)(R13*1), Y5
	ADDQ    R13, DX
	ADDQ    R12, DX
	VMOVUPS (DX), Y6
	VMOVUPS (DX)(R12*1), Y7
	VMOVUPS (DX)(R13*1), Y8
	MOVQ    bias+56(FP), DX
	VMOVUPS (DX)(AX*1), Y9

	MOVQ r0+24(FP), SI
	ADDQ AX, SI
	MOVQ r1+32(FP), DI
	ADDQ AX, DI
	MOVQ r2+40(FP), R8
	ADDQ AX, R8
	MOVQ out+64(FP), R9
	ADDQ AX, R9
	MOVQ n+0(FP), CX

pixel:
	VMOVAPS     Y9, Y12
	VFMADD231PS (SI), Y0, Y12
	VMULPS      (DI), Y3, Y13
	VMULPS      (R8), Y6, Y14
	VFMADD231PS (SI)(R12*1), Y1, Y12
	VFMADD231PS (DI)(R12*1), Y4, Y13
	VFMADD231PS (R8)(R12*1), Y7, Y14
	VFMADD231PS (SI)(R13*1), Y2, Y12
	VFMADD231PS (DI)(R13*1), Y5, Y13
	VFMADD231PS (R8)(R13*1), Y8, Y14
	VADDPS      Y13, Y12, Y12
	VADDPS      Y14, Y12, Y12
	VMAXPS      Y10, Y12, Y12
	VMINPS      Y11, Y12, Y12
	VMOVUPS     Y12, (R9)
	ADDQ        R10, SI
	ADDQ        R10, DI
	ADDQ        R10, R8
	ADDQ        R12, R9
	DECQ        CX
	JNZ         pixel

	ADDQ $32, AX
	CMPQ AX, R12
	JLT  group
	VZEROUPPER
	RET
