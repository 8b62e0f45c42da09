package models

// LinearPack is a Linear layer's float32 weights packed the way the
// products of a few rows read them (ForwardPacked), like LSTMPack: the
// products of a beam's rows then read W once in the kernel's order
// instead of striding across its row-major layout. A pack is a snapshot
// of the weights: pack again after they change.
type LinearPack struct {
	w       packedRHS[float32]
	in, out int
}

// Pack packs l's current weights for ForwardPacked; they must be float32.
func (l *Linear) Pack() *LinearPack {
	p := &LinearPack{in: l.In, out: l.Out}
	p.w.pack(false, l.In, l.Out, floatsOf[float32](l.W.Value), l.Out)
	return p
}

// ForwardPacked is Forward with its product reading pack, which must be
// l.Pack() of l's current weights (a pack of another layer's shape
// panics); a nil pack is Forward.
func (l *Linear) ForwardPacked(dst, x []float32, rows int, pack *LinearPack) []float32 {
	if pack == nil {
		return l.Forward(dst, x, rows)
	}
	if pack.in != l.In || pack.out != l.Out {
		panic("models: Linear.ForwardPacked: the pack is of another layer's shape")
	}
	dst = growFloats(dst, rows*l.Out)
	beta := float32(0)
	if l.B != nil {
		broadcastRows(dst, rows, l.Out, floatsOf[float32](l.B.Value))
		beta = 1
	}
	pack.w.gemm(rows, 1, x, l.In, beta, dst, l.Out)
	return dst
}
