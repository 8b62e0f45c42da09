package models

import "fmt"

// LSTMPack is an LSTM's float32 weights packed the way the products of an
// eager step read them (StepPacked). The products of a few rows, a beam's,
// then read the weights once in the kernel's order instead of striding
// across their row-major layout: for the caption decoder's LSTM (input
// 1,536, 512 units) and 3 rows, 3.5 ms against 10.4 ms per product on one
// core. A pack is a snapshot of the weights: pack again after they change.
type LSTMPack struct {
	p       stepPacks[float32]
	in, out int
	// head says the pack holds Wx's first in rows only (PackHead).
	head bool
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
	if pack.in != l.In || pack.out != H || pack.head {
		panic("models: LSTM.StepPacked: the pack is of another layer's shape")
	}
	ws.gates = growFloats(ws.gates, batch*4*H)
	stepForward(ws.gates, x, prev, next, floatsOf[float32](l.Wx.Value), floatsOf[float32](l.Wh.Value), floatsOf[float32](l.B.Value), batch, l.In, H, &pack.p)
}

// PackHead packs the weights StepHead reads: Wx's first head rows, the
// weights of the input's first head values, and Wh.
func (l *LSTM) PackHead(head int) *LSTMPack {
	H := l.Hidden
	if head < 1 || head > l.In {
		panic(fmt.Sprintf("models: LSTM.PackHead: head %d of an input of %d", head, l.In))
	}
	p := &LSTMPack{in: head, out: H, head: true}
	p.p.wx.pack(false, head, 4*H, floatsOf[float32](l.Wx.Value)[:head*4*H], 4*H)
	p.p.wh.pack(false, H, 4*H, floatsOf[float32](l.Wh.Value), 4*H)
	return p
}

// StepHead is a step whose input x = [x_head | x_tail] (B, I) comes in two
// parts: the first head values xHead (B, head), multiplied here by the
// rows of pack (PackHead(head)), and tail (B, 4H), the product
// x_tail·Wx[head:] the caller has formed (for the caption decoder, from
// products computed once per image):
//
//	z = xHead·Wx[:head] + tail + h₋₁·Wh + b,
//
// then the cell, as Step. tail is not changed.
func (l *LSTM) StepHead(ws *LSTMWorkspace, next, xHead, tail, prev []float32, batch int, pack *LSTMPack) {
	H := l.Hidden
	if pack == nil || !pack.head || pack.out != H || pack.in > l.In {
		panic("models: LSTM.StepHead: the pack is not PackHead's of this layer")
	}
	ws.gates = growFloats(ws.gates, batch*4*H)
	b := floatsOf[float32](l.B.Value)
	for r := range batch {
		g, t := ws.gates[r*4*H:(r+1)*4*H], tail[r*4*H:(r+1)*4*H]
		for j := range g {
			g[j] = t[j] + b[j]
		}
	}
	pack.p.wx.gemm(batch, 1, xHead, pack.in, 1, ws.gates, 4*H)
	pack.p.wh.gemm(batch, 1, prev, 2*H, 1, ws.gates, 4*H)
	stepCell(ws.gates, prev, next, batch, H)
}
