package models

import (
	"fmt"

	"gorgonia.org/tensor"
)

// seqKernel is the fused whole-sequence LSTM (dirs = 1) or BiLSTM (dirs =
// 2). Inputs: x (B, T, I), lengths (B), then Wx (I, 4H), Wh (H, 4H), b (4H)
// per direction. Output: (B, T, dirs·H). Forward keeps the packed inputs,
// gate activations and cells for Backward (see lstm_seq.go). With
// noInputGrad, x is not differentiable: nothing trainable produced it.
type seqKernel struct {
	dirs        int
	noInputGrad bool
	plan        seqPlan
	state       any // *seqState[float32] or *seqState[float64]
}

type seqState[F Float] struct {
	dirs  []seqDir[F]
	w, dw []seqWeights[F]
}

func (k *seqKernel) Name() string {
	if k.dirs == 2 {
		return "BiLSTM"
	}
	return "LSTM"
}

func (k *seqKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 2+3*k.dirs {
		return nil, fmt.Errorf("want inputs x, lengths and Wx, Wh, b per direction (%d); got %d", 2+3*k.dirs, len(in))
	}
	x, lengths := in[0], in[1]
	if x.Dims() != 3 {
		return nil, fmt.Errorf("x %v: want (B, T, I)", x)
	}
	if lengths.Dims() != 1 || lengths[0] != x[0] {
		return nil, fmt.Errorf("lengths %v: want (%d)", lengths, x[0])
	}
	H := -1
	for d := range k.dirs {
		wx, wh, b := in[2+3*d], in[3+3*d], in[4+3*d]
		if wh.Dims() != 2 || wh[1] != 4*wh[0] || (H >= 0 && wh[0] != H) {
			return nil, fmt.Errorf("direction %d: Wh %v: want (H, 4H), H equal across directions", d, wh)
		}
		H = wh[0]
		if wx.Dims() != 2 || wx[0] != x[2] || wx[1] != 4*H {
			return nil, fmt.Errorf("direction %d: Wx %v: want (%d, %d)", d, wx, x[2], 4*H)
		}
		if b.Dims() != 1 || b[0] != 4*H {
			return nil, fmt.Errorf("direction %d: b %v: want (%d)", d, b, 4*H)
		}
	}
	return tensor.Shape{x[0], x[1], k.dirs * H}, nil
}

func (k *seqKernel) Differentiable(n int) []bool {
	d := make([]bool, n)
	for i := range d {
		d[i] = i != 1 && (i != 0 || !k.noInputGrad) // all but lengths (and x)
	}
	return d
}

func (k *seqKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	s := in[0].Shape()
	lengths, err := readInts(in[1], "sequence lengths", 0, s[1], k.plan.lengths)
	if err != nil {
		return err
	}
	if err := k.plan.build(lengths, s[0], s[1]); err != nil {
		return err
	}
	if out.Dtype() == tensor.Float32 {
		seqKernelForward[float32](k, out, in)
	} else {
		seqKernelForward[float64](k, out, in)
	}
	return nil
}

// weightsOf reads direction d's weights (or their gradients) from ts,
// which holds them from index 2 on.
func weightsOf[F Float](ts []*tensor.Dense, d int) seqWeights[F] {
	return seqWeights[F]{wx: floatsOf[F](ts[2+3*d]), wh: floatsOf[F](ts[3+3*d]), b: floatsOf[F](ts[4+3*d])}
}

func seqKernelForward[F Float](k *seqKernel, out *tensor.Dense, in []*tensor.Dense) {
	st, ok := k.state.(*seqState[F])
	if !ok {
		st = &seqState[F]{dirs: make([]seqDir[F], k.dirs), w: make([]seqWeights[F], k.dirs), dw: make([]seqWeights[F], k.dirs)}
		k.state = st
	}
	for d := range k.dirs {
		st.w[d] = weightsOf[F](in, d)
	}
	I, H := in[0].Shape()[2], in[3].Shape()[0]
	seqForward(&k.plan, st.dirs, st.w, floatsOf[F](in[0]), I, H, floatsOf[F](out))
}

func (k *seqKernel) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error {
	if out.Dtype() == tensor.Float32 {
		seqKernelBackward[float32](k, dIn, dOut, in)
	} else {
		seqKernelBackward[float64](k, dIn, dOut, in)
	}
	return nil
}

func seqKernelBackward[F Float](k *seqKernel, dIn []*tensor.Dense, dOut *tensor.Dense, in []*tensor.Dense) {
	st := k.state.(*seqState[F])
	for d := range k.dirs {
		st.w[d] = weightsOf[F](in, d)
		st.dw[d] = weightsOf[F](dIn, d)
	}
	I, H := in[0].Shape()[2], in[3].Shape()[0]
	var dx []F
	if dIn[0] != nil {
		dx = floatsOf[F](dIn[0])
	}
	seqBackward(&k.plan, st.dirs, st.w, st.dw, floatsOf[F](dOut), I, H, dx)
}
