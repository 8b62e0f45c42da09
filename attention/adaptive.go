package attention

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Adaptive is adaptive attention with a visual sentinel (Lu, Xiong,
// Parikh, Socher 2017, "Knowing when to look", eqs. 7–12): additive
// attention over the T memory entries and one more candidate, the
// sentinel s, a vector the decoder makes from its own memory. Its weight
// β is how much the step reads the sentinel instead of the memory:
//
//	z_t = vᵀ·tanh(W·h + U·k_t + b)          t = 1 … T   (the Additive score)
//	ŝ   = vᵀ·tanh(W·h + U_s·s + b)                     (the sentinel's score)
//	[α̂ ; β] = softmax([z ; ŝ])                         (T + 1)
//	α   = softmax(z),  so α̂ = (1 − β)·α
//	c   = Σ_t α_t·k_t,   ĉ = β·(s·P_s) + (1 − β)·c      (D)
//
// The sentinel is scored like one more memory entry whose key is U_s·s + b
// (W, b and v are the regions'), and read through a value projection P_s
// (S, D) into the memory's width D, which differs from the sentinel's
// width S in general (Lu et al. project the image features to the LSTM
// width instead). Weights are α, the softmax over the memory alone (each
// real row sums to 1, as with every mechanism, so the doubly stochastic
// penalty and the heat maps mean what they mean for Additive), and
// State.Sentinel holds β; the read weights are (1 − β)·α and β.
//
// The query of a step is the decoder state and the sentinel side by side,
// [h | s] (B, H+S): Dims().Query is H + S. A row whose memory is all
// padding gets zero weights, β = 0 and a zero context.
//
// Parameters: the Additive's prefix.w (H, A), prefix.u (D, A), prefix.b
// (A), prefix.v (A), and prefix.sentinel.key U_s (S, A) and
// prefix.sentinel.value P_s (S, D), both Glorot-uniform.
type Adaptive struct {
	name     string
	core     *additiveCore
	S        int           // sentinel width
	key, val *models.Param // U_s (S, A), P_s (S, D)
}

// NewAdaptive creates adaptive attention for decoder states of width H,
// sentinels of width S, memory entries of width D and attention width A.
func NewAdaptive(ps *models.Params, prefix string, H, S, D, A int) (*Adaptive, error) {
	if err := checkDims("Adaptive", ps, prefix, map[string]int{"sentinel width": S}); err != nil {
		return nil, err
	}
	for _, n := range []string{".sentinel.key", ".sentinel.value"} {
		if _, dup := ps.Get(prefix + n); dup {
			return nil, fmt.Errorf("attention: Adaptive: parameter %q already exists: %w", prefix+n, ErrConfig)
		}
	}
	c, err := newAdditiveCore("Adaptive", ps, prefix, H, D, A, true, additiveSpec{})
	if err != nil {
		return nil, err
	}
	return &Adaptive{
		name: fmt.Sprintf("Adaptive(%s: H=%d,S=%d,D=%d,A=%d)", prefix, H, S, D, A),
		core: c, S: S,
		key: ps.New(prefix+".sentinel.key", models.GlorotUniform, S, A),
		val: ps.New(prefix+".sentinel.value", models.GlorotUniform, S, D),
	}, nil
}

// Name implements Mechanism.
func (m *Adaptive) Name() string { return m.name }

// Dims implements Mechanism: the query is [h | s] (H + S), the context
// has the memory's width D.
func (m *Adaptive) Dims() Dims { return Dims{Query: m.core.H + m.S, Key: m.core.D, Context: m.core.D} }

// Prepare implements Mechanism: it computes U·k + b for every entry.
func (m *Adaptive) Prepare(memory, mask []float32, B, T int) (*Keys, error) {
	if err := checkParams(m, m.key, m.val); err != nil {
		return nil, err
	}
	return m.core.prepare(m, memory, mask, B, T)
}

// dims returns the operand widths of the kernels.
func (m *Adaptive) dims() adaptiveDims {
	return adaptiveDims{H: m.core.H, S: m.S, A: m.core.A, D: m.core.D}
}

// Step implements Mechanism; query is [h | s] (B, H+S). dst.Sentinel
// gets β (B).
func (m *Adaptive) Step(dst *State, keys *Keys, query []float32, prev *State) error {
	if err := checkStep(m, dst, keys, query, prev); err != nil {
		return err
	}
	B, T := keys.B, keys.T
	dst.resize(B, T, keys.D)
	dst.Sentinel = grow(dst.Sentinel, B)
	buf := getScratch[float32](B * (T + 1))
	defer putScratch(buf)
	w := *buf
	x := &adaptiveArgs[float32]{adaptiveDims: m.dims(), B: B, T: T,
		proj: keys.proj, query: query, w: f32(m.core.w), v: f32(m.core.v), b: f32(m.core.b),
		key: f32(m.key), mask: keys.Mask}
	adaptiveScoreSerial(x, w)
	for b := 0; b < B; b++ {
		copy(dst.Weights[b*T:(b+1)*T], w[b*(T+1):b*(T+1)+T])
		dst.Sentinel[b] = w[b*(T+1)+T]
	}
	adaptiveContextForward(x.adaptiveDims, dst.Context, w, keys.Memory, query, f32(m.val), B, T)
	dst.advance(prev)
	return nil
}

// PrepareNodes implements Mechanism: Proj is U·k + b (B, T, A).
func (m *Adaptive) PrepareNodes(b *models.Binding, memory, mask *gorgonia.Node) (KeysNodes, error) {
	return m.core.prepareNodes(m, b, memory, mask)
}

// StepNode implements Mechanism: one fused score node writes [α | β]
// (B, T+1), one context node ĉ (B, D); Weights is α (B, T) and Sentinel
// β (B), sliced off the score node.
func (m *Adaptive) StepNode(b *models.Binding, keys KeysNodes, query *gorgonia.Node, prev StateNodes) (StateNodes, error) {
	if err := checkQueryNode(m, keys, query); err != nil {
		return StateNodes{}, err
	}
	if keys.Proj == nil || keys.sink == nil {
		return StateNodes{}, fmt.Errorf("attention: %s: keys were not prepared by this mechanism: %w", m.Name(), ErrKeys)
	}
	k := &adaptiveScoreKernel{adaptiveDims: m.dims(), sink: keys.sink}
	w, err := apply(m, k, keys.Proj, query, b.Node(m.core.w.Name), b.Node(m.core.v.Name), b.Node(m.core.b.Name),
		b.Node(m.key.Name), keys.Mask, keys.token)
	if err != nil {
		return StateNodes{}, err
	}
	ctx, err := apply(m, &adaptiveContextKernel{adaptiveDims: m.dims(), sink: keys.sink}, w, keys.Memory, query, b.Node(m.val.Name), keys.token)
	if err != nil {
		return StateNodes{}, err
	}
	T := keys.T
	next := StateNodes{Context: ctx}
	if next.Weights, err = models.Slice(w, 1, 0, T); err != nil {
		return StateNodes{}, fmt.Errorf("attention: %s: %w", m.Name(), err)
	}
	if next.Sentinel, err = models.Select(w, 1, T); err != nil {
		return StateNodes{}, fmt.Errorf("attention: %s: %w", m.Name(), err)
	}
	return next, nil
}

// checkAdaptiveQuery validates the query (B, H+S) both adaptive kernels
// read against B from another input.
func checkAdaptiveQuery(d adaptiveDims, q tensor.Shape, B int) error {
	if !q.Eq(tensor.Shape{B, d.H + d.S}) {
		return fmt.Errorf("query %v, want (%d, %d) = [h | s]: %w", q, B, d.H+d.S, ErrShape)
	}
	return nil
}
