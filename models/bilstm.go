package models

import "gorgonia.org/gorgonia"

// BiLSTM is a bidirectional LSTM (Schuster & Paliwal 1997; Graves et al.
// 2013): a forward LSTM reads each sequence from its first frame, a
// backward one from its own last real frame lengths[b]−1 (not from the
// padded end), and the output concatenates them per frame:
//
//	x (B, T, In), lengths (B) → y (B, T, 2H),  y[b, t] = [h→_t | h←_t]
//
// Padded frames (t ≥ lengths[b]) output zeros and get zero gradient. Both
// directions run inside one fused node, concurrently when GOMAXPROCS > 1.
// Parameters: <prefix>.fwd.* and <prefix>.bwd.*, each as in NewLSTM.
type BiLSTM struct {
	Fwd, Bwd *LSTM
}

// NewBiLSTM creates an In→2·Hidden bidirectional LSTM under prefix.
func NewBiLSTM(ps *Params, prefix string, in, hidden int) *BiLSTM {
	return &BiLSTM{Fwd: NewLSTM(ps, prefix+".fwd", in, hidden), Bwd: NewLSTM(ps, prefix+".bwd", in, hidden)}
}

// Apply is the graph face; lengths is a float tensor of whole numbers in
// [0, T], and x is differentiated only when it depends on a parameter, as
// for LSTM.Apply.
func (l *BiLSTM) Apply(b *Binding, x, lengths *gorgonia.Node) (*gorgonia.Node, error) {
	in := gorgonia.Nodes{x, lengths}
	in = append(in, l.Fwd.weights(b)...)
	in = append(in, l.Bwd.weights(b)...)
	return Apply(&seqKernel{dirs: 2, noInputGrad: !b.dependsOnParams(x)}, in...)
}

// Forward is the eager face: x (batch, steps, In) gives dst (batch, steps,
// 2H), grown when short and returned. The parameters must be float32.
func (l *BiLSTM) Forward(ws *LSTMWorkspace, dst, x []float32, batch, steps int, lengths []int) ([]float32, error) {
	if err := ws.plan.build(lengths, batch, steps); err != nil {
		return dst, err
	}
	dst = growFloats(dst, batch*steps*2*l.Fwd.Hidden)
	ws.w = [2]seqWeights[float32]{l.Fwd.eagerWeights(), l.Bwd.eagerWeights()}
	seqForward(&ws.plan, ws.dirs[:], ws.w[:], x, l.Fwd.In, l.Fwd.Hidden, dst)
	return dst, nil
}
