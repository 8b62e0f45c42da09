package models

// The LSTM cell math, written once over Float and shared by the step kernel,
// the sequence kernels (LSTM, BiLSTM) and the eager faces.
//
// Gates are stacked [i f o g] along the last axis of a (rows, 4H) matrix,
// as in arctic-captions' lstm_cond_layer, so one GEMM yields all four
// pre-activations. Matrices are row-major and addressed through row strides,
// which lets a cell read h and c out of a packed [h | c] state, or write h
// straight into one half of a BiLSTM output.

// cellGrain is the number of scalars of gate math worth one goroutine
// (about 10 µs of work); smaller batches run serially.
const cellGrain = 16384

// cellRows is the ParallelFor grain, in rows, for a cell of width h.
func cellRows(h int) int { return max(1, cellGrain/h) }

// cellForward computes rows [lo, hi) of one LSTM step (Hochreiter &
// Schmidhuber 1997 with a forget gate, Gers et al. 2000; no peepholes):
//
//	i = σ(zᵢ), f = σ(z_f), o = σ(z_o), g = tanh(z_g)
//	c = f⊙c₋₁ + i⊙g,  h = o⊙tanh(c)
//
// gates (row stride 4H) holds the pre-activations z on entry and the
// activations [i f o g] on return. cPrev (stride cps) is c₋₁, or nil for a
// zero cell; c (stride cs) and h (stride hs) receive the new state. c may
// alias cPrev.
func cellForward[F Float](H, lo, hi int, gates, cPrev []F, cps int, c []F, cs int, h []F, hs int) {
	for r := lo; r < hi; r++ {
		z := gates[r*4*H : (r+1)*4*H]
		zi, zf, zo, zg := z[:H], z[H:2*H], z[2*H:3*H], z[3*H:4*H]
		cr, hr := c[r*cs:r*cs+H], h[r*hs:r*hs+H]
		var cp []F
		if cPrev != nil {
			cp = cPrev[r*cps : r*cps+H]
		}
		j0 := 0
		if isFloat32[F]() {
			j0 = cellRowFast(asFloat32(z), asFloat32(cp), asFloat32(cr), asFloat32(hr))
		}
		for j := j0; j < H; j++ {
			i, f, o, g := Sigmoid(zi[j]), Sigmoid(zf[j]), Sigmoid(zo[j]), Tanh(zg[j])
			zi[j], zf[j], zo[j], zg[j] = i, f, o, g
			cc := i * g
			if cp != nil {
				cc += f * cp[j]
			}
			cr[j] = cc
			hr[j] = o * Tanh(cc)
		}
	}
}

// cellBackward is the gradient of cellForward for rows [lo, hi). On entry
// gates (stride 4H) holds the activations [i f o g], cPrev (stride cps; nil
// for zero) and c (stride cs) the cells, dh (stride dhs) ∂L/∂h and dc (stride
// dcs) the gradient reaching c from later steps (not through h). It writes
// the pre-activation gradients ∂L/∂z into dGates (stride 4H; may alias
// gates) and ∂L/∂c₋₁ = dc_total⊙f into dcPrev (stride dcps; may alias dc):
//
//	dc_total = dc + dh⊙o⊙(1 − tanh²c)
//	dzᵢ = dc_total⊙g⊙i(1−i),  dz_f = dc_total⊙c₋₁⊙f(1−f)
//	dz_o = dh⊙tanh(c)⊙o(1−o),  dz_g = dc_total⊙i⊙(1−g²)
func cellBackward[F Float](H, lo, hi int, gates, cPrev []F, cps int, c []F, cs int, dh []F, dhs int, dc []F, dcs int, dGates []F, dcPrev []F, dcps int) {
	for r := lo; r < hi; r++ {
		a := gates[r*4*H : (r+1)*4*H]
		ai, af, ao, ag := a[:H], a[H:2*H], a[2*H:3*H], a[3*H:4*H]
		d := dGates[r*4*H : (r+1)*4*H]
		di, df, do, dg := d[:H], d[H:2*H], d[2*H:3*H], d[3*H:4*H]
		cr, dhr, dcr := c[r*cs:r*cs+H], dh[r*dhs:r*dhs+H], dc[r*dcs:r*dcs+H]
		dcp := dcPrev[r*dcps : r*dcps+H]
		var cp []F
		if cPrev != nil {
			cp = cPrev[r*cps : r*cps+H]
		}
		j0 := 0
		if isFloat32[F]() {
			j0 = cellBackRowFast(asFloat32(a), asFloat32(cp), asFloat32(cr), asFloat32(dhr), asFloat32(dcr), asFloat32(d), asFloat32(dcp))
		}
		for j := j0; j < H; j++ {
			i, f, o, g := ai[j], af[j], ao[j], ag[j]
			tc := Tanh(cr[j])
			dct := dcr[j] + dhr[j]*o*(1-tc*tc)
			var cprev F
			if cp != nil {
				cprev = cp[j]
			}
			di[j] = dct * g * i * (1 - i)
			df[j] = dct * cprev * f * (1 - f)
			do[j] = dhr[j] * tc * o * (1 - o)
			dg[j] = dct * i * (1 - g*g)
			dcp[j] = dct * f
		}
	}
}
