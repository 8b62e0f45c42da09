package models

// Axpy computes y += α·x over len(x) elements and Dot returns Σ x[i]·y[i]:
// the level-1 loops of the attention kernels (context vectors, location
// convolutions), a few hundred floats per call. float32 runs 32 lanes per
// iteration with AVX2/FMA where the CPU has them (vec_amd64.s), about
// twice as fast as gonum's SSE loops at these lengths; the rest is Go.
func Axpy[F Float](alpha F, x, y []F) {
	y = y[:len(x)]
	i := 0
	if isFloat32[F]() {
		i = axpyFast(float32(alpha), asFloat32(x), asFloat32(y))
	}
	for ; i < len(x); i++ {
		y[i] += alpha * x[i]
	}
}

// Dot returns Σ x[i]·y[i] over len(x) elements (see Axpy).
func Dot[F Float](x, y []F) F {
	y = y[:len(x)]
	var s F
	i := 0
	if isFloat32[F]() {
		var s32 float32
		i, s32 = dotFast(asFloat32(x), asFloat32(y))
		s = F(s32)
	}
	for ; i < len(x); i++ {
		s += x[i] * y[i]
	}
	return s
}
