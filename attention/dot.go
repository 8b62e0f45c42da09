package attention

import (
	"fmt"
	"math"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
)

// dotAttention is the shared body of Dot, General and ScaledDot: a
// multiplicative score over the raw memory, which serves as both keys and
// values (Prepare copies nothing).
type dotAttention struct {
	H, D   int
	w      *models.Param // (H, D) for General; nil otherwise
	kernel dotKernel
}

func (a *dotAttention) prepare(owner Mechanism, memory, mask []float32, B, T int) (*Keys, error) {
	if err := checkParams(owner, a.w); err != nil {
		return nil, err
	}
	return newKeys(owner, memory, mask, B, T)
}

func (a *dotAttention) step(owner Mechanism, dst *State, keys *Keys, query []float32, prev *State) error {
	if err := checkStep(owner, dst, keys, query, prev); err != nil {
		return err
	}
	B, T, D := keys.B, keys.T, keys.D
	dst.resize(B, T, D)
	x := dotArgs[float32]{B: B, T: T, d: D, H: a.H, keys: keys.Memory, query: query, mask: keys.Mask}
	if a.w != nil {
		x.w = f32(a.w)
	}
	dotForwardSerial(a.kernel, &x, dst.Weights)
	contextForward(dst.Context, dst.Weights, keys.Memory, B, 1, T, D, false)
	dst.advance(prev)
	return nil
}

func (a *dotAttention) stepNode(owner Mechanism, b *models.Binding, keys KeysNodes, query *gorgonia.Node) (StateNodes, error) {
	if err := checkQueryNode(owner, keys, query); err != nil {
		return StateNodes{}, err
	}
	in := []*gorgonia.Node{keys.Memory, query, keys.Mask}
	if a.w != nil {
		in = append(in, b.Node(a.w.Name))
	}
	alpha, err := apply(owner, a.kernel, in...)
	if err != nil {
		return StateNodes{}, err
	}
	ctx, err := apply(owner, contextKernel{heads: 1}, alpha, keys.Memory)
	if err != nil {
		return StateNodes{}, err
	}
	return StateNodes{Context: ctx, Weights: alpha}, nil
}

// Dot is Luong's dot attention (Luong et al. 2015, eq. 8, "dot"):
//
//	e_t = qᵀ·k_t,   α = softmax(e),   c = Σ_t α_t·k_t
//
// It has no parameters and needs queries as wide as the memory (H = D).
// It is the cheapest score (B·T·D per step), but its scores grow with the
// width, which sharpens the softmax: ScaledDot divides by √D.
type Dot struct{ a dotAttention }

// NewDot creates dot attention for queries and memory entries of width dim.
func NewDot(dim int) (*Dot, error) {
	if dim < 1 {
		return nil, fmt.Errorf("attention: Dot: width %d, want ≥ 1: %w", dim, ErrConfig)
	}
	return &Dot{dotAttention{H: dim, D: dim, kernel: dotKernel{heads: 1, scale: 1}}}, nil
}

// Name implements Mechanism.
func (m *Dot) Name() string { return fmt.Sprintf("Dot(D=%d)", m.a.D) }

// Dims implements Mechanism.
func (m *Dot) Dims() Dims { return Dims{Query: m.a.H, Key: m.a.D, Context: m.a.D} }

// Prepare implements Mechanism; the memory is used as is.
func (m *Dot) Prepare(memory, mask []float32, B, T int) (*Keys, error) {
	return m.a.prepare(m, memory, mask, B, T)
}

// Step implements Mechanism.
func (m *Dot) Step(dst *State, keys *Keys, query []float32, prev *State) error {
	return m.a.step(m, dst, keys, query, prev)
}

// PrepareNodes implements Mechanism; b may be nil (Dot has no parameters).
func (m *Dot) PrepareNodes(b *models.Binding, memory, mask *gorgonia.Node) (KeysNodes, error) {
	return newKeysNodes(m, memory, mask)
}

// StepNode implements Mechanism; b may be nil.
func (m *Dot) StepNode(b *models.Binding, keys KeysNodes, query *gorgonia.Node, _ StateNodes) (StateNodes, error) {
	return m.a.stepNode(m, b, keys, query)
}

// ScaledDot is scaled dot-product attention with one head (Vaswani et al.
// 2017, eq. 1), the memory serving as keys and values:
//
//	e_t = qᵀ·k_t / √D,   α = softmax(e),   c = Σ_t α_t·k_t
//
// The 1/√D keeps the scores' variance near 1 for unit-variance inputs, so
// the softmax does not saturate as the width grows. For learned
// projections and several heads use MultiHead.
type ScaledDot struct{ a dotAttention }

// NewScaledDot creates scaled dot-product attention for queries and memory
// entries of width dim.
func NewScaledDot(dim int) (*ScaledDot, error) {
	if dim < 1 {
		return nil, fmt.Errorf("attention: ScaledDot: width %d, want ≥ 1: %w", dim, ErrConfig)
	}
	return &ScaledDot{dotAttention{H: dim, D: dim, kernel: dotKernel{heads: 1, scale: 1 / math.Sqrt(float64(dim))}}}, nil
}

// Name implements Mechanism.
func (m *ScaledDot) Name() string { return fmt.Sprintf("ScaledDot(D=%d)", m.a.D) }

// Dims implements Mechanism.
func (m *ScaledDot) Dims() Dims { return Dims{Query: m.a.H, Key: m.a.D, Context: m.a.D} }

// Prepare implements Mechanism; the memory is used as is.
func (m *ScaledDot) Prepare(memory, mask []float32, B, T int) (*Keys, error) {
	return m.a.prepare(m, memory, mask, B, T)
}

// Step implements Mechanism.
func (m *ScaledDot) Step(dst *State, keys *Keys, query []float32, prev *State) error {
	return m.a.step(m, dst, keys, query, prev)
}

// PrepareNodes implements Mechanism; b may be nil (no parameters).
func (m *ScaledDot) PrepareNodes(b *models.Binding, memory, mask *gorgonia.Node) (KeysNodes, error) {
	return newKeysNodes(m, memory, mask)
}

// StepNode implements Mechanism; b may be nil.
func (m *ScaledDot) StepNode(b *models.Binding, keys KeysNodes, query *gorgonia.Node, _ StateNodes) (StateNodes, error) {
	return m.a.stepNode(m, b, keys, query)
}

// General is Luong's general attention (Luong et al. 2015, eq. 8,
// "general"):
//
//	e_t = qᵀ·W·k_t,   α = softmax(e),   c = Σ_t α_t·k_t
//
// with W (H, D), computed as (q·W)·k_t: one H×D product per step and B·T·D
// for the scores, cheaper than additive attention's B·T·A tanh. Luong et
// al. found it the best of their global scores for translation.
type General struct {
	name string
	a    dotAttention
}

// NewGeneral creates general attention with the parameter prefix.w (H, D)
// in ps, initialized Glorot-uniform.
func NewGeneral(ps *models.Params, prefix string, H, D int) (*General, error) {
	if err := checkDims("General", ps, prefix, map[string]int{"query width": H, "key width": D}); err != nil {
		return nil, err
	}
	if _, dup := ps.Get(prefix + ".w"); dup {
		return nil, fmt.Errorf("attention: General: parameter %q already exists: %w", prefix+".w", ErrConfig)
	}
	w := ps.New(prefix+".w", models.GlorotUniform, H, D)
	return &General{
		name: fmt.Sprintf("General(%s: H=%d,D=%d)", prefix, H, D),
		a:    dotAttention{H: H, D: D, w: w, kernel: dotKernel{heads: 1, scale: 1, proj: true}},
	}, nil
}

// Name implements Mechanism.
func (m *General) Name() string { return m.name }

// Dims implements Mechanism.
func (m *General) Dims() Dims { return Dims{Query: m.a.H, Key: m.a.D, Context: m.a.D} }

// Prepare implements Mechanism; the memory is used as is.
func (m *General) Prepare(memory, mask []float32, B, T int) (*Keys, error) {
	return m.a.prepare(m, memory, mask, B, T)
}

// Step implements Mechanism.
func (m *General) Step(dst *State, keys *Keys, query []float32, prev *State) error {
	return m.a.step(m, dst, keys, query, prev)
}

// PrepareNodes implements Mechanism.
func (m *General) PrepareNodes(b *models.Binding, memory, mask *gorgonia.Node) (KeysNodes, error) {
	return newKeysNodes(m, memory, mask, m.a.w)
}

// StepNode implements Mechanism: one fused score node (the query
// projection included) and one context node.
func (m *General) StepNode(b *models.Binding, keys KeysNodes, query *gorgonia.Node, _ StateNodes) (StateNodes, error) {
	return m.a.stepNode(m, b, keys, query)
}
