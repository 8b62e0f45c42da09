package attention

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
)

// Additive is Bahdanau attention (Bahdanau et al. 2015, eq. 6 and A.1.2):
//
//	e_t = vᵀ·tanh(W·q + U·k_t + b),   α = softmax(e),   c = Σ_t α_t·k_t
//
// with q the query (H), k_t the memory entries (D), W (H, A), U (D, A),
// b, v (A). Prepare computes U·k_t + b for the whole memory once (one
// GEMM), so a step costs B·H·A for W·q and B·T·A tanh.
type Additive struct {
	name string
	core *additiveCore
}

// NewAdditive creates additive attention with parameters prefix.w (H, A),
// prefix.u (D, A), prefix.b (A) and prefix.v (A) in ps, for queries of
// width H, memory entries of width D and attention width A.
func NewAdditive(ps *models.Params, prefix string, H, D, A int) (*Additive, error) {
	c, err := newAdditiveCore("Additive", ps, prefix, H, D, A, true, additiveSpec{})
	if err != nil {
		return nil, err
	}
	return &Additive{name: fmt.Sprintf("Additive(%s: H=%d,D=%d,A=%d)", prefix, H, D, A), core: c}, nil
}

// Name implements Mechanism.
func (m *Additive) Name() string { return m.name }

// Dims implements Mechanism; the context has the memory's width D.
func (m *Additive) Dims() Dims { return Dims{Query: m.core.H, Key: m.core.D, Context: m.core.D} }

// Prepare implements Mechanism: it computes U·k + b for every entry.
func (m *Additive) Prepare(memory, mask []float32, B, T int) (*Keys, error) {
	return m.core.prepare(m, memory, mask, B, T)
}

// Step implements Mechanism.
func (m *Additive) Step(dst *State, keys *Keys, query []float32, prev *State) error {
	return softStep(m, m.core, dst, keys, query, prev)
}

// PrepareNodes implements Mechanism: Proj is U·k + b (B, T, A).
func (m *Additive) PrepareNodes(b *models.Binding, memory, mask *gorgonia.Node) (KeysNodes, error) {
	return m.core.prepareNodes(m, b, memory, mask)
}

// StepNode implements Mechanism: one fused score node and one context node.
func (m *Additive) StepNode(b *models.Binding, keys KeysNodes, query *gorgonia.Node, prev StateNodes) (StateNodes, error) {
	return softStepNode(m, m.core, b, keys, query, prev)
}

// softStep is the eager step of the additive family's soft attention:
// weights, then the context they read.
func softStep(owner Mechanism, c *additiveCore, dst *State, keys *Keys, query []float32, prev *State) error {
	if err := checkStep(owner, dst, keys, query, prev); err != nil {
		return err
	}
	dst.resize(keys.B, keys.T, keys.D)
	c.weights(dst.Weights, keys, query, prev)
	if keys.shared {
		contextBroadcast(dst.Context, dst.Weights, keys.Memory, keys.B, keys.T, keys.D)
	} else {
		contextForward(dst.Context, dst.Weights, keys.Memory, keys.B, 1, keys.T, keys.D, false)
	}
	dst.advance(prev)
	return nil
}

// softStepNode is softStep in a graph.
func softStepNode(owner Mechanism, c *additiveCore, b *models.Binding, keys KeysNodes, query *gorgonia.Node, prev StateNodes) (StateNodes, error) {
	alpha, err := c.weightsNode(owner, b, keys, query, prev)
	if err != nil {
		return StateNodes{}, err
	}
	ctx, err := contextNode(owner, contextKernel{heads: 1}, alpha, keys)
	if err != nil {
		return StateNodes{}, err
	}
	next := StateNodes{Context: ctx, Weights: alpha}
	if c.usesCum() {
		next.Cumulative = alpha
		if prev.Cumulative != nil {
			if next.Cumulative, err = gorgonia.Add(prev.Cumulative, alpha); err != nil {
				return StateNodes{}, fmt.Errorf("attention: %s: cumulative weights: %w", owner.Name(), err)
			}
		}
	}
	return next, nil
}
