//go:build !purego

#include "textflag.h"

// Block kernels (blocks_amd64.go). Each DECODE_ macro widens a block of
// 32 to 32 int8 values q (as ggml's AVX2 code unpacks them), converts them
// to float32 and scales them by the block's d (plus m) exactly as
// DequantizeRow rounds them, into Y6–Y9; matVec kernels multiply those
// into four accumulators of eight lanes against x, dequantize kernels
// store them. Registers: Y0–Y3 the accumulators, Y4 d, Y5 the 32 q bytes,
// Y6–Y10 scratch, Y11–Y15 constants.

DATA nib<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nib<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nib<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nib<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nib<>(SB), RODATA|NOPTR, $32

// byte j of a broadcast qh gets byte j/8 of qh (ggml's bytes_from_bits_32).
DATA shuf<>+0(SB)/8, $0x0000000000000000
DATA shuf<>+8(SB)/8, $0x0101010101010101
DATA shuf<>+16(SB)/8, $0x0202020202020202
DATA shuf<>+24(SB)/8, $0x0303030303030303
GLOBL shuf<>(SB), RODATA|NOPTR, $32

// byte j: every bit set but bit j mod 8.
DATA bits<>+0(SB)/8, $0x7fbfdfeff7fbfdfe
DATA bits<>+8(SB)/8, $0x7fbfdfeff7fbfdfe
DATA bits<>+16(SB)/8, $0x7fbfdfeff7fbfdfe
DATA bits<>+24(SB)/8, $0x7fbfdfeff7fbfdfe
GLOBL bits<>(SB), RODATA|NOPTR, $32

DATA hi4<>+0(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA hi4<>+8(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA hi4<>+16(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA hi4<>+24(SB)/8, $0xf0f0f0f0f0f0f0f0
GLOBL hi4<>(SB), RODATA|NOPTR, $32

DATA bit4<>+0(SB)/8, $0x1010101010101010
DATA bit4<>+8(SB)/8, $0x1010101010101010
DATA bit4<>+16(SB)/8, $0x1010101010101010
DATA bit4<>+24(SB)/8, $0x1010101010101010
GLOBL bit4<>(SB), RODATA|NOPTR, $32

DATA eight<>+0(SB)/8, $0x0808080808080808
DATA eight<>+8(SB)/8, $0x0808080808080808
DATA eight<>+16(SB)/8, $0x0808080808080808
DATA eight<>+24(SB)/8, $0x0808080808080808
GLOBL eight<>(SB), RODATA|NOPTR, $32

// Arguments of every kernel: y *float32, rows int, w *byte, blocks int
// (per row), x *float32; rows and blocks positive.
#define ARGS \
	MOVQ y+0(FP), DX; \
	MOVQ rows+8(FP), BX; \
	MOVQ w+16(FP), DI; \
	MOVQ blocks+24(FP), CX; \
	MOVQ x+32(FP), SI; \
	CONSTANTS

// CONSTANTS loads the unpacking masks.
#define CONSTANTS \
	VMOVDQU nib<>(SB), Y11; \
	VMOVDQU shuf<>(SB), Y12; \
	VMOVDQU bits<>(SB), Y13; \
	VPCMPEQB Y14, Y14, Y14

// ROW starts a row: zero accumulators, x from its start.
#define ROW \
	VXORPS Y0, Y0, Y0; \
	VXORPS Y1, Y1, Y1; \
	VXORPS Y2, Y2, Y2; \
	VXORPS Y3, Y3, Y3; \
	MOVQ SI, R8; \
	MOVQ CX, R9

// SCALE loads the block's d (the half at off(DI)) into all lanes of Y4.
#define SCALE(off) \
	VPBROADCASTW off(DI), X4; \
	VCVTPH2PS X4, Y4

// NIBBLES puts the 16 bytes at off(DI), low nibbles then high nibbles,
// into the 32 bytes of Y5 (values 0…15).
#define NIBBLES(off) \
	VMOVDQU off(DI), X5; \
	VPSRLW $4, X5, X6; \
	VINSERTI128 $1, X6, Y5, Y5; \
	VPAND Y11, Y5, Y5

// HIGHBITS sets byte j of Y6 to 0xff where bit j of the uint32 at off(DI)
// is set, else 0.
#define HIGHBITS(off) \
	VPBROADCASTD off(DI), Y6; \
	VPSHUFB Y12, Y6, Y6; \
	VPOR Y13, Y6, Y6; \
	VPCMPEQB Y14, Y6, Y6

// WIDEN converts the 32 int8 of Y5 to float32 in Y6–Y9.
#define WIDEN \
	VPMOVSXBD X5, Y6; \
	VPSRLDQ $8, X5, X7; \
	VPMOVSXBD X7, Y7; \
	VEXTRACTI128 $1, Y5, X8; \
	VPSRLDQ $8, X8, X9; \
	VPMOVSXBD X8, Y8; \
	VPMOVSXBD X9, Y9; \
	VCVTDQ2PS Y6, Y6; \
	VCVTDQ2PS Y7, Y7; \
	VCVTDQ2PS Y8, Y8; \
	VCVTDQ2PS Y9, Y9

// TIMESD multiplies Y6–Y9 by d: the dequantized weights d·q.
#define TIMESD \
	VMULPS Y4, Y6, Y6; \
	VMULPS Y4, Y7, Y7; \
	VMULPS Y4, Y8, Y8; \
	VMULPS Y4, Y9, Y9

// PLUSM adds Y10 (m) to Y6–Y9: d·q + m, rounded after the product.
#define PLUSM \
	VADDPS Y10, Y6, Y6; \
	VADDPS Y10, Y7, Y7; \
	VADDPS Y10, Y8, Y8; \
	VADDPS Y10, Y9, Y9

// ACCUMULATE adds Y6–Y9 times the block's 32 values of x into Y0–Y3 and
// steps to the next block of size bytes (R9 counts the blocks down).
#define ACCUMULATE(size) \
	VFMADD231PS (R8), Y6, Y0; \
	VFMADD231PS 32(R8), Y7, Y1; \
	VFMADD231PS 64(R8), Y8, Y2; \
	VFMADD231PS 96(R8), Y9, Y3; \
	ADDQ $size, DI; \
	ADDQ $128, R8; \
	DECQ R9

// SUM4 sums the four accumulators a, b, c, d into the low lane of xa
// (a's low half; xb, b's, is scratch), in one fixed order.
#define SUM4(a, b, c, d, xa, xb) \
	VADDPS b, a, a; \
	VADDPS d, c, c; \
	VADDPS c, a, a; \
	VEXTRACTF128 $1, a, xb; \
	VADDPS xb, xa, xa; \
	VHADDPS xa, xa, xa; \
	VHADDPS xa, xa, xa

// LOADF32 loads a block of 32 float32 weights at DI into Y6–Y9, where the
// DECODE_ macros put them.
#define LOADF32 \
	VMOVUPS (DI), Y6; \
	VMOVUPS 32(DI), Y7; \
	VMOVUPS 64(DI), Y8; \
	VMOVUPS 96(DI), Y9

// STORE sums the accumulators into y[r] and steps to the next row.
#define STORE \
	SUM4(Y0, Y1, Y2, Y3, X0, X1); \
	VMOVSS X0, (DX); \
	ADDQ $4, DX; \
	DECQ BX

// The two-vector kernels (dotRowsF32X2AVX2, matVecQ8_0X2AVX2; the
// three-vector one's second vector too): arguments y0, y1 *float32, rows
// int, w, blocks int, x0, x1 *float32; the second vector's accumulators
// are Y10–Y13, its x in R12 (from R11 each row), its y in R10.
#define ARGS2 \
	MOVQ y0+0(FP), DX; \
	MOVQ y1+8(FP), R10; \
	MOVQ rows+16(FP), BX; \
	MOVQ w+24(FP), DI; \
	MOVQ blocks+32(FP), CX; \
	MOVQ x0+40(FP), SI; \
	MOVQ x1+48(FP), R11

// ROW2 starts a row for both vectors.
#define ROW2 \
	ROW; \
	VXORPS Y10, Y10, Y10; \
	VXORPS Y11, Y11, Y11; \
	VXORPS Y12, Y12, Y12; \
	VXORPS Y13, Y13, Y13; \
	MOVQ R11, R12

// ACCUMULATE2 adds Y6–Y9 times the second vector's block into Y10–Y13 and
// steps its x (ACCUMULATE then does the first vector's and steps the rest).
#define ACCUMULATE2 \
	VFMADD231PS (R12), Y6, Y10; \
	VFMADD231PS 32(R12), Y7, Y11; \
	VFMADD231PS 64(R12), Y8, Y12; \
	VFMADD231PS 96(R12), Y9, Y13; \
	ADDQ $128, R12

// STORE2 sums the second vector's accumulators into its y[r] (before
// STORE, which counts the row).
#define STORE2 \
	SUM4(Y10, Y11, Y12, Y13, X10, X11); \
	VMOVSS X10, (R10); \
	ADDQ $4, R10

// DECODE_Q8_0: block d, 32 int8 q; w = d·q.
#define DECODE_Q8_0 \
	SCALE(0); \
	VPMOVSXBD 2(DI), Y6; \
	VPMOVSXBD 10(DI), Y7; \
	VPMOVSXBD 18(DI), Y8; \
	VPMOVSXBD 26(DI), Y9; \
	VCVTDQ2PS Y6, Y6; \
	VCVTDQ2PS Y7, Y7; \
	VCVTDQ2PS Y8, Y8; \
	VCVTDQ2PS Y9, Y9; \
	TIMESD

// DECODE_Q4_0: block d, 16 bytes of nibbles; w = d·(q − 8).
#define DECODE_Q4_0 \
	SCALE(0); \
	NIBBLES(2); \
	VPSUBB Y15, Y5, Y5; \
	WIDEN; \
	TIMESD

// DECODE_Q4_1: block d, m, 16 bytes of nibbles; w = d·q + m.
#define DECODE_Q4_1 \
	SCALE(0); \
	VPBROADCASTW 2(DI), X10; \
	VCVTPH2PS X10, Y10; \
	NIBBLES(4); \
	WIDEN; \
	TIMESD; \
	PLUSM

// DECODE_Q5_0: block d, 32 high bits, 16 bytes of nibbles; w = d·(q − 16):
// the byte is the nibble where the high bit is set, else the nibble | 0xf0
// (its value minus 16 as int8).
#define DECODE_Q5_0 \
	SCALE(0); \
	NIBBLES(6); \
	HIGHBITS(2); \
	VPANDN Y15, Y6, Y6; \
	VPOR Y6, Y5, Y5; \
	WIDEN; \
	TIMESD

// DECODE_Q5_1: block d, m, 32 high bits, 16 bytes of nibbles; w = d·q + m.
#define DECODE_Q5_1 \
	SCALE(0); \
	NIBBLES(8); \
	HIGHBITS(4); \
	VPAND Y15, Y6, Y6; \
	VPOR Y6, Y5, Y5; \
	VPBROADCASTW 2(DI), X10; \
	VCVTPH2PS X10, Y10; \
	WIDEN; \
	TIMESD; \
	PLUSM

// func matVecQ8_0AVX2(y *float32, rows int, w *byte, blocks int, x *float32)
TEXT ·matVecQ8_0AVX2(SB), NOSPLIT, $0-40
	ARGS

mvq80row:
	ROW

mvq80block:
	PREFETCHT0 512(DI)
	DECODE_Q8_0
	ACCUMULATE(34)
	JNZ mvq80block
	STORE
	JNZ mvq80row
	VZEROUPPER
	RET

// func dequantizeQ8_0AVX2(y *float32, w *byte, blocks int)
TEXT ·dequantizeQ8_0AVX2(SB), NOSPLIT, $0-24
	MOVQ y+0(FP), DX
	MOVQ w+8(FP), DI
	MOVQ blocks+16(FP), CX
	CONSTANTS

dqq80block:
	DECODE_Q8_0
	VMOVUPS Y6, (DX)
	VMOVUPS Y7, 32(DX)
	VMOVUPS Y8, 64(DX)
	VMOVUPS Y9, 96(DX)
	ADDQ $34, DI
	ADDQ $128, DX
	DECQ CX
	JNZ dqq80block
	VZEROUPPER
	RET

// func matVecQ4_0AVX2(y *float32, rows int, w *byte, blocks int, x *float32)
TEXT ·matVecQ4_0AVX2(SB), NOSPLIT, $0-40
	ARGS
	VMOVDQU eight<>(SB), Y15

mvq40row:
	ROW

mvq40block:
	PREFETCHT0 512(DI)
	DECODE_Q4_0
	ACCUMULATE(18)
	JNZ mvq40block
	STORE
	JNZ mvq40row
	VZEROUPPER
	RET

// func dequantizeQ4_0AVX2(y *float32, w *byte, blocks int)
TEXT ·dequantizeQ4_0AVX2(SB), NOSPLIT, $0-24
	MOVQ y+0(FP), DX
	MOVQ w+8(FP), DI
	MOVQ blocks+16(FP), CX
	CONSTANTS
	VMOVDQU eight<>(SB), Y15

dqq40block:
	DECODE_Q4_0
	VMOVUPS Y6, (DX)
	VMOVUPS Y7, 32(DX)
	VMOVUPS Y8, 64(DX)
	VMOVUPS Y9, 96(DX)
	ADDQ $18, DI
	ADDQ $128, DX
	DECQ CX
	JNZ dqq40block
	VZEROUPPER
	RET

// func matVecQ4_1AVX2(y *float32, rows int, w *byte, blocks int, x *float32)
TEXT ·matVecQ4_1AVX2(SB), NOSPLIT, $0-40
	ARGS

mvq41row:
	ROW

mvq41block:
	PREFETCHT0 512(DI)
	DECODE_Q4_1
	ACCUMULATE(20)
	JNZ mvq41block
	STORE
	JNZ mvq41row
	VZEROUPPER
	RET

// func dequantizeQ4_1AVX2(y *float32, w *byte, blocks int)
TEXT ·dequantizeQ4_1AVX2(SB), NOSPLIT, $0-24
	MOVQ y+0(FP), DX
	MOVQ w+8(FP), DI
	MOVQ blocks+16(FP), CX
	CONSTANTS

dqq41block:
	DECODE_Q4_1
	VMOVUPS Y6, (DX)
	VMOVUPS Y7, 32(DX)
	VMOVUPS Y8, 64(DX)
	VMOVUPS Y9, 96(DX)
	ADDQ $20, DI
	ADDQ $128, DX
	DECQ CX
	JNZ dqq41block
	VZEROUPPER
	RET

// func matVecQ5_0AVX2(y *float32, rows int, w *byte, blocks int, x *float32)
TEXT ·matVecQ5_0AVX2(SB), NOSPLIT, $0-40
	ARGS
	VMOVDQU hi4<>(SB), Y15

mvq50row:
	ROW

mvq50block:
	PREFETCHT0 512(DI)
	DECODE_Q5_0
	ACCUMULATE(22)
	JNZ mvq50block
	STORE
	JNZ mvq50row
	VZEROUPPER
	RET

// func dequantizeQ5_0AVX2(y *float32, w *byte, blocks int)
TEXT ·dequantizeQ5_0AVX2(SB), NOSPLIT, $0-24
	MOVQ y+0(FP), DX
	MOVQ w+8(FP), DI
	MOVQ blocks+16(FP), CX
	CONSTANTS
	VMOVDQU hi4<>(SB), Y15

dqq50block:
	DECODE_Q5_0
	VMOVUPS Y6, (DX)
	VMOVUPS Y7, 32(DX)
	VMOVUPS Y8, 64(DX)
	VMOVUPS Y9, 96(DX)
	ADDQ $22, DI
	ADDQ $128, DX
	DECQ CX
	JNZ dqq50block
	VZEROUPPER
	RET

// func matVecQ5_1AVX2(y *float32, rows int, w *byte, blocks int, x *float32)
TEXT ·matVecQ5_1AVX2(SB), NOSPLIT, $0-40
	ARGS
	VMOVDQU bit4<>(SB), Y15

mvq51row:
	ROW

mvq51block:
	PREFETCHT0 512(DI)
	DECODE_Q5_1
	ACCUMULATE(24)
	JNZ mvq51block
	STORE
	JNZ mvq51row
	VZEROUPPER
	RET

// func dequantizeQ5_1AVX2(y *float32, w *byte, blocks int)
TEXT ·dequantizeQ5_1AVX2(SB), NOSPLIT, $0-24
	MOVQ y+0(FP), DX
	MOVQ w+8(FP), DI
	MOVQ blocks+16(FP), CX
	CONSTANTS
	VMOVDQU bit4<>(SB), Y15

dqq51block:
	DECODE_Q5_1
	VMOVUPS Y6, (DX)
	VMOVUPS Y7, 32(DX)
	VMOVUPS Y8, 64(DX)
	VMOVUPS Y9, 96(DX)
	ADDQ $24, DI
	ADDQ $128, DX
	DECQ CX
	JNZ dqq51block
	VZEROUPPER
	RET

// func dotRowsF32AVX2(y *float32, rows int, w *float32, blocks int, x *float32)
//
// y[r] = Σ_p w[r·32·blocks + p]·x[p] for float32 rows w (as the dequantize
// kernels store them), summed exactly as the matVec kernels sum their
// dequantized blocks (ACCUMULATE's four accumulators, STORE's order): for
// the rows of a quantized matrix dequantized once, y[r] is bit for bit
// what the matVec kernel gives (MatVecRows).
TEXT ·dotRowsF32AVX2(SB), NOSPLIT, $0-40
	MOVQ y+0(FP), DX
	MOVQ rows+8(FP), BX
	MOVQ w+16(FP), DI
	MOVQ blocks+24(FP), CX
	MOVQ x+32(FP), SI

f32x1row:
	ROW

f32x1block:
	LOADF32
	ACCUMULATE(128)
	JNZ f32x1block
	STORE
	JNZ f32x1row
	VZEROUPPER
	RET

// func dotRowsF32X2AVX2(y0, y1 *float32, rows int, w *float32, blocks int, x0, x1 *float32)
//
// dotRowsF32AVX2 for two vectors at once, each row of w loaded once: y0
// from x0 (accumulators Y0–Y3), y1 from x1 (Y10–Y13), each bit for bit
// what dotRowsF32AVX2 gives its vector alone.
TEXT ·dotRowsF32X2AVX2(SB), NOSPLIT, $0-56
	ARGS2

f32x2row:
	ROW2

f32x2block:
	LOADF32
	ACCUMULATE2
	ACCUMULATE(128)
	JNZ f32x2block
	STORE2
	STORE
	JNZ f32x2row
	VZEROUPPER
	RET

// func matVecQ8_0X2AVX2(y0, y1 *float32, rows int, w *byte, blocks int, x0, x1 *float32)
//
// matVecQ8_0AVX2 for two vectors at once, each block decoded once: y0
// from x0 (accumulators Y0–Y3), y1 from x1 (Y10–Y13), each bit for bit
// what matVecQ8_0AVX2 gives its vector alone (the same d·q, the same
// sums in the same order).
TEXT ·matVecQ8_0X2AVX2(SB), NOSPLIT, $0-56
	ARGS2

q80x2row:
	ROW2

q80x2block:
	PREFETCHT0 512(DI)
	DECODE_Q8_0
	ACCUMULATE2
	ACCUMULATE(34)
	JNZ q80x2block
	STORE2
	STORE
	JNZ q80x2row
	VZEROUPPER
	RET

// Q8_0X3 decodes octet j (eight weights, d·q, as DECODE_Q8_0 rounds them)
// of the block at DI into Y6 and adds it times the three vectors' octet j
// into their accumulators a, b, c.
#define Q8_0X3(j, a, b, c) \
	VPMOVSXBD (2+8*j)(DI), Y6; \
	VCVTDQ2PS Y6, Y6; \
	VMULPS Y4, Y6, Y6; \
	VFMADD231PS (32*j)(R8), Y6, a; \
	VFMADD231PS (32*j)(R12), Y6, b; \
	VFMADD231PS (32*j)(R13), Y6, c

// func matVecQ8_0X3AVX2(y0, y1, y2 *float32, rows int, w *byte, blocks int, x0, x1, x2 *float32)
//
// matVecQ8_0AVX2 for three vectors at once, each block decoded once, an
// octet at a time: y0 from x0 (accumulators Y0–Y3), y1 from x1
// (Y10–Y13), y2 from x2 (Y5, Y7–Y9), each bit for bit what
// matVecQ8_0AVX2 gives its vector alone.
TEXT ·matVecQ8_0X3AVX2(SB), NOSPLIT, $0-72
	MOVQ y0+0(FP), DX
	MOVQ y1+8(FP), R10
	MOVQ y2+16(FP), R11
	MOVQ rows+24(FP), BX
	MOVQ w+32(FP), DI
	MOVQ blocks+40(FP), CX
	MOVQ x0+48(FP), SI

q80x3row:
	ROW
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	VXORPS Y12, Y12, Y12
	VXORPS Y13, Y13, Y13
	VXORPS Y5, Y5, Y5
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	MOVQ x1+56(FP), R12
	MOVQ x2+64(FP), R13

q80x3block:
	PREFETCHT0 512(DI)
	SCALE(0)
	Q8_0X3(0, Y0, Y10, Y5)
	Q8_0X3(1, Y1, Y11, Y7)
	Q8_0X3(2, Y2, Y12, Y8)
	Q8_0X3(3, Y3, Y13, Y9)
	ADDQ $34, DI
	ADDQ $128, R8
	ADDQ $128, R12
	ADDQ $128, R13
	DECQ R9
	JNZ q80x3block
	SUM4(Y5, Y7, Y8, Y9, X5, X7)
	VMOVSS X5, (R11)
	ADDQ $4, R11
	STORE2
	STORE
	JNZ q80x3row
	VZEROUPPER
	RET
