//go:build !purego

#include "textflag.h"

// Eight-wide copies of constants, 32 bytes apart: first attention.Exp32's
// (hi, lo, log₂e, ½, c1, c2, p0…p5, 1, the integer 127, +Inf: the same
// block as attention/softmax_amd64.s, so EXP8 is the same macro), then
// erfcAbs's polynomial g0…g8 (highest degree first) and g9 = −1.26551223,
// 1/√2, 2 and the mask of all but the sign bit.
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
DATA expc<>+480(SB)/4, $0x3e2ef945
DATA expc<>+484(SB)/4, $0x3e2ef945
DATA expc<>+488(SB)/4, $0x3e2ef945
DATA expc<>+492(SB)/4, $0x3e2ef945
DATA expc<>+496(SB)/4, $0x3e2ef945
DATA expc<>+500(SB)/4, $0x3e2ef945
DATA expc<>+504(SB)/4, $0x3e2ef945
DATA expc<>+508(SB)/4, $0x3e2ef945
DATA expc<>+512(SB)/4, $0xbf527892
DATA expc<>+516(SB)/4, $0xbf527892
DATA expc<>+520(SB)/4, $0xbf527892
DATA expc<>+524(SB)/4, $0xbf527892
DATA expc<>+528(SB)/4, $0xbf527892
DATA expc<>+532(SB)/4, $0xbf527892
DATA expc<>+536(SB)/4, $0xbf527892
DATA expc<>+540(SB)/4, $0xbf527892
DATA expc<>+544(SB)/4, $0x3fbe87b0
DATA expc<>+548(SB)/4, $0x3fbe87b0
DATA expc<>+552(SB)/4, $0x3fbe87b0
DATA expc<>+556(SB)/4, $0x3fbe87b0
DATA expc<>+560(SB)/4, $0x3fbe87b0
DATA expc<>+564(SB)/4, $0x3fbe87b0
DATA expc<>+568(SB)/4, $0x3fbe87b0
DATA expc<>+572(SB)/4, $0x3fbe87b0
DATA expc<>+576(SB)/4, $0xbf914e5d
DATA expc<>+580(SB)/4, $0xbf914e5d
DATA expc<>+584(SB)/4, $0xbf914e5d
DATA expc<>+588(SB)/4, $0xbf914e5d
DATA expc<>+592(SB)/4, $0xbf914e5d
DATA expc<>+596(SB)/4, $0xbf914e5d
DATA expc<>+600(SB)/4, $0xbf914e5d
DATA expc<>+604(SB)/4, $0xbf914e5d
DATA expc<>+608(SB)/4, $0x3e8ec7cc
DATA expc<>+612(SB)/4, $0x3e8ec7cc
DATA expc<>+616(SB)/4, $0x3e8ec7cc
DATA expc<>+620(SB)/4, $0x3e8ec7cc
DATA expc<>+624(SB)/4, $0x3e8ec7cc
DATA expc<>+628(SB)/4, $0x3e8ec7cc
DATA expc<>+632(SB)/4, $0x3e8ec7cc
DATA expc<>+636(SB)/4, $0x3e8ec7cc
DATA expc<>+640(SB)/4, $0xbe3ec24c
DATA expc<>+644(SB)/4, $0xbe3ec24c
DATA expc<>+648(SB)/4, $0xbe3ec24c
DATA expc<>+652(SB)/4, $0xbe3ec24c
DATA expc<>+656(SB)/4, $0xbe3ec24c
DATA expc<>+660(SB)/4, $0xbe3ec24c
DATA expc<>+664(SB)/4, $0xbe3ec24c
DATA expc<>+668(SB)/4, $0xbe3ec24c
DATA expc<>+672(SB)/4, $0x3dc636c9
DATA expc<>+676(SB)/4, $0x3dc636c9
DATA expc<>+680(SB)/4, $0x3dc636c9
DATA expc<>+684(SB)/4, $0x3dc636c9
DATA expc<>+688(SB)/4, $0x3dc636c9
DATA expc<>+692(SB)/4, $0x3dc636c9
DATA expc<>+696(SB)/4, $0x3dc636c9
DATA expc<>+700(SB)/4, $0x3dc636c9
DATA expc<>+704(SB)/4, $0x3ebf88fb
DATA expc<>+708(SB)/4, $0x3ebf88fb
DATA expc<>+712(SB)/4, $0x3ebf88fb
DATA expc<>+716(SB)/4, $0x3ebf88fb
DATA expc<>+720(SB)/4, $0x3ebf88fb
DATA expc<>+724(SB)/4, $0x3ebf88fb
DATA expc<>+728(SB)/4, $0x3ebf88fb
DATA expc<>+732(SB)/4, $0x3ebf88fb
DATA expc<>+736(SB)/4, $0x3f8000c7
DATA expc<>+740(SB)/4, $0x3f8000c7
DATA expc<>+744(SB)/4, $0x3f8000c7
DATA expc<>+748(SB)/4, $0x3f8000c7
DATA expc<>+752(SB)/4, $0x3f8000c7
DATA expc<>+756(SB)/4, $0x3f8000c7
DATA expc<>+760(SB)/4, $0x3f8000c7
DATA expc<>+764(SB)/4, $0x3f8000c7
DATA expc<>+768(SB)/4, $0xbfa1fc4e
DATA expc<>+772(SB)/4, $0xbfa1fc4e
DATA expc<>+776(SB)/4, $0xbfa1fc4e
DATA expc<>+780(SB)/4, $0xbfa1fc4e
DATA expc<>+784(SB)/4, $0xbfa1fc4e
DATA expc<>+788(SB)/4, $0xbfa1fc4e
DATA expc<>+792(SB)/4, $0xbfa1fc4e
DATA expc<>+796(SB)/4, $0xbfa1fc4e
DATA expc<>+800(SB)/4, $0x3f3504f3
DATA expc<>+804(SB)/4, $0x3f3504f3
DATA expc<>+808(SB)/4, $0x3f3504f3
DATA expc<>+812(SB)/4, $0x3f3504f3
DATA expc<>+816(SB)/4, $0x3f3504f3
DATA expc<>+820(SB)/4, $0x3f3504f3
DATA expc<>+824(SB)/4, $0x3f3504f3
DATA expc<>+828(SB)/4, $0x3f3504f3
DATA expc<>+832(SB)/4, $0x40000000
DATA expc<>+836(SB)/4, $0x40000000
DATA expc<>+840(SB)/4, $0x40000000
DATA expc<>+844(SB)/4, $0x40000000
DATA expc<>+848(SB)/4, $0x40000000
DATA expc<>+852(SB)/4, $0x40000000
DATA expc<>+856(SB)/4, $0x40000000
DATA expc<>+860(SB)/4, $0x40000000
DATA expc<>+864(SB)/4, $0x7fffffff
DATA expc<>+868(SB)/4, $0x7fffffff
DATA expc<>+872(SB)/4, $0x7fffffff
DATA expc<>+876(SB)/4, $0x7fffffff
DATA expc<>+880(SB)/4, $0x7fffffff
DATA expc<>+884(SB)/4, $0x7fffffff
DATA expc<>+888(SB)/4, $0x7fffffff
DATA expc<>+892(SB)/4, $0x7fffffff
GLOBL expc<>(SB), RODATA|NOPTR, $896

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

// func geluAVX2(x *float32, n int)
//
// x[i] = GELU(x[i]) for i < n, n a positive multiple of 8, by gelu32's
// formula: q = erfc(|x|/√2) from erfcAbs's approximation, then x/2·q for
// negative x and x/2·(2 − q) otherwise (the sign bit of x picks).
TEXT ·geluAVX2(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX

loop:
	VMOVUPS      (SI), Y0
	VMULPS       expc<>+800(SB), Y0, Y1
	VANDPS       expc<>+864(SB), Y1, Y1        // z = |x|/√2
	VMOVUPS      expc<>+384(SB), Y2
	VFMADD231PS  expc<>+96(SB), Y1, Y2         // 1 + z/2
	VMOVUPS      expc<>+384(SB), Y3
	VDIVPS       Y2, Y3, Y3                    // t
	VMOVUPS      expc<>+480(SB), Y4
	VFMADD213PS  expc<>+512(SB), Y3, Y4
	VFMADD213PS  expc<>+544(SB), Y3, Y4
	VFMADD213PS  expc<>+576(SB), Y3, Y4
	VFMADD213PS  expc<>+608(SB), Y3, Y4
	VFMADD213PS  expc<>+640(SB), Y3, Y4
	VFMADD213PS  expc<>+672(SB), Y3, Y4
	VFMADD213PS  expc<>+704(SB), Y3, Y4
	VFMADD213PS  expc<>+736(SB), Y3, Y4
	VFMADD213PS  expc<>+768(SB), Y3, Y4        // t·P(t) − 1.26551223
	VFNMADD231PS Y1, Y1, Y4                    // − z²
	EXP8(Y4, Y5, Y6, Y7, Y8)
	VMULPS       Y3, Y4, Y4                    // q = erfc(z)
	VMOVUPS      expc<>+832(SB), Y5
	VSUBPS       Y4, Y5, Y5                    // 2 − q
	VBLENDVPS    Y0, Y4, Y5, Y5                // x < 0 (sign bit): q
	VMULPS       expc<>+96(SB), Y0, Y0         // x/2 first, as gelu32 (no overflow at MaxFloat32)
	VMULPS       Y0, Y5, Y0
	VMOVUPS      Y0, (SI)
	ADDQ         $32, SI
	SUBQ         $8, CX
	JNZ          loop
	VZEROUPPER
	RET
