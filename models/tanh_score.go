package models

// The inner loops of the additive attention score (package attention),
// fused: at one memory position the score is e = vᵀ·tanh(a + b + c) (the
// key projection, the query term and, with location features, the
// location term), and its backward pass needs y = tanh(a + b + c) only to
// form three gradients. Separately (a tanh pass, then axpy and dot calls
// of gonum's SSE level-1 BLAS) the backward pass made five passes over A
// floats per position and was 18% of a training step of the speech model.

// TanhScore returns Σ_i v[i]·tanh(a[i] + b[i] + c[i]) over len(v)
// elements; c may be nil (no third term). float32 runs eight lanes at a
// time with AVX2/FMA where the CPU has them, with Tanh's approximation.
func TanhScore[F Float](a, b, c, v []F) F {
	n := len(v)
	a, b = a[:n], b[:n]
	if c != nil {
		c = c[:n]
	}
	var s F
	i := 0
	if isFloat32[F]() {
		var s32 float32
		i, s32 = tanhScoreFast(asFloat32(a), asFloat32(b), asFloat32(c), asFloat32(v))
		s = F(s32)
	}
	for ; i < n; i++ {
		x := a[i] + b[i]
		if c != nil {
			x += c[i]
		}
		s += v[i] * Tanh(x)
	}
	return s
}

// TanhScoreBackward is the backward pass of TanhScore for a score gradient
// d = ∂L/∂e: with y = tanh(a + b + c) (c may be nil),
//
//	dv += d·y,   g = d·v⊙(1 − y²),   dp = g (dp += g with add),   dq += g
//
// where g is ∂L/∂(a + b + c), wanted by a, b and c alike: the caller
// writes or adds it to one of them (dp) and sums another's over positions
// (dq). Slices are len(v) long; dp and dq must not overlap the others.
func TanhScoreBackward[F Float](dp, dv, dq, a, b, c, v []F, d F, add bool) {
	n := len(v)
	dp, dv, dq, a, b = dp[:n], dv[:n], dq[:n], a[:n], b[:n]
	if c != nil {
		c = c[:n]
	}
	i := 0
	if isFloat32[F]() {
		i = tanhScoreBackFast(asFloat32(dp), asFloat32(dv), asFloat32(dq), asFloat32(a), asFloat32(b), asFloat32(c), asFloat32(v), float32(d), add)
	}
	for ; i < n; i++ {
		x := a[i] + b[i]
		if c != nil {
			x += c[i]
		}
		y := Tanh(x)
		dv[i] += d * y
		g := d * v[i] * (1 - y*y)
		if add {
			dp[i] += g
		} else {
			dp[i] = g
		}
		dq[i] += g
	}
}
