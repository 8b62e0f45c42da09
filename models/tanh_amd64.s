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
