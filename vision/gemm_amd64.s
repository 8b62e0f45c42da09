//go:build amd64 && !purego

#include "textflag.h"

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// func gemmKernelAVX2(k int, a *float32, lda int, b *float32, c *float32, ldc int, bias *float32, lo, hi float32)
//
// One 6×16 tile: c[i][j] = clamp(bias[j] + Σ_r a[i*lda+r]·b[r*16+j], lo, hi)
// for i < 6, j < 16, k ≥ 1. Y0–Y11 hold the tile (row i in Y(2i), Y(2i+1));
// each step over r loads 16 values of b, broadcasts the 6 values of a and
// issues 12 fused multiply-adds.
TEXT ·gemmKernelAVX2(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R8
	SHLQ $2, R8             // R8 = lda in bytes
	LEAQ (R8)(R8*1), R9     // R9 = 2·lda
	LEAQ (SI)(R9*1), DI
	ADDQ R8, DI             // DI = a + 3·lda: rows 3–5
	MOVQ b+24(FP), BX

	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

loop:
	VMOVUPS      (BX), Y12
	VMOVUPS      32(BX), Y13
	VBROADCASTSS (SI), Y14
	VFMADD231PS  Y12, Y14, Y0
	VFMADD231PS  Y13, Y14, Y1
	VBROADCASTSS (SI)(R8*1), Y14
	VFMADD231PS  Y12, Y14, Y2
	VFMADD231PS  Y13, Y14, Y3
	VBROADCASTSS (SI)(R9*1), Y14
	VFMADD231PS  Y12, Y14, Y4
	VFMADD231PS  Y13, Y14, Y5
	VBROADCASTSS (DI), Y14
	VFMADD231PS  Y12, Y14, Y6
	VFMADD231PS  Y13, Y14, Y7
	VBROADCASTSS (DI)(R8*1), Y14
	VFMADD231PS  Y12, Y14, Y8
	VFMADD231PS  Y13, Y14, Y9
	VBROADCASTSS (DI)(R9*1), Y14
	VFMADD231PS  Y12, Y14, Y10
	VFMADD231PS  Y13, Y14, Y11
	ADDQ         $4, SI
	ADDQ         $4, DI
	ADDQ         $64, BX
	DECQ         CX
	JNZ          loop

	// Bias, then clamp.
	MOVQ    bias+48(FP), AX
	VMOVUPS (AX), Y12
	VMOVUPS 32(AX), Y13
	VADDPS  Y12, Y0, Y0
	VADDPS  Y13, Y1, Y1
	VADDPS  Y12, Y2, Y2
	VADDPS  Y13, Y3, Y3
	VADDPS  Y12, Y4, Y4
	VADDPS  Y13, Y5, Y5
	VADDPS  Y12, Y6, Y6
	VADDPS  Y13, Y7, Y7
	VADDPS  Y12, Y8, Y8
	VADDPS  Y13, Y9, Y9
	VADDPS  Y12, Y10, Y10
	VADDPS  Y13, Y11, Y11

	VBROADCASTSS lo+56(FP), Y12
	VBROADCASTSS hi+60(FP), Y13
	VMAXPS Y12, Y0, Y0
	VMAXPS Y12, Y1, Y1
	VMAXPS Y12, Y2, Y2
	VMAXPS Y12, Y3, Y3
	VMAXPS Y12, Y4, Y4
	VMAXPS Y12, Y5, Y5
	VMAXPS Y12, Y6, Y6
	VMAXPS Y12, Y7, Y7
	VMAXPS Y12, Y8, Y8
	VMAXPS Y12, Y9, Y9
	VMAXPS Y12, Y10, Y10
	VMAXPS Y12, Y11, Y11
	VMINPS Y13, Y0, Y0
	VMINPS Y13, Y1, Y1
	VMINPS Y13, Y2, Y2
	VMINPS Y13, Y3, Y3
	VMINPS Y13, Y4, Y4
	VMINPS Y13, Y5, Y5
	VMINPS Y13, Y6, Y6
	VMINPS Y13, Y7, Y7
	VMINPS Y13, Y8, Y8
	VMINPS Y13, Y9, Y9
	VMINPS Y13, Y10, Y10
	VMINPS Y13, Y11, Y11

	MOVQ    c+32(FP), DX
	MOVQ    ldc+40(FP), R10
	SHLQ    $2, R10
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	ADDQ    R10, DX
	VMOVUPS Y2, (DX)
	VMOVUPS Y3, 32(DX)
	ADDQ    R10, DX
	VMOVUPS Y4, (DX)
	VMOVUPS Y5, 32(DX)
	ADDQ    R10, DX
	VMOVUPS Y6, (DX)
	VMOVUPS Y7, 32(DX)
	ADDQ    R10, DX
	VMOVUPS Y8, (DX)
	VMOVUPS Y9, 32(DX)
	ADDQ    R10, DX
	VMOVUPS Y10, (DX)
	VMOVUPS Y11, 32(DX)
	VZEROUPPER
	RET

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
