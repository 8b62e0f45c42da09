package models

import (
	"fmt"

	"gorgonia.org/tensor"
)

// stepForward runs one LSTM step on a packed state: z = x·Wx + h₋₁·Wh + b
// into gates (B, 4H), then the cell, reading [h₋₁ | c₋₁] from prev (B, 2H)
// and writing [h | c] to next (B, 2H). next may alias prev: the GEMMs read
// h₋₁ before the cell writes, and the cell reads each c₋₁ before it
// overwrites it. With packs (a graph's steps) the products read Wx and Wh
// from there.
func stepForward[F Float](gates, x, prev, next, wx, wh, b []F, B, I, H int, packs *stepPacks[F]) {
	broadcastRows(gates, B, 4*H, b)
	if packs != nil {
		packs.wx.gemm(B, 1, x, I, 1, gates, 4*H)
		packs.wh.gemm(B, 1, prev, 2*H, 1, gates, 4*H)
	} else {
		gemm(false, false, B, 4*H, I, 1, x, I, wx, 4*H, 1, gates, 4*H)
		gemm(false, false, B, 4*H, H, 1, prev, 2*H, wh, 4*H, 1, gates, 4*H)
	}
	stepCell(gates, prev, next, B, H)
}

// stepCell runs the cell of a step on its gates' pre-activations (B, 4H),
// reading c₋₁ from prev (B, 2H) and writing [h | c] to next (B, 2H).
func stepCell[F Float](gates, prev, next []F, B, H int) {
	if grain := cellRows(H); B < 2*grain { // no closure: steady-state decoding does not allocate
		cellForward(H, 0, B, gates, prev[H:], 2*H, next[H:], 2*H, next, 2*H)
	} else {
		ParallelFor(B, grain, func(lo, hi int) {
			cellForward(H, lo, hi, gates, prev[H:], 2*H, next[H:], 2*H, next, 2*H)
		})
	}
}

// lstmStepKernel is one LSTM step. Inputs: x (B, I), state (B, 2H) =
// [h₋₁ | c₋₁], Wx (I, 4H), Wh (H, 4H), b (4H), and with a sink its token
// (1). Output: (B, 2H) = [h | c]. Forward keeps the gate activations for
// Backward. With a sink the weights are constants of the step: Backward
// leaves x, h₋₁ and dz in the sink's slot, and the token's gradient is 0.
type lstmStepKernel struct {
	gates any // []float32 or []float64, (B, 4H)
	sink  *stepSink
	slot  int
}

func (*lstmStepKernel) Name() string { return "LSTMStep" }

func (k *lstmStepKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if k.sink != nil {
		if len(in) != 6 || !in[5].Eq(tensor.Shape{1}) {
			return nil, fmt.Errorf("want inputs x, state, Wx, Wh, b and the sink's token (1); got %v", in)
		}
		in = in[:5]
	}
	if len(in) != 5 {
		return nil, fmt.Errorf("want inputs x, state, Wx, Wh, b; got %d", len(in))
	}
	x, s, wx, wh, b := in[0], in[1], in[2], in[3], in[4]
	if wh.Dims() != 2 || wh[1] != 4*wh[0] {
		return nil, fmt.Errorf("Wh %v: want (H, 4H)", wh)
	}
	H := wh[0]
	if x.Dims() != 2 || wx.Dims() != 2 || wx[0] != x[1] || wx[1] != 4*H {
		return nil, fmt.Errorf("x %v, Wx %v: want x (B, I), Wx (I, %d)", x, wx, 4*H)
	}
	if s.Dims() != 2 || s[0] != x[0] || s[1] != 2*H {
		return nil, fmt.Errorf("state %v: want (%d, %d) = [h | c]", s, x[0], 2*H)
	}
	if b.Dims() != 1 || b[0] != 4*H {
		return nil, fmt.Errorf("b %v: want (%d)", b, 4*H)
	}
	return s.Clone(), nil
}

func (k *lstmStepKernel) Differentiable(int) []bool {
	if k.sink != nil {
		return []bool{true, true, false, false, false, true}
	}
	return []bool{true, true, true, true, true}
}

func (k *lstmStepKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	if out.Dtype() == tensor.Float32 {
		stepKernelForward[float32](k, out, in)
	} else {
		stepKernelForward[float64](k, out, in)
	}
	return nil
}

func stepKernelForward[F Float](k *lstmStepKernel, out *tensor.Dense, in []*tensor.Dense) {
	B, I, H := in[0].Shape()[0], in[0].Shape()[1], in[3].Shape()[0]
	gates, _ := k.gates.([]F)
	gates = growFloats(gates, B*4*H)
	k.gates = gates
	var packs *stepPacks[F]
	if k.sink != nil {
		packs = k.sink.packs.v.(*stepPacks[F])
	}
	stepForward(gates, floatsOf[F](in[0]), floatsOf[F](in[1]), floatsOf[F](out),
		floatsOf[F](in[2]), floatsOf[F](in[3]), floatsOf[F](in[4]), B, I, H, packs)
}

func (k *lstmStepKernel) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error {
	if out.Dtype() == tensor.Float32 {
		stepKernelBackward[float32](k, dIn, dOut, out, in)
	} else {
		stepKernelBackward[float64](k, dIn, dOut, out, in)
	}
	return nil
}

// stepKernelBackward: with dz from the cell,
//
//	dx = dz·Wxᵀ, dh₋₁ = dz·Whᵀ, dc₋₁ = dc_total⊙f,
//	dWx = xᵀ·dz, dWh = h₋₁ᵀ·dz, db = Σ_rows dz.
//
// dz overwrites the saved activations, or goes to the sink's slot with x
// and h₋₁, where the sink forms the weight gradients of all steps at once.
func stepKernelBackward[F Float](k *lstmStepKernel, dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) {
	B, I, H := in[0].Shape()[0], in[0].Shape()[1], in[3].Shape()[0]
	x, prev, wx, wh := floatsOf[F](in[0]), floatsOf[F](in[1]), floatsOf[F](in[2]), floatsOf[F](in[3])
	next, dy := floatsOf[F](out), floatsOf[F](dOut)
	dx, dState := floatsOf[F](dIn[0]), floatsOf[F](dIn[1])
	act := k.gates.([]F)
	dz := act
	if s := k.sink; s != nil {
		off := s.offs[k.slot]
		dz = s.dz.([]F)[off*4*H : (off+B)*4*H]
		copy(s.x.([]F)[off*I:(off+B)*I], x[:B*I])
		sh := s.h.([]F)[off*H : (off+B)*H]
		for r := range B {
			copy(sh[r*H:(r+1)*H], prev[r*2*H:r*2*H+H])
		}
		s.written[k.slot] = true
		clear(floatsOf[F](dIn[5]))
	}
	if grain := cellRows(H); B < 2*grain {
		cellBackward(H, 0, B, act, prev[H:], 2*H, next[H:], 2*H, dy, 2*H, dy[H:], 2*H, dz, dState[H:], 2*H)
	} else {
		ParallelFor(B, grain, func(lo, hi int) {
			cellBackward(H, lo, hi, act, prev[H:], 2*H, next[H:], 2*H, dy, 2*H, dy[H:], 2*H, dz, dState[H:], 2*H)
		})
	}
	if k.sink != nil {
		packs := k.sink.packs.v.(*stepPacks[F])
		packs.wxT.gemm(B, 1, dz, 4*H, 0, dx, I)
		packs.whT.gemm(B, 1, dz, 4*H, 0, dState, 2*H)
		return
	}
	gemm(false, true, B, I, 4*H, 1, dz, 4*H, wx, 4*H, 0, dx, I)
	gemm(false, true, B, H, 4*H, 1, dz, 4*H, wh, 4*H, 0, dState, 2*H)
	gemm(true, false, I, 4*H, B, 1, x, I, dz, 4*H, 0, floatsOf[F](dIn[2]), 4*H)
	gemm(true, false, H, 4*H, B, 1, prev, 2*H, dz, 4*H, 0, floatsOf[F](dIn[3]), 4*H)
	sumRows(floatsOf[F](dIn[4]), dz, B, 4*H)
}
