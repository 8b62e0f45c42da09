//go:build !purego

#include "textflag.h"

// func halfDotRowsAVX2(k int, x *float32, w *uint16, ldw int, y *float32, n int)
//
// y[j] = Σ_{p<k} x[p]·w[j·ldw+p] for j < n, w in binary16, k a positive
// multiple of 8: the rows converted eight at a time by VCVTPH2PS. Four rows
// at a time share each load of x; 16 steps per iteration keep eight
// accumulators in flight (as sgemvTAVX2 in internal/sgemm). Each
// iteration prefetches two cache lines of the rows eight to eleven ahead
// (R14), in order as if the rows were contiguous (ldw = k, every weight
// matrix): with the hardware prefetcher alone the token embedding took
// about 60 % more time.
TEXT ·halfDotRowsAVX2(SB), NOSPLIT, $0-48
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ w+16(FP), DI
	MOVQ ldw+24(FP), R9
	SHLQ $1, R9             // row stride in bytes
	MOVQ y+32(FP), DX
	MOVQ n+40(FP), BX
	MOVQ CX, R10
	ANDQ $-16, R10          // R10 = elements covered 16 at a time

rows4:
	CMPQ BX, $4
	JL   rows1
	MOVQ DI, R11
	LEAQ (DI)(R9*1), R12
	LEAQ (DI)(R9*2), R13
	LEAQ (R12)(R9*2), R8
	LEAQ (DI)(R9*8), R14
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	XORQ AX, AX
	CMPQ R10, $0
	JE   tail4

loop4x16:
	PREFETCHT0  (R14)(AX*8)
	PREFETCHT0  64(R14)(AX*8)
	VMOVUPS     (SI)(AX*4), Y8
	VMOVUPS     32(SI)(AX*4), Y9
	VCVTPH2PS   (R11)(AX*2), Y10
	VCVTPH2PS   (R12)(AX*2), Y11
	VCVTPH2PS   (R13)(AX*2), Y12
	VCVTPH2PS   (R8)(AX*2), Y13
	VFMADD231PS Y8, Y10, Y0
	VFMADD231PS Y8, Y11, Y1
	VFMADD231PS Y8, Y12, Y2
	VFMADD231PS Y8, Y13, Y3
	VCVTPH2PS   16(R11)(AX*2), Y10
	VCVTPH2PS   16(R12)(AX*2), Y11
	VCVTPH2PS   16(R13)(AX*2), Y12
	VCVTPH2PS   16(R8)(AX*2), Y13
	VFMADD231PS Y9, Y10, Y4
	VFMADD231PS Y9, Y11, Y5
	VFMADD231PS Y9, Y12, Y6
	VFMADD231PS Y9, Y13, Y7
	ADDQ $16, AX
	CMPQ AX, R10
	JL   loop4x16

tail4:
	CMPQ AX, CX
	JGE  reduce4
	VMOVUPS     (SI)(AX*4), Y8
	VCVTPH2PS   (R11)(AX*2), Y10
	VCVTPH2PS   (R12)(AX*2), Y11
	VCVTPH2PS   (R13)(AX*2), Y12
	VCVTPH2PS   (R8)(AX*2), Y13
	VFMADD231PS Y8, Y10, Y0
	VFMADD231PS Y8, Y11, Y1
	VFMADD231PS Y8, Y12, Y2
	VFMADD231PS Y8, Y13, Y3

reduce4:
	VADDPS Y4, Y0, Y0
	VADDPS Y5, Y1, Y1
	VADDPS Y6, Y2, Y2
	VADDPS Y7, Y3, Y3
	VHADDPS Y1, Y0, Y0      // Y0 = [r0 r0 r1 r1 | r0 r0 r1 r1] partial sums
	VHADDPS Y3, Y2, Y2
	VHADDPS Y2, Y0, Y0      // Y0 = [r0 r1 r2 r3 | r0 r1 r2 r3]
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VMOVUPS X0, (DX)
	LEAQ (DI)(R9*4), DI
	ADDQ $16, DX
	SUBQ $4, BX
	JMP  rows4

rows1:
	TESTQ BX, BX
	JZ   done1
	VXORPS Y0, Y0, Y0
	XORQ AX, AX

loop1x8:
	VCVTPH2PS   (DI)(AX*2), Y10
	VFMADD231PS (SI)(AX*4), Y10, Y0
	ADDQ $8, AX
	CMPQ AX, CX
	JL   loop1x8
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VMOVSS X0, (DX)
	ADDQ R9, DI
	ADDQ $4, DX
	DECQ BX
	JMP  rows1

done1:
	VZEROUPPER
	RET

// func halfDotRowsX4AVX2(k int, x *float32, ldx int, w *uint16, ldw int, y *float32, ldy int, n int)
//
// y[i·ldy + j] = Σ_{p<k} x[i·ldx+p]·w[j·ldw+p] for the four rows i < 4 of
// x and the rows j < n of w, w in binary16, k a positive multiple of 8:
// four sequences' decoding steps against the same weights, each weight
// converted once for the four. Every sum runs as halfDotRowsAVX2's rows4
// path runs it for one row (two accumulators, elements 0–7 and 8–15 of
// each 16, the tail into the first, then the same pairwise reduction,
// the four rows of x taking the place of its four rows of w), so each
// y is bit for bit what halfDotRowsAVX2 gives x_i alone for a row in a
// group of four. It prefetches the row eight ahead as halfDotRowsAVX2
// does.
TEXT ·halfDotRowsX4AVX2(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ ldx+16(FP), R8
	SHLQ $2, R8             // x row stride in bytes
	MOVQ w+24(FP), DI
	MOVQ ldw+32(FP), R9
	SHLQ $1, R9             // w row stride in bytes
	MOVQ y+40(FP), DX
	MOVQ ldy+48(FP), R11
	SHLQ $2, R11            // y row stride in bytes
	MOVQ n+56(FP), BX
	LEAQ (SI)(R8*1), R12    // x rows 1, 2, 3
	LEAQ (SI)(R8*2), R13
	LEAQ (R12)(R8*2), R10
	MOVQ CX, R8
	ANDQ $-16, R8           // R8 = elements covered 16 at a time

rowx4:
	TESTQ BX, BX
	JZ   donex4
	LEAQ (DI)(R9*8), R14
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	XORQ AX, AX
	CMPQ R8, $0
	JE   tailx4

loopx4:
	PREFETCHT0  (R14)(AX*2)
	VCVTPH2PS   (DI)(AX*2), Y8
	VCVTPH2PS   16(DI)(AX*2), Y9
	VFMADD231PS (SI)(AX*4), Y8, Y0
	VFMADD231PS (R12)(AX*4), Y8, Y1
	VFMADD231PS (R13)(AX*4), Y8, Y2
	VFMADD231PS (R10)(AX*4), Y8, Y3
	VFMADD231PS 32(SI)(AX*4), Y9, Y4
	VFMADD231PS 32(R12)(AX*4), Y9, Y5
	VFMADD231PS 32(R13)(AX*4), Y9, Y6
	VFMADD231PS 32(R10)(AX*4), Y9, Y7
	ADDQ $16, AX
	CMPQ AX, R8
	JL   loopx4

tailx4:
	CMPQ AX, CX
	JGE  reducex4
	VCVTPH2PS   (DI)(AX*2), Y8
	VFMADD231PS (SI)(AX*4), Y8, Y0
	VFMADD231PS (R12)(AX*4), Y8, Y1
	VFMADD231PS (R13)(AX*4), Y8, Y2
	VFMADD231PS (R10)(AX*4), Y8, Y3

reducex4:
	VADDPS Y4, Y0, Y0
	VADDPS Y5, Y1, Y1
	VADDPS Y6, Y2, Y2
	VADDPS Y7, Y3, Y3
	VHADDPS Y1, Y0, Y0
	VHADDPS Y3, Y2, Y2
	VHADDPS Y2, Y0, Y0      // Y0 = [x0 x1 x2 x3 | x0 x1 x2 x3] partial sums
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VMOVSS X0, (DX)
	VEXTRACTPS $1, X0, (DX)(R11*1)
	VEXTRACTPS $2, X0, (DX)(R11*2)
	LEAQ (DX)(R11*2), R14
	VEXTRACTPS $3, X0, (R14)(R11*1)
	ADDQ R9, DI
	ADDQ $4, DX
	DECQ BX
	JMP  rowx4

donex4:
	VZEROUPPER
	RET

// func halfToFloat32AVX2(dst *float32, src *uint16, n int)
//
// dst[i] = src[i] converted from binary16, for i < n, n a positive
// multiple of 8.
TEXT ·halfToFloat32AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

loopcvt:
	VCVTPH2PS (SI), Y0
	VMOVUPS   Y0, (DI)
	ADDQ      $16, SI
	ADDQ      $32, DI
	SUBQ      $8, CX
	JNZ       loopcvt
	VZEROUPPER
	RET
