//go:build !purego

#include "textflag.h"

// Eight-wide copies of the coefficients of the float32 tanh approximation
// in float.go (tanhClamp, tanhP13 … tanhP1, tanhQ6 … tanhQ0), in that order.
DATA tanhc<>+0(SB)/4, $0x40fcf84f
DATA tanhc<>+4(SB)/4, $0x40fcf84f
DATA tanhc<>+8(SB)/4, $0x40fcf84f
DATA tanhc<>+12(SB)/4, $0x40fcf84f
DATA tanhc<>+16(SB)/4, $0x40fcf84f
DATA tanhc<>+20(SB)/4, $0x40fcf84f
DATA tanhc<>+24(SB)/4, $0x40fcf84f
DATA tanhc<>+28(SB)/4, $0x40fcf84f
DATA tanhc<>+32(SB)/4, $0xc0fcf84f
DATA tanhc<>+36(SB)/4, $0xc0fcf84f
DATA tanhc<>+40(SB)/4, $0xc0fcf84f
DATA tanhc<>+44(SB)/4, $0xc0fcf84f
DATA tanhc<>+48(SB)/4, $0xc0fcf84f
DATA tanhc<>+52(SB)/4, $0xc0fcf84f
DATA tanhc<>+56(SB)/4, $0xc0fcf84f
DATA tanhc<>+60(SB)/4, $0xc0fcf84f
DATA tanhc<>+64(SB)/4, $0xa59f25c0
DATA tanhc<>+68(SB)/4, $0xa59f25c0
DATA tanhc<>+72(SB)/4, $0xa59f25c0
DATA tanhc<>+76(SB)/4, $0xa59f25c0
DATA tanhc<>+80(SB)/4, $0xa59f25c0
DATA tanhc<>+84(SB)/4, $0xa59f25c0
DATA tanhc<>+88(SB)/4, $0xa59f25c0
DATA tanhc<>+92(SB)/4, $0xa59f25c0
DATA tanhc<>+96(SB)/4, $0x2a61337e
DATA tanhc<>+100(SB)/4, $0x2a61337e
DATA tanhc<>+104(SB)/4, $0x2a61337e
DATA tanhc<>+108(SB)/4, $0x2a61337e
DATA tanhc<>+112(SB)/4, $0x2a61337e
DATA tanhc<>+116(SB)/4, $0x2a61337e
DATA tanhc<>+120(SB)/4, $0x2a61337e
DATA tanhc<>+124(SB)/4, $0x2a61337e
DATA tanhc<>+128(SB)/4, $0xaebd37ff
DATA tanhc<>+132(SB)/4, $0xaebd37ff
DATA tanhc<>+136(SB)/4, $0xaebd37ff
DATA tanhc<>+140(SB)/4, $0xaebd37ff
DATA tanhc<>+144(SB)/4, $0xaebd37ff
DATA tanhc<>+148(SB)/4, $0xaebd37ff
DATA tanhc<>+152(SB)/4, $0xaebd37ff
DATA tanhc<>+156(SB)/4, $0xaebd37ff
DATA tanhc<>+160(SB)/4, $0x335c0041
DATA tanhc<>+164(SB)/4, $0x335c0041
DATA tanhc<>+168(SB)/4, $0x335c0041
DATA tanhc<>+172(SB)/4, $0x335c0041
DATA tanhc<>+176(SB)/4, $0x335c0041
DATA tanhc<>+180(SB)/4, $0x335c0041
DATA tanhc<>+184(SB)/4, $0x335c0041
DATA tanhc<>+188(SB)/4, $0x335c0041
DATA tanhc<>+192(SB)/4, $0x3779434a
DATA tanhc<>+196(SB)/4, $0x3779434a
DATA tanhc<>+200(SB)/4, $0x3779434a
DATA tanhc<>+204(SB)/4, $0x3779434a
DATA tanhc<>+208(SB)/4, $0x3779434a
DATA tanhc<>+212(SB)/4, $0x3779434a
DATA tanhc<>+216(SB)/4, $0x3779434a
DATA tanhc<>+220(SB)/4, $0x3779434a
DATA tanhc<>+224(SB)/4, $0x3a270ded
DATA tanhc<>+228(SB)/4, $0x3a270ded
DATA tanhc<>+232(SB)/4, $0x3a270ded
DATA tanhc<>+236(SB)/4, $0x3a270ded
DATA tanhc<>+240(SB)/4, $0x3a270ded
DATA tanhc<>+244(SB)/4, $0x3a270ded
DATA tanhc<>+248(SB)/4, $0x3a270ded
DATA tanhc<>+252(SB)/4, $0x3a270ded
DATA tanhc<>+256(SB)/4, $0x3ba059dc
DATA tanhc<>+260(SB)/4, $0x3ba059dc
DATA tanhc<>+264(SB)/4, $0x3ba059dc
DATA tanhc<>+268(SB)/4, $0x3ba059dc
DATA tanhc<>+272(SB)/4, $0x3ba059dc
DATA tanhc<>+276(SB)/4, $0x3ba059dc
DATA tanhc<>+280(SB)/4, $0x3ba059dc
DATA tanhc<>+284(SB)/4, $0x3ba059dc
DATA tanhc<>+288(SB)/4, $0x35a0d3d8
DATA tanhc<>+292(SB)/4, $0x35a0d3d8
DATA tanhc<>+296(SB)/4, $0x35a0d3d8
DATA tanhc<>+300(SB)/4, $0x35a0d3d8
DATA tanhc<>+304(SB)/4, $0x35a0d3d8
DATA tanhc<>+308(SB)/4, $0x35a0d3d8
DATA tanhc<>+312(SB)/4, $0x35a0d3d8
DATA tanhc<>+316(SB)/4, $0x35a0d3d8
DATA tanhc<>+320(SB)/4, $0x38f895d6
DATA tanhc<>+324(SB)/4, $0x38f895d6
DATA tanhc<>+328(SB)/4, $0x38f895d6
DATA tanhc<>+332(SB)/4, $0x38f895d6
DATA tanhc<>+336(SB)/4, $0x38f895d6
DATA tanhc<>+340(SB)/4, $0x38f895d6
DATA tanhc<>+344(SB)/4, $0x38f895d6
DATA tanhc<>+348(SB)/4, $0x38f895d6
DATA tanhc<>+352(SB)/4, $0x3b14aa05
DATA tanhc<>+356(SB)/4, $0x3b14aa05
DATA tanhc<>+360(SB)/4, $0x3b14aa05
DATA tanhc<>+364(SB)/4, $0x3b14aa05
DATA tanhc<>+368(SB)/4, $0x3b14aa05
DATA tanhc<>+372(SB)/4, $0x3b14aa05
DATA tanhc<>+376(SB)/4, $0x3b14aa05
DATA tanhc<>+380(SB)/4, $0x3b14aa05
DATA tanhc<>+384(SB)/4, $0x3ba059dd
DATA tanhc<>+388(SB)/4, $0x3ba059dd
DATA tanhc<>+392(SB)/4, $0x3ba059dd
DATA tanhc<>+396(SB)/4, $0x3ba059dd
DATA tanhc<>+400(SB)/4, $0x3ba059dd
DATA tanhc<>+404(SB)/4, $0x3ba059dd
DATA tanhc<>+408(SB)/4, $0x3ba059dd
DATA tanhc<>+412(SB)/4, $0x3ba059dd
GLOBL tanhc<>(SB), RODATA|NOPTR, $416

// func tanhAddAVX2(dst, a, b *float32, n int)
//
// dst[i] = tanh(a[i] + b[i]) for i < n, n a positive multiple of 8: the
// same rational approximation as tanhAdd32, eight lanes at a time, with the
// polynomials evaluated by fused multiply-adds.
TEXT ·tanhAddAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX

loop:
	VMOVUPS (SI), Y0
	VADDPS  (DX), Y0, Y0
	VMINPS  tanhc<>+0(SB), Y0, Y0
	VMAXPS  tanhc<>+32(SB), Y0, Y0
	VMULPS  Y0, Y0, Y1           // x²
	VMOVUPS tanhc<>+64(SB), Y2
	VFMADD213PS tanhc<>+96(SB), Y1, Y2
	VFMADD213PS tanhc<>+128(SB), Y1, Y2
	VFMADD213PS tanhc<>+160(SB), Y1, Y2
	VFMADD213PS tanhc<>+192(SB), Y1, Y2
	VFMADD213PS tanhc<>+224(SB), Y1, Y2
	VFMADD213PS tanhc<>+256(SB), Y1, Y2
	VMULPS  Y0, Y2, Y2           // p = x·P(x²)
	VMOVUPS tanhc<>+288(SB), Y3
	VFMADD213PS tanhc<>+320(SB), Y1, Y3
	VFMADD213PS tanhc<>+352(SB), Y1, Y3
	VFMADD213PS tanhc<>+384(SB), Y1, Y3
	VDIVPS  Y3, Y2, Y2           // p / Q(x²)
	VMOVUPS Y2, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ  loop
	VZEROUPPER
	RET

DATA halfc<>+0(SB)/4, $0x3f000000
DATA halfc<>+4(SB)/4, $0x3f000000
DATA halfc<>+8(SB)/4, $0x3f000000
DATA halfc<>+12(SB)/4, $0x3f000000
DATA halfc<>+16(SB)/4, $0x3f000000
DATA halfc<>+20(SB)/4, $0x3f000000
DATA halfc<>+24(SB)/4, $0x3f000000
DATA halfc<>+28(SB)/4, $0x3f000000
GLOBL halfc<>(SB), RODATA|NOPTR, $32

// TANH(X, X2, Q) sets X = tanh(X) by the rational approximation of
// tanhAddAVX2, with X2 and Q as scratch.
#define TANH(X, X2, Q) \
	VMINPS  tanhc<>+0(SB), X, X; \
	VMAXPS  tanhc<>+32(SB), X, X; \
	VMULPS  X, X, X2; \
	VMOVUPS tanhc<>+64(SB), Q; \
	VFMADD213PS tanhc<>+96(SB), X2, Q; \
	VFMADD213PS tanhc<>+128(SB), X2, Q; \
	VFMADD213PS tanhc<>+160(SB), X2, Q; \
	VFMADD213PS tanhc<>+192(SB), X2, Q; \
	VFMADD213PS tanhc<>+224(SB), X2, Q; \
	VFMADD213PS tanhc<>+256(SB), X2, Q; \
	VMULPS  X, Q, X; \
	VMOVUPS tanhc<>+288(SB), Q; \
	VFMADD213PS tanhc<>+320(SB), X2, Q; \
	VFMADD213PS tanhc<>+352(SB), X2, Q; \
	VFMADD213PS tanhc<>+384(SB), X2, Q; \
	VDIVPS  Q, X, X

// SIGMOID(X, X2, Q) sets X = σ(X) = 0.5 + 0.5·tanh(X/2).
#define SIGMOID(X, X2, Q) \
	VMULPS  halfc<>+0(SB), X, X; \
	TANH(X, X2, Q); \
	VMOVUPS halfc<>+0(SB), X2; \
	VFMADD213PS X2, X2, X

// func lstmCellAVX2(z, cPrev, c, h *float32, gateStride, n int)
//
// One row of cellForward for columns j < n, n a positive multiple of 8:
// with z[j], z[G+j], z[2G+j], z[3G+j] (G = gateStride) the pre-activations
// of the gates i, f, o, g, it writes their activations back over them and
//
//	c[j] = f·cPrev[j] + i·g   (i·g when cPrev is nil),  h[j] = o·tanh(c[j]).
TEXT ·lstmCellAVX2(SB), NOSPLIT, $0-48
	MOVQ z+0(FP), SI
	MOVQ cPrev+8(FP), BX
	MOVQ c+16(FP), DI
	MOVQ h+24(FP), DX
	MOVQ gateStride+32(FP), R8
	MOVQ n+40(FP), CX
	SHLQ $2, R8                  // gate stride in bytes
	LEAQ (R8)(R8*2), R9          // 3·stride

cellloop:
	VMOVUPS (SI), Y0
	SIGMOID(Y0, Y5, Y6)          // i
	VMOVUPS Y0, (SI)
	VMOVUPS (SI)(R8*1), Y1
	SIGMOID(Y1, Y5, Y6)          // f
	VMOVUPS Y1, (SI)(R8*1)
	VMOVUPS (SI)(R8*2), Y2
	SIGMOID(Y2, Y5, Y6)          // o
	VMOVUPS Y2, (SI)(R8*2)
	VMOVUPS (SI)(R9*1), Y3
	TANH(Y3, Y5, Y6)             // g
	VMOVUPS Y3, (SI)(R9*1)
	VMULPS  Y3, Y0, Y4           // i·g
	TESTQ   BX, BX
	JZ      noprev
	VFMADD231PS (BX), Y1, Y4     // + f·c₋₁
	ADDQ    $32, BX

noprev:
	VMOVUPS Y4, (DI)
	TANH(Y4, Y5, Y6)
	VMULPS  Y4, Y2, Y4           // o·tanh(c)
	VMOVUPS Y4, (DX)
	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ $32, DX
	SUBQ $8, CX
	JNZ  cellloop
	VZEROUPPER
	RET

DATA onec<>+0(SB)/4, $0x3f800000
DATA onec<>+4(SB)/4, $0x3f800000
DATA onec<>+8(SB)/4, $0x3f800000
DATA onec<>+12(SB)/4, $0x3f800000
DATA onec<>+16(SB)/4, $0x3f800000
DATA onec<>+20(SB)/4, $0x3f800000
DATA onec<>+24(SB)/4, $0x3f800000
DATA onec<>+28(SB)/4, $0x3f800000
GLOBL onec<>(SB), RODATA|NOPTR, $32

// func lstmCellBackAVX2(a, cPrev, c, dh, dc, d, dcPrev *float32, gateStride, n int)
//
// One row of cellBackward for columns j < n, n a positive multiple of 8,
// gates at a[j], a[G+j], a[2G+j], a[3G+j] (G = gateStride) as in
// lstmCellAVX2, their gradients likewise in d (which may be a):
//
//	dct = dc + dh·o·(1 − tanh²c)
//	di = dct·g·i(1−i), df = dct·c₋₁·f(1−f) (0 when cPrev is nil),
//	do = dh·tanh(c)·o(1−o), dg = dct·i(1−g²), dcPrev = dct·f (may be dc).
TEXT ·lstmCellBackAVX2(SB), NOSPLIT, $0-72
	MOVQ a+0(FP), SI
	MOVQ cPrev+8(FP), BX
	MOVQ c+16(FP), DI
	MOVQ dh+24(FP), DX
	MOVQ dc+32(FP), R10
	MOVQ d+40(FP), R11
	MOVQ dcPrev+48(FP), R12
	MOVQ gateStride+56(FP), R8
	MOVQ n+64(FP), CX
	SHLQ $2, R8
	LEAQ (R8)(R8*2), R9
	VMOVUPS onec<>+0(SB), Y15

backloop:
	VMOVUPS (SI), Y0             // i
	VMOVUPS (SI)(R8*1), Y1       // f
	VMOVUPS (SI)(R8*2), Y2       // o
	VMOVUPS (SI)(R9*1), Y3       // g
	VMOVUPS (DI), Y4
	TANH(Y4, Y7, Y8)             // tanh(c)
	VMOVUPS (DX), Y5             // dh
	VMULPS  Y4, Y4, Y7
	VSUBPS  Y7, Y15, Y7          // 1 − tanh²c
	VMULPS  Y5, Y2, Y8           // dh·o
	VMULPS  Y7, Y8, Y7
	VADDPS  (R10), Y7, Y6        // dct
	VSUBPS  Y2, Y15, Y7          // 1 − o
	VMULPS  Y4, Y8, Y8
	VMULPS  Y7, Y8, Y8           // do
	VMOVUPS Y8, (R11)(R8*2)
	VSUBPS  Y0, Y15, Y7
	VMULPS  Y0, Y7, Y7
	VMULPS  Y3, Y7, Y7
	VMULPS  Y6, Y7, Y7           // di
	VMOVUPS Y7, (R11)
	VMULPS  Y3, Y3, Y7
	VSUBPS  Y7, Y15, Y7
	VMULPS  Y0, Y7, Y7
	VMULPS  Y6, Y7, Y7           // dg
	VMOVUPS Y7, (R11)(R9*1)
	VXORPS  Y7, Y7, Y7
	TESTQ   BX, BX
	JZ      nocprev
	VSUBPS  Y1, Y15, Y7
	VMULPS  Y1, Y7, Y7
	VMULPS  (BX), Y7, Y7
	VMULPS  Y6, Y7, Y7
	ADDQ    $32, BX

nocprev:
	VMOVUPS Y7, (R11)(R8*1)      // df
	VMULPS  Y1, Y6, Y7
	VMOVUPS Y7, (R12)            // dcPrev
	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ $32, DX
	ADDQ $32, R10
	ADDQ $32, R11
	ADDQ $32, R12
	SUBQ $8, CX
	JNZ  backloop
	VZEROUPPER
	RET

// func tanhScoreAVX2(a, b, c, v *float32, n int) float32
//
// Σ_{i<n} v[i]·tanh(a[i] + b[i] + c[i]), n a positive multiple of 8; c may
// be nil (no third term).
TEXT ·tanhScoreAVX2(SB), NOSPLIT, $0-44
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DX
	MOVQ c+16(FP), R8
	MOVQ v+24(FP), R10
	MOVQ n+32(FP), CX
	VXORPS Y5, Y5, Y5

score_loop:
	VMOVUPS (SI), Y0
	VADDPS  (DX), Y0, Y0
	TESTQ   R8, R8
	JZ      score_noc
	VADDPS  (R8), Y0, Y0
	ADDQ    $32, R8

score_noc:
	TANH(Y0, Y1, Y2)
	VFMADD231PS (R10), Y0, Y5 // s += v·y
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, R10
	SUBQ $8, CX
	JNZ  score_loop
	VEXTRACTF128 $1, Y5, X6
	VADDPS       X6, X5, X5
	VPERMILPS    $0x4e, X5, X6
	VADDPS       X6, X5, X5
	VPERMILPS    $0xb1, X5, X6
	VADDSS       X6, X5, X5
	VMOVSS       X5, ret+40(FP)
	VZEROUPPER
	RET

// func tanhScoreBackAVX2(dp, dv, dq, a, b, c, v *float32, d float32, n, add int)
//
// For i < n, n a positive multiple of 8, with y = tanh(a[i] + b[i] + c[i])
// (no c[i] when c is nil) and g = d·v[i]·(1 − y²): dv[i] += d·y,
// dp[i] = g (dp[i] += g when add ≠ 0), dq[i] += g.
TEXT ·tanhScoreBackAVX2(SB), NOSPLIT, $0-80
	MOVQ dp+0(FP), DI
	MOVQ dv+8(FP), R9
	MOVQ dq+16(FP), R11
	MOVQ a+24(FP), SI
	MOVQ b+32(FP), DX
	MOVQ c+40(FP), R8
	MOVQ v+48(FP), R10
	VBROADCASTSS d+56(FP), Y15
	MOVQ n+64(FP), CX
	MOVQ add+72(FP), BX

back_loop:
	VMOVUPS (SI), Y0
	VADDPS  (DX), Y0, Y0
	TESTQ   R8, R8
	JZ      back_noc
	VADDPS  (R8), Y0, Y0
	ADDQ    $32, R8

back_noc:
	TANH(Y0, Y1, Y2)
	VMOVUPS (R9), Y3
	VFMADD231PS Y0, Y15, Y3   // dv += d·y
	VMOVUPS Y3, (R9)
	VMULPS  Y0, Y0, Y1        // y²
	VMULPS  (R10), Y15, Y2    // d·v
	VFNMADD231PS Y1, Y2, Y2   // g = d·v − d·v·y²
	VADDPS  (R11), Y2, Y4     // dq += g
	VMOVUPS Y4, (R11)
	TESTQ   BX, BX
	JZ      back_store
	VADDPS  (DI), Y2, Y2      // dp += g

back_store:
	VMOVUPS Y2, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, R10
	ADDQ $32, R9
	ADDQ $32, R11
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ  back_loop
	VZEROUPPER
	RET
