package models

// LSTMPack is an LSTM's float32 weights packed the way the products of an
// eager step read them (StepPacked). The products of a few rows, a beam's,
// then read the weights once in the kernel's order instead of striding
// across their row-major layout: for the caption decoder's LSTM (input
// 1,536, 512 units) and 3 rows, 3.5 ms against 10.4 ms per product on one
// core. A pack is a snapshot of the weights: pack again after they change.
type LSTMPack struct {
	p       stepPacks[float32]
	in, out int
}

// Pack packs l's current weights for StepPacked; they must be float32.
func (l *LSTM) Pack() *LSTMPack {
	H := l.Hidden
	p := &LSTMPack{in: l.In, out: H}
	p.p.wx.pack(false, l.In, 4*H, floatsOf[float32](l.Wx.Value), 4*H)
	p.p.wh.pack(false, H, 4*H, floatsOf[float32](l.Wh.Value), 4*H)
	return p
}

// StepPacked is Step with its products reading pack, which must be
// l.Pack() of l's current weights (a pack of another layer's shape
// panics); a nil pack is Step.
func (l *LSTM) StepPacked(ws *LSTMWorkspace, next, x, prev []float32, batch int, pack *LSTMPack) {
	if pack == nil {
		l.Step(ws, next, x, prev, batch)
		return
	}
	H := l.Hidden
	if pack.in != l.In || pack.out != H {
		panic("models: LSTM.StepPacked: the pack is of another layer's shape")
	}
	ws.gates = growFloats(ws.gates, batch*4*H)
	stepForward(ws.gates, x, prev, next, floatsOf[float32](l.Wx.Value), floatsOf[float32](l.Wh.Value), floatsOf[float32](l.B.Value), batch, l.In, H, &pack.p)
}
