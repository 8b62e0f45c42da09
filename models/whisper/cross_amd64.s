//go:build !purego

#include "textflag.h"

// func crossScoresAVX2(s, q, x *float32, n, heads, frames int)
//
// s[h·frames + j] = Σ_{c<n} q[h·n + c]·x[j·n + c] for h < heads, j <
// frames: the scores of a block of audio frames against every head's
// back-projected query (cross_step.go). heads even, frames a positive
// multiple of 4, n a positive multiple of 8. Two heads times four frames
// at a time: each step loads two query and four audio vectors for eight
// FMAs into eight accumulators, and prefetches two cache lines of the
// frames eight ahead (CX), the next four frames' bytes over each group's
// loop, read past the block into the next (prefetches never fault).
TEXT ·crossScoresAVX2(SB), NOSPLIT, $0-48
	MOVQ s+0(FP), DI
	MOVQ q+8(FP), SI
	MOVQ x+16(FP), DX
	MOVQ n+24(FP), R9
	SHLQ $2, R9             // row stride in bytes, also the inner bound
	MOVQ heads+32(FP), R10
	IMULQ R9, R10
	ADDQ SI, R10            // end of q

pairs:
	CMPQ SI, R10
	JGE  done
	LEAQ (SI)(R9*1), BX     // q row h+1
	MOVQ DX, R11
	MOVQ frames+40(FP), R8

group4:
	LEAQ (R11)(R9*1), R12
	LEAQ (R11)(R9*2), R13
	LEAQ (R12)(R9*2), R14
	LEAQ (R11)(R9*8), CX    // the frames two groups ahead, prefetched
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	XORQ AX, AX

dot:
	PREFETCHT0  (CX)(AX*4)
	PREFETCHT0  64(CX)(AX*4)
	VMOVUPS     (SI)(AX*1), Y8
	VMOVUPS     (BX)(AX*1), Y9
	VMOVUPS     (R11)(AX*1), Y10
	VMOVUPS     (R12)(AX*1), Y11
	VMOVUPS     (R13)(AX*1), Y12
	VMOVUPS     (R14)(AX*1), Y13
	VFMADD231PS Y8, Y10, Y0
	VFMADD231PS Y8, Y11, Y1
	VFMADD231PS Y8, Y12, Y2
	VFMADD231PS Y8, Y13, Y3
	VFMADD231PS Y9, Y10, Y4
	VFMADD231PS Y9, Y11, Y5
	VFMADD231PS Y9, Y12, Y6
	VFMADD231PS Y9, Y13, Y7
	ADDQ $32, AX
	CMPQ AX, R9
	JL   dot

	VHADDPS Y1, Y0, Y0
	VHADDPS Y3, Y2, Y2
	VHADDPS Y2, Y0, Y0      // [f0 f1 f2 f3 | f0 f1 f2 f3] partial sums, head h
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VMOVUPS X0, (DI)
	MOVQ frames+40(FP), CX
	SHLQ $2, CX             // s row stride in bytes
	VHADDPS Y5, Y4, Y4
	VHADDPS Y7, Y6, Y6
	VHADDPS Y6, Y4, Y4      // the same for head h+1
	VEXTRACTF128 $1, Y4, X5
	VADDPS X5, X4, X4
	VMOVUPS X4, (DI)(CX*1)
	ADDQ $16, DI
	LEAQ (R14)(R9*1), R11
	SUBQ $4, R8
	JNZ  group4

	MOVQ frames+40(FP), CX
	SHLQ $2, CX
	ADDQ CX, DI             // past row h+1 of s
	LEAQ (BX)(R9*1), SI
	JMP  pairs

done:
	VZEROUPPER
	RET

// func crossAccumAVX2(acc, p, x, corr *float32, n, heads, frames int)
//
// acc[h·n + c] = corr[h]·acc[h·n + c] + Σ_{j<frames} p[h·frames + j]·x[j·n
// + c] for h < heads, c < n: an online softmax's rescaled running sums of
// the audio rows weighted by a block's probabilities (cross_step.go).
// heads even, n a positive multiple of 32, frames positive. Two heads
// times 32 columns at a time in eight accumulators: each frame loads four
// audio vectors and broadcasts two weights for eight FMAs.
TEXT ·crossAccumAVX2(SB), NOSPLIT, $0-56
	MOVQ acc+0(FP), DI
	MOVQ p+8(FP), SI
	MOVQ x+16(FP), DX
	MOVQ corr+24(FP), R14
	MOVQ n+32(FP), R9
	SHLQ $2, R9             // row stride in bytes
	MOVQ heads+40(FP), R8
	MOVQ frames+48(FP), CX
	SHLQ $2, CX             // p row stride in bytes

hpairs:
	TESTQ R8, R8
	JZ   accdone
	LEAQ (SI)(CX*1), BX     // p row h+1
	VBROADCASTSS (R14), Y14
	VBROADCASTSS 4(R14), Y15
	XORQ AX, AX             // column offset in bytes

cols32:
	VMULPS (DI)(AX*1), Y14, Y0
	VMULPS 32(DI)(AX*1), Y14, Y1
	VMULPS 64(DI)(AX*1), Y14, Y2
	VMULPS 96(DI)(AX*1), Y14, Y3
	LEAQ (DI)(R9*1), R13
	VMULPS (R13)(AX*1), Y15, Y4
	VMULPS 32(R13)(AX*1), Y15, Y5
	VMULPS 64(R13)(AX*1), Y15, Y6
	VMULPS 96(R13)(AX*1), Y15, Y7
	LEAQ (DX)(AX*1), R11    // x[0, c]
	XORQ R12, R12           // frame offset in bytes in p
	MOVQ frames+48(FP), R10

frame:
	VBROADCASTSS (SI)(R12*1), Y8
	VBROADCASTSS (BX)(R12*1), Y9
	VMOVUPS      (R11), Y10
	VMOVUPS      32(R11), Y11
	VMOVUPS      64(R11), Y12
	VMOVUPS      96(R11), Y13
	VFMADD231PS  Y8, Y10, Y0
	VFMADD231PS  Y8, Y11, Y1
	VFMADD231PS  Y8, Y12, Y2
	VFMADD231PS  Y8, Y13, Y3
	VFMADD231PS  Y9, Y10, Y4
	VFMADD231PS  Y9, Y11, Y5
	VFMADD231PS  Y9, Y12, Y6
	VFMADD231PS  Y9, Y13, Y7
	ADDQ $4, R12
	ADDQ R9, R11
	DECQ R10
	JNZ  frame

	VMOVUPS Y0, (DI)(AX*1)
	VMOVUPS Y1, 32(DI)(AX*1)
	VMOVUPS Y2, 64(DI)(AX*1)
	VMOVUPS Y3, 96(DI)(AX*1)
	VMOVUPS Y4, (R13)(AX*1)
	VMOVUPS Y5, 32(R13)(AX*1)
	VMOVUPS Y6, 64(R13)(AX*1)
	VMOVUPS Y7, 96(R13)(AX*1)
	ADDQ $128, AX
	CMPQ AX, R9
	JL   cols32

	LEAQ (DI)(R9*2), DI     // acc rows h+2…
	LEAQ (BX)(CX*1), SI     // p rows h+2…
	ADDQ $8, R14
	SUBQ $2, R8
	JMP  hpairs

accdone:
	VZEROUPPER
	RET
