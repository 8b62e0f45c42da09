package models

import (
	"fmt"

	"gorgonia.org/gorgonia"
)

// LSTM is a long short-term memory layer with a forget gate (Hochreiter &
// Schmidhuber 1997; Gers et al. 2000), gates stacked [i f o g]:
//
//	z = x·Wx + h₋₁·Wh + b                  (rows, 4H)
//	i, f, o = σ(z_i), σ(z_f), σ(z_o);  g = tanh(z_g)
//	c = f⊙c₋₁ + i⊙g;  h = o⊙tanh(c)
//
// Parameters under prefix: <prefix>.wx (In, 4H) Glorot-uniform, <prefix>.wh
// (H, 4H) orthogonal per gate block, <prefix>.b (4H) zero with forget bias 1
// (LSTMBias). The input and recurrent weights are separate matrices rather
// than one (In+H, 4H) stack: a whole sequence then projects its inputs for
// all steps in one (rows·T, In)×(In, 4H) GEMM and the recurrence multiplies
// only by Wh, and their gradients are single GEMMs over all steps too.
//
// The layer has a step face, for decoders that unroll it over output steps
// with attention in between, and a sequence face, one fused kernel for a
// whole padded batch (see Apply). A step's state is packed as one (B, 2H)
// matrix [h | c]: a decoder threads a single node through its steps and
// slices h out (SplitState) only where it reads it.
//
// A layer's eager faces only read its parameters: goroutines may share a
// layer, each with its own LSTMWorkspace.
type LSTM struct {
	Wx, Wh, B  *Param // (In, 4H), (H, 4H), (4H)
	In, Hidden int
}

// NewLSTM creates an In→Hidden LSTM's parameters under prefix.
func NewLSTM(ps *Params, prefix string, in, hidden int) *LSTM {
	return &LSTM{
		Wx:     ps.New(prefix+".wx", GlorotUniform, in, 4*hidden),
		Wh:     ps.New(prefix+".wh", Orthogonal, hidden, 4*hidden),
		B:      ps.New(prefix+".b", LSTMBias, 4*hidden),
		In:     in,
		Hidden: hidden,
	}
}

// weights returns the parameters' nodes in kernel input order.
func (l *LSTM) weights(b *Binding) gorgonia.Nodes {
	return gorgonia.Nodes{b.Node(l.Wx.Name), b.Node(l.Wh.Name), b.Node(l.B.Name)}
}

// ApplyStep is the graph face of one step: x (B, In) and state (B, 2H) =
// [h₋₁ | c₋₁] give the next state (B, 2H) = [h | c]. Every call adds one
// fused node (with its own saved activations for the backward pass); the
// weight gradients of all the steps of l in b's graph are formed together,
// in one product each (see stepSink).
func (l *LSTM) ApplyStep(b *Binding, x, state *gorgonia.Node) (*gorgonia.Node, error) {
	sink, tok, err := b.stepSinkOf(l)
	if err != nil {
		return nil, err
	}
	k := &lstmStepKernel{sink: sink, slot: -1}
	n, err := Apply(k, append(append(gorgonia.Nodes{x, state}, l.weights(b)...), tok)...)
	if err != nil {
		return nil, err
	}
	k.slot = sink.add(x.Shape()[0])
	return n, nil
}

// SplitState returns h (B, H) and c (B, H) of a packed state (B, 2H), each
// a fused copy (see Slice: gorgonia's own slices [0:H] and [H:2H] are one
// node when H is a multiple of 256), so prefer passing the whole state
// where a kernel takes one.
func (l *LSTM) SplitState(state *gorgonia.Node) (h, c *gorgonia.Node, err error) {
	H := l.Hidden
	if s := state.Shape(); s.Dims() != 2 || s[1] != 2*H {
		return nil, nil, fmt.Errorf("models: LSTM state %v, want (B, %d)", s, 2*H)
	}
	if h, err = Slice(state, 1, 0, H); err != nil {
		return nil, nil, fmt.Errorf("models: LSTM state: %w", err)
	}
	if c, err = Slice(state, 1, H, 2*H); err != nil {
		return nil, nil, fmt.Errorf("models: LSTM state: %w", err)
	}
	return h, c, nil
}

// Apply is the graph face of the whole-sequence layer: x (B, T, In) and
// lengths (B), a float tensor of whole numbers in [0, T], give the hidden
// states (B, T, H). Sequence b is x[b, :lengths[b]]; the frames after it are
// padding: their outputs are zero, they never touch the state, and they
// get zero gradient. The recurrence and its backpropagation through time
// run inside one fused node. x is differentiated only when it depends on
// a parameter bound in b: over features (a first layer) the node has no
// gradient with respect to x, and the backward pass skips its GEMM.
func (l *LSTM) Apply(b *Binding, x, lengths *gorgonia.Node) (*gorgonia.Node, error) {
	return Apply(&seqKernel{dirs: 1, noInputGrad: !b.dependsOnParams(x)}, append(gorgonia.Nodes{x, lengths}, l.weights(b)...)...)
}

// Step is the eager face of one step: from x (batch, In) and prev (batch,
// 2H) = [h₋₁ | c₋₁] it writes next (batch, 2H) = [h | c]. next may be prev
// (but not overlap it otherwise, nor x). The parameters must be float32; ws
// holds the working memory. Short slices panic.
func (l *LSTM) Step(ws *LSTMWorkspace, next, x, prev []float32, batch int) {
	H := l.Hidden
	ws.gates = growFloats(ws.gates, batch*4*H)
	stepForward(ws.gates, x, prev, next, floatsOf[float32](l.Wx.Value), floatsOf[float32](l.Wh.Value), floatsOf[float32](l.B.Value), batch, l.In, H, nil)
}

// Forward is the eager face of the whole-sequence layer: x (batch, steps,
// In) with lengths as in Apply gives dst (batch, steps, H), grown when
// short and returned. The parameters must be float32.
func (l *LSTM) Forward(ws *LSTMWorkspace, dst, x []float32, batch, steps int, lengths []int) ([]float32, error) {
	if err := ws.plan.build(lengths, batch, steps); err != nil {
		return dst, err
	}
	dst = growFloats(dst, batch*steps*l.Hidden)
	ws.w[0] = l.eagerWeights()
	seqForward(&ws.plan, ws.dirs[:1], ws.w[:1], x, l.In, l.Hidden, dst)
	return dst, nil
}

func (l *LSTM) eagerWeights() seqWeights[float32] {
	return seqWeights[float32]{wx: floatsOf[float32](l.Wx.Value), wh: floatsOf[float32](l.Wh.Value), b: floatsOf[float32](l.B.Value)}
}

// LSTMWorkspace is the working memory of the eager LSTM, BiLSTM and
// pyramidal passes, kept between calls so that steady-state inference does
// not allocate. The zero value is ready to use. A workspace serves one
// goroutine at a time.
type LSTMWorkspace struct {
	gates []float32
	plan  seqPlan
	dirs  [2]seqDir[float32]
	w     [2]seqWeights[float32]
	inner [2][]float32 // PyramidalBiLSTM.Forward's inner layers, used in turn
}
