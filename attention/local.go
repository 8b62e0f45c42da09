package attention

import (
	"fmt"
	"math"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
)

// Local is Luong's local-p attention (Luong et al. 2015, §3.2, eq. 9–10):
// the step first predicts where to look,
//
//	p = S·σ(v_pᵀ·tanh(W_p·q))            S = the row's real length
//
// then attends with the general score inside the window [p − D, p + D],
// weighting by a Gaussian centered on p:
//
//	α_t = softmax_{t ∈ window}(qᵀ·W_a·k_t)·exp(−(t − p)²/(2σ²)),   σ = D/2
//
// A step costs O(D) scores instead of O(T), and p is differentiable (the
// Gaussian carries its gradient). The weights do not sum to 1 (the
// Gaussian scales them down away from p); State.Center holds p.
// Parameters: prefix.wa (H, Dk), prefix.wp (H, A), prefix.vp (A).
type Local struct {
	name       string
	H, D, A    int
	halfWidth  int
	wa, wp, vp *models.Param
}

// NewLocal creates local-p attention with window half-width halfWidth
// (Luong et al. used 10) for queries of width H, memory entries of width D
// and a center predictor of width A.
func NewLocal(ps *models.Params, prefix string, H, D, A, halfWidth int) (*Local, error) {
	if err := checkDims("Local", ps, prefix, map[string]int{"query width": H, "key width": D, "predictor width": A, "half-width": halfWidth}); err != nil {
		return nil, err
	}
	for _, n := range []string{".wa", ".wp", ".vp"} {
		if _, dup := ps.Get(prefix + n); dup {
			return nil, fmt.Errorf("attention: Local: parameter %q already exists: %w", prefix+n, ErrConfig)
		}
	}
	m := &Local{name: fmt.Sprintf("Local(%s: H=%d,D=%d,A=%d,window=±%d)", prefix, H, D, A, halfWidth), H: H, D: D, A: A, halfWidth: halfWidth}
	m.wa = ps.New(prefix+".wa", models.GlorotUniform, H, D)
	m.wp = ps.New(prefix+".wp", models.GlorotUniform, H, A)
	m.vp = ps.New(prefix+".vp", models.Uniform(1/math.Sqrt(float64(A))), A)
	return m, nil
}

// Name implements Mechanism.
func (m *Local) Name() string { return m.name }

// Dims implements Mechanism.
func (m *Local) Dims() Dims { return Dims{Query: m.H, Key: m.D, Context: m.D} }

// Prepare implements Mechanism; the memory is used as is.
func (m *Local) Prepare(memory, mask []float32, B, T int) (*Keys, error) {
	if err := checkParams(m, m.wa, m.wp, m.vp); err != nil {
		return nil, err
	}
	return newKeys(m, memory, mask, B, T)
}

// Step implements Mechanism. It also writes dst.Center (B).
func (m *Local) Step(dst *State, keys *Keys, query []float32, prev *State) error {
	if err := checkStep(m, dst, keys, query, prev); err != nil {
		return err
	}
	B, T, D := keys.B, keys.T, keys.D
	dst.resize(B, T, D)
	dst.Center = grow(dst.Center, B)
	in := [4][]float32{query, f32(m.wp), f32(m.vp), keys.Mask}
	centerForward(dst.Center, in[:], B, m.H, m.A, T, true)
	x := localArgs[float32]{B: B, T: T, D: D, H: m.H, keys: keys.Memory, query: query, wa: f32(m.wa), p: dst.Center, mask: keys.Mask}
	localForward(m.halfWidth, &x, dst.Weights, true)
	contextForward(dst.Context, dst.Weights, keys.Memory, B, 1, T, D, false)
	dst.advance(prev)
	return nil
}

// PrepareNodes implements Mechanism.
func (m *Local) PrepareNodes(b *models.Binding, memory, mask *gorgonia.Node) (KeysNodes, error) {
	return newKeysNodes(m, memory, mask, m.wa)
}

// StepNode implements Mechanism: a center node p (B), a fused weights node
// and a context node.
func (m *Local) StepNode(b *models.Binding, keys KeysNodes, query *gorgonia.Node, _ StateNodes) (StateNodes, error) {
	if err := checkQueryNode(m, keys, query); err != nil {
		return StateNodes{}, err
	}
	p, err := apply(m, centerKernel{}, query, b.Node(m.wp.Name), b.Node(m.vp.Name), keys.Mask)
	if err != nil {
		return StateNodes{}, err
	}
	alpha, err := apply(m, localKernel{halfWidth: m.halfWidth}, keys.Memory, query, b.Node(m.wa.Name), p, keys.Mask)
	if err != nil {
		return StateNodes{}, err
	}
	ctx, err := apply(m, contextKernel{heads: 1}, alpha, keys.Memory)
	if err != nil {
		return StateNodes{}, err
	}
	return StateNodes{Context: ctx, Weights: alpha, Center: p}, nil
}
