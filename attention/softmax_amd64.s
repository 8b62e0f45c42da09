//go:build !purego

#include "textflag.h"

// Eight-wide copies of Exp32's constants: the range limits (hi, lo), log₂e,
// ½, ln2 in two parts (c1, c2), the polynomial p0…p5, 1, the exponent bias
// 127 (an integer) and +Inf, 32 bytes apart in that order.
DATA expc<>+0(SB)/4, $0x42b17217
DATA expc<>+4(SB)/4, $0x42b17217
DATA expc<>+8(SB)/4, $0x42b17217
DATA expc<>+12(SB)/4, $0x42b17217
DATA expc<>+16(SB)/4, $0x42b17217
DATA expc<>+20(SB)/4, $0x42b17217
DATA expc<>+24(SB)/4, $0x42b17217
DATA expc<>+28(SB)/4, $0x42b17217
DATA expc<>+32(SB)/4, $0xc2aeac4f
DATA expc<>+36(SB)/4, $0xc2aeac4f
DATA expc<>+40(SB)/4, $0xc2aeac4f
DATA expc<>+44(SB)/4, $0xc2aeac4f
DATA expc<>+48(SB)/4, $0xc2aeac4f
DATA expc<>+52(SB)/4, $0xc2aeac4f
DATA expc<>+56(SB)/4, $0xc2aeac4f
DATA expc<>+60(SB)/4, $0xc2aeac4f
DATA expc<>+64(SB)/4, $0x3fb8aa3b
DATA expc<>+68(SB)/4, $0x3fb8aa3b
DATA expc<>+72(SB)/4, $0x3fb8aa3b
DATA expc<>+76(SB)/4, $0x3fb8aa3b
DATA expc<>+80(SB)/4, $0x3fb8aa3b
DATA expc<>+84(SB)/4, $0x3fb8aa3b
DATA expc<>+88(SB)/4, $0x3fb8aa3b
DATA expc<>+92(SB)/4, $0x3fb8aa3b
DATA expc<>+96(SB)/4, $0x3f000000
DATA expc<>+100(SB)/4, $0x3f000000
DATA expc<>+104(SB)/4, $0x3f000000
DATA expc<>+108(SB)/4, $0x3f000000
DATA expc<>+112(SB)/4, $0x3f000000
DATA expc<>+116(SB)/4, $0x3f000000
DATA expc<>+120(SB)/4, $0x3f000000
DATA expc<>+124(SB)/4, $0x3f000000
DATA expc<>+128(SB)/4, $0x3f318000
DATA expc<>+132(SB)/4, $0x3f318000
DATA expc<>+136(SB)/4, $0x3f318000
DATA expc<>+140(SB)/4, $0x3f318000
DATA expc<>+144(SB)/4, $0x3f318000
DATA expc<>+148(SB)/4, $0x3f318000
DATA expc<>+152(SB)/4, $0x3f318000
DATA expc<>+156(SB)/4, $0x3f318000
DATA expc<>+160(SB)/4, $0xb95e8083
DATA expc<>+164(SB)/4, $0xb95e8083
DATA expc<>+168(SB)/4, $0xb95e8083
DATA expc<>+172(SB)/4, $0xb95e8083
DATA expc<>+176(SB)/4, $0xb95e8083
DATA expc<>+180(SB)/4, $0xb95e8083
DATA expc<>+184(SB)/4, $0xb95e8083
DATA expc<>+188(SB)/4, $0xb95e8083
DATA expc<>+192(SB)/4, $0x39506967
DATA expc<>+196(SB)/4, $0x39506967
DATA expc<>+200(SB)/4, $0x39506967
DATA expc<>+204(SB)/4, $0x39506967
DATA expc<>+208(SB)/4, $0x39506967
DATA expc<>+212(SB)/4, $0x39506967
DATA expc<>+216(SB)/4, $0x39506967
DATA expc<>+220(SB)/4, $0x39506967
DATA expc<>+224(SB)/4, $0x3ab743ce
DATA expc<>+228(SB)/4, $0x3ab743ce
DATA expc<>+232(SB)/4, $0x3ab743ce
DATA expc<>+236(SB)/4, $0x3ab743ce
DATA expc<>+240(SB)/4, $0x3ab743ce
DATA expc<>+244(SB)/4, $0x3ab743ce
DATA expc<>+248(SB)/4, $0x3ab743ce
DATA expc<>+252(SB)/4, $0x3ab743ce
DATA expc<>+256(SB)/4, $0x3c088908
DATA expc<>+260(SB)/4, $0x3c088908
DATA expc<>+264(SB)/4, $0x3c088908
DATA expc<>+268(SB)/4, $0x3c088908
DATA expc<>+272(SB)/4, $0x3c088908
DATA expc<>+276(SB)/4, $0x3c088908
DATA expc<>+280(SB)/4, $0x3c088908
DATA expc<>+284(SB)/4, $0x3c088908
DATA expc<>+288(SB)/4, $0x3d2aa9c1
DATA expc<>+292(SB)/4, $0x3d2aa9c1
DATA expc<>+296(SB)/4, $0x3d2aa9c1
DATA expc<>+300(SB)/4, $0x3d2aa9c1
DATA expc<>+304(SB)/4, $0x3d2aa9c1
DATA expc<>+308(SB)/4, $0x3d2aa9c1
DATA expc<>+312(SB)/4, $0x3d2aa9c1
DATA expc<>+316(SB)/4, $0x3d2aa9c1
DATA expc<>+320(SB)/4, $0x3e2aaaaa
DATA expc<>+324(SB)/4, $0x3e2aaaaa
DATA expc<>+328(SB)/4, $0x3e2aaaaa
DATA expc<>+332(SB)/4, $0x3e2aaaaa
DATA expc<>+336(SB)/4, $0x3e2aaaaa
DATA expc<>+340(SB)/4, $0x3e2aaaaa
DATA expc<>+344(SB)/4, $0x3e2aaaaa
DATA expc<>+348(SB)/4, $0x3e2aaaaa
DATA expc<>+352(SB)/4, $0x3f000000
DATA expc<>+356(SB)/4, $0x3f000000
DATA expc<>+360(SB)/4, $0x3f000000
DATA expc<>+364(SB)/4, $0x3f000000
DATA expc<>+368(SB)/4, $0x3f000000
DATA expc<>+372(SB)/4, $0x3f000000
DATA expc<>+376(SB)/4, $0x3f000000
DATA expc<>+380(SB)/4, $0x3f000000
DATA expc<>+384(SB)/4, $0x3f800000
DATA expc<>+388(SB)/4, $0x3f800000
DATA expc<>+392(SB)/4, $0x3f800000
DATA expc<>+396(SB)/4, $0x3f800000
DATA expc<>+400(SB)/4, $0x3f800000
DATA expc<>+404(SB)/4, $0x3f800000
DATA expc<>+408(SB)/4, $0x3f800000
DATA expc<>+412(SB)/4, $0x3f800000
DATA expc<>+416(SB)/4, $0x0000007f
DATA expc<>+420(SB)/4, $0x0000007f
DATA expc<>+424(SB)/4, $0x0000007f
DATA expc<>+428(SB)/4, $0x0000007f
DATA expc<>+432(SB)/4, $0x0000007f
DATA expc<>+436(SB)/4, $0x0000007f
DATA expc<>+440(SB)/4, $0x0000007f
DATA expc<>+444(SB)/4, $0x0000007f
DATA expc<>+448(SB)/4, $0x7f800000
DATA expc<>+452(SB)/4, $0x7f800000
DATA expc<>+456(SB)/4, $0x7f800000
DATA expc<>+460(SB)/4, $0x7f800000
DATA expc<>+464(SB)/4, $0x7f800000
DATA expc<>+468(SB)/4, $0x7f800000
DATA expc<>+472(SB)/4, $0x7f800000
DATA expc<>+476(SB)/4, $0x7f800000
GLOBL expc<>(SB), RODATA|NOPTR, $480

// EXP8(X, T1, T2, T3, T4) sets X = e^X lane by lane as Exp32 computes it
// (Cephes' expf: n = ⌊x·log₂e + ½⌋, r = x − n·ln2 in two parts, a degree-7
// polynomial, 2ⁿ built in the exponent field in two halves), then puts +Inf
// where x > 88.72283 and 0 where x < −87.33654. NaN lanes stay NaN (the
// comparisons are ordered, and NaN propagates through the arithmetic).
// T1…T4 are scratch.
#define EXP8(X, T1, T2, T3, T4) \
	VCMPPS       $0x1e, expc<>+0(SB), X, T3; \
	VCMPPS       $0x11, expc<>+32(SB), X, T4; \
	VMOVUPS      expc<>+96(SB), T1; \
	VFMADD231PS  expc<>+64(SB), X, T1; \
	VROUNDPS     $1, T1, T1; \
	VFNMADD231PS expc<>+128(SB), T1, X; \
	VFNMADD231PS expc<>+160(SB), T1, X; \
	VCVTPS2DQ    T1, T1; \
	VMOVUPS      expc<>+192(SB), T2; \
	VFMADD213PS  expc<>+224(SB), X, T2; \
	VFMADD213PS  expc<>+256(SB), X, T2; \
	VFMADD213PS  expc<>+288(SB), X, T2; \
	VFMADD213PS  expc<>+320(SB), X, T2; \
	VFMADD213PS  expc<>+352(SB), X, T2; \
	VMULPS       X, T2, T2; \
	VFMADD213PS  X, X, T2; \
	VADDPS       expc<>+384(SB), T2, T2; \
	VPSRAD       $1, T1, X; \
	VPSUBD       X, T1, T1; \
	VPADDD       expc<>+416(SB), X, X; \
	VPADDD       expc<>+416(SB), T1, T1; \
	VPSLLD       $23, X, X; \
	VPSLLD       $23, T1, T1; \
	VMULPS       X, T2, T2; \
	VMULPS       T1, T2, T2; \
	VBLENDVPS    T3, expc<>+448(SB), T2, T2; \
	VANDNPS      T2, T4, X

// func maxAVX2(x *float32, n int) float32
//
// The largest of x[0…n−1], n a positive multiple of 8.
TEXT ·maxAVX2(SB), NOSPLIT, $0-20
	MOVQ    x+0(FP), SI
	MOVQ    n+8(FP), CX
	VMOVUPS (SI), Y0
	ADDQ    $32, SI
	SUBQ    $8, CX
	JZ      reducemax

loopmax:
	VMAXPS  (SI), Y0, Y0
	ADDQ    $32, SI
	SUBQ    $8, CX
	JNZ     loopmax

reducemax:
	VEXTRACTF128 $1, Y0, X1
	VMAXPS  X1, X0, X0
	VPERMILPS $0x4e, X0, X1
	VMAXPS  X1, X0, X0
	VPERMILPS $0xb1, X0, X1
	VMAXPS  X1, X0, X0
	VZEROUPPER
	MOVSS   X0, ret+16(FP)
	RET

// func expSubSumAVX2(x *float32, n int, m float32) float32
//
// x[i] = e^(x[i]−m) for i < n, n a positive multiple of 8; returns their
// sum (eight partial sums, added at the end).
TEXT ·expSubSumAVX2(SB), NOSPLIT, $0-28
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSS m+16(FP), Y5
	VXORPS       Y6, Y6, Y6

loopexp:
	VMOVUPS (SI), Y0
	VSUBPS  Y5, Y0, Y0
	EXP8(Y0, Y1, Y2, Y3, Y4)
	VMOVUPS Y0, (SI)
	VADDPS  Y0, Y6, Y6
	ADDQ    $32, SI
	SUBQ    $8, CX
	JNZ     loopexp

	VEXTRACTF128 $1, Y6, X1
	VADDPS  X1, X6, X6
	VHADDPS X6, X6, X6
	VHADDPS X6, X6, X6
	VZEROUPPER
	MOVSS   X6, ret+24(FP)
	RET

// func scaleAVX2(x *float32, n int, s float32)
//
// x[i] *= s for i < n, n a positive multiple of 8.
TEXT ·scaleAVX2(SB), NOSPLIT, $0-20
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSS s+16(FP), Y1

loopscale:
	VMULPS  (SI), Y1, Y0
	VMOVUPS Y0, (SI)
	ADDQ    $32, SI
	SUBQ    $8, CX
	JNZ     loopscale
	VZEROUPPER
	RET

// func sumExpSubF64AVX2(x *float32, n int, m float32) float64
//
// Σ e^(x[i]−m) for i < n, n a positive multiple of 8, x left as it is:
// each exponential as Exp32 computes it, widened to float64 and added
// into eight float64 partial sums (two registers of four), added at the
// end.
TEXT ·sumExpSubF64AVX2(SB), NOSPLIT, $0-32
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSS m+16(FP), Y5
	VXORPD       Y6, Y6, Y6
	VXORPD       Y7, Y7, Y7

loopsumexp:
	VMOVUPS      (SI), Y0
	VSUBPS       Y5, Y0, Y0
	EXP8(Y0, Y1, Y2, Y3, Y4)
	VEXTRACTF128 $1, Y0, X1
	VCVTPS2PD    X0, Y0
	VCVTPS2PD    X1, Y1
	VADDPD       Y0, Y6, Y6
	VADDPD       Y1, Y7, Y7
	ADDQ         $32, SI
	SUBQ         $8, CX
	JNZ          loopsumexp

	VADDPD       Y7, Y6, Y6
	VEXTRACTF128 $1, Y6, X1
	VADDPD       X1, X6, X6
	VHADDPD      X6, X6, X6
	VZEROUPPER
	MOVSD        X6, ret+24(FP)
	RET
