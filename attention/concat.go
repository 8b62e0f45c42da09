package attention

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
)

// Concat is Luong's concat attention (Luong et al. 2015, eq. 8, "concat"):
//
//	e_t = vᵀ·tanh(W_a·[q; k_t]),   α = softmax(e),   c = Σ_t α_t·k_t
//
// Splitting W_a = [W U] makes it W·q + U·k_t: Additive without the bias,
// and the same fused kernel. Parameters: prefix.w (H, A), prefix.u (D, A),
// prefix.v (A).
type Concat struct {
	name string
	core *additiveCore
}

// NewConcat creates concat attention in ps.
func NewConcat(ps *models.Params, prefix string, H, D, A int) (*Concat, error) {
	c, err := newAdditiveCore("Concat", ps, prefix, H, D, A, false, additiveSpec{})
	if err != nil {
		return nil, err
	}
	return &Concat{name: fmt.Sprintf("Concat(%s: H=%d,D=%d,A=%d)", prefix, H, D, A), core: c}, nil
}

// Name implements Mechanism.
func (m *Concat) Name() string { return m.name }

// Dims implements Mechanism.
func (m *Concat) Dims() Dims { return Dims{Query: m.core.H, Key: m.core.D, Context: m.core.D} }

// Prepare implements Mechanism: it computes U·k for every entry.
func (m *Concat) Prepare(memory, mask []float32, B, T int) (*Keys, error) {
	return m.core.prepare(m, memory, mask, B, T)
}

// Step implements Mechanism.
func (m *Concat) Step(dst *State, keys *Keys, query []float32, prev *State) error {
	return softStep(m, m.core, dst, keys, query, prev)
}

// PrepareNodes implements Mechanism: Proj is U·k (B, T, A).
func (m *Concat) PrepareNodes(b *models.Binding, memory, mask *gorgonia.Node) (KeysNodes, error) {
	return m.core.prepareNodes(m, b, memory, mask)
}

// StepNode implements Mechanism.
func (m *Concat) StepNode(b *models.Binding, keys KeysNodes, query *gorgonia.Node, prev StateNodes) (StateNodes, error) {
	return softStepNode(m, m.core, b, keys, query, prev)
}
