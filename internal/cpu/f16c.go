package cpu

// F16C reports whether, besides AVX2 and FMA (AVX2FMA), the CPU converts
// between IEEE half and single precision (VCVTPH2PS, VCVTPS2PH: CPUID leaf
// 1 ECX bit 29). It is false without assembly.
var F16C = AVX2FMA && hasF16C()
