// gen_reference writes ggml_reference.bin, the golden file of
// TestQuantizeMatchesReference: blocks of float32 inputs, and for each of
// q4_0, q4_1, q5_0, q5_1, q8_0 what ggml's own quantize_row_*_ref and
// dequantize_row_* (ggml/src/ggml-quants.c) make of them.
//
// Build against a whisper.cpp (or ggml) checkout W, without contraction
// of a*b+c into fused multiply-adds (ISO C, as ggml's CMake builds it):
//
//	gcc -std=c11 -O2 -ffunction-sections -Wl,--gc-sections \
//	    -IW/ggml/include -IW/ggml/src gen_reference.c W/ggml/src/ggml-quants.c -lm -o gen
//	./gen > ggml_reference.bin
//
// Layout (little-endian): "gref", uint32 nblocks, 32·nblocks float32
// inputs; then per type in the order above the quantized bytes and the
// 32·nblocks dequantized float32.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ggml-common.h"
#include "ggml-quants.h"

// Stubs for the ggml functions ggml-quants.c refers to outside the code
// used here, so that it links without the rest of ggml.
size_t ggml_type_size(enum ggml_type type) { (void)type; return 0; }
const char *ggml_type_name(enum ggml_type type) { (void)type; return "?"; }

enum { NB = 96, N = NB * 32 };

static uint64_t state = 0x9e3779b97f4a7c15ull;

// uniform returns a float in [-1, 1) from xorshift64*.
static float uniform(void) {
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	uint64_t r = state * 2685821657736338717ull;
	return (float)((double)(r >> 40) / (double)(1ull << 23)) - 1.0f;
}

static void block(float *x, int kind) {
	static const float scales[] = {1, 1e-3f, 0.05f, 3, 250, 1e-6f, 2e4f};
	float s = scales[kind % 7];
	for (int j = 0; j < 32; j++) {
		x[j] = s * uniform();
	}
	switch (kind / 7) {
	case 0: // random
		break;
	case 1: // zeros
		memset(x, 0, 32 * sizeof(float));
		break;
	case 2: // constant, alternating sign per scale
		for (int j = 0; j < 32; j++) x[j] = (kind % 2 ? -s : s);
		break;
	case 3: // one outlier, positive or negative
		x[kind % 32] = (kind % 2 ? -40 : 40) * s;
		break;
	case 4: // integers −8 … 8 times s: x/d lands on ties of the rounding
		for (int j = 0; j < 32; j++) x[j] = s * (float)((j % 17) - 8) * 0.5f;
		break;
	case 5: // a ramp from −s to s
		for (int j = 0; j < 32; j++) x[j] = s * ((float)j / 15.5f - 1);
		break;
	case 6: // tiny values: scales that underflow a half
		for (int j = 0; j < 32; j++) x[j] *= 1e-5f;
		break;
	case 7: // huge values: scales that overflow a half
		for (int j = 0; j < 32; j++) x[j] *= 1e5f;
		break;
	default: // random with a repeated extreme of both signs
		x[3] = s, x[17] = -s;
	}
}

static float x[N], y[N];
static uint8_t q[NB * 34];

int main(void) {
	for (int b = 0; b < NB; b++) block(x + 32 * b, b);
	uint32_t nb = NB;
	fwrite("gref", 1, 4, stdout);
	fwrite(&nb, 4, 1, stdout);
	fwrite(x, sizeof(float), N, stdout);

	quantize_row_q4_0_ref(x, (block_q4_0 *)q, N);
	dequantize_row_q4_0((block_q4_0 *)q, y, N);
	fwrite(q, sizeof(block_q4_0), NB, stdout);
	fwrite(y, sizeof(float), N, stdout);

	quantize_row_q4_1_ref(x, (block_q4_1 *)q, N);
	dequantize_row_q4_1((block_q4_1 *)q, y, N);
	fwrite(q, sizeof(block_q4_1), NB, stdout);
	fwrite(y, sizeof(float), N, stdout);

	quantize_row_q5_0_ref(x, (block_q5_0 *)q, N);
	dequantize_row_q5_0((block_q5_0 *)q, y, N);
	fwrite(q, sizeof(block_q5_0), NB, stdout);
	fwrite(y, sizeof(float), N, stdout);

	quantize_row_q5_1_ref(x, (block_q5_1 *)q, N);
	dequantize_row_q5_1((block_q5_1 *)q, y, N);
	fwrite(q, sizeof(block_q5_1), NB, stdout);
	fwrite(y, sizeof(float), N, stdout);

	quantize_row_q8_0_ref(x, (block_q8_0 *)q, N);
	dequantize_row_q8_0((block_q8_0 *)q, y, N);
	fwrite(q, sizeof(block_q8_0), NB, stdout);
	fwrite(y, sizeof(float), N, stdout);
	return 0;
}
