// Package cpu says which vector instructions the assembly kernels of this
// module may use (internal/sgemm, the LSTM cell kernels of package models,
// the depthwise convolution of package vision), without
// golang.org/x/sys/cpu: CPUID for what the processor implements, XGETBV for
// what the operating system saves on a context switch.
//
// Builds with the purego tag, and other architectures than amd64, have no
// assembly: there AVX2FMA is false.
package cpu

// AVX2FMA reports whether AVX2 and FMA instructions may run (x86-64-v3):
// the CPU has them and the operating system saves the YMM registers. It is
// false without assembly (purego, or not amd64).
var AVX2FMA = hasAVX2FMA()

// AVX512BF16 reports whether AVX-512F and the bfloat16 dot product
// VDPBF16PS (AVX512_BF16: Intel Cooper Lake and Sapphire Rapids, AMD Zen 4)
// may run, with the operating system saving the ZMM registers. It is false
// without assembly.
var AVX512BF16 = hasAVX512BF16()
