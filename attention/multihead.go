package attention

import (
	"fmt"
	"math"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
)

// MultiHead is multi-head scaled dot-product attention (Vaswani et al.
// 2017, §3.2.2) for one query per step:
//
//	Q = q·Wq (d),  K = M·Wk (T, d),  V = M·Wv (T, d)
//	α_j = softmax(Q_j·K_jᵀ / √d_k)         j = 1…h,  d_k = d/h
//	c   = [α_1·V_1 | … | α_h·V_h]·Wo       (d)
//
// where X_j is the j-th slice of d_k columns. K and V are computed once by
// Prepare. Each head can attend to a different place (one to the
// current frame, another to the context around it) at the cost of one
// score per head; with h = 1 it is ScaledDot with learned projections.
// The context has the model width d; Weights is the mean of the heads'
// weights (for plots and penalties) and Heads has them all (B, h, T).
type MultiHead struct {
	name           string
	H, D, d, heads int
	wq, wk, wv, wo *models.Param // (H, d), (D, d), (D, d), (d, d)
	kernel         dotKernel
}

// NewMultiHead creates h-head attention of model width d for queries of
// width H and memory entries of width D, with parameters prefix.wq (H, d),
// prefix.wk (D, d), prefix.wv (D, d) and prefix.wo (d, d), all
// Glorot-uniform. d must be a multiple of heads.
func NewMultiHead(ps *models.Params, prefix string, H, D, d, heads int) (*MultiHead, error) {
	if err := checkDims("MultiHead", ps, prefix, map[string]int{"query width": H, "key width": D, "model width": d, "heads": heads}); err != nil {
		return nil, err
	}
	if d%heads != 0 {
		return nil, fmt.Errorf("attention: MultiHead %q: model width %d is not divisible by %d heads: %w", prefix, d, heads, ErrConfig)
	}
	for _, n := range []string{".wq", ".wk", ".wv", ".wo"} {
		if _, dup := ps.Get(prefix + n); dup {
			return nil, fmt.Errorf("attention: MultiHead: parameter %q already exists: %w", prefix+n, ErrConfig)
		}
	}
	m := &MultiHead{
		name: fmt.Sprintf("MultiHead(%s: H=%d,D=%d,d=%d,h=%d)", prefix, H, D, d, heads),
		H:    H, D: D, d: d, heads: heads,
		kernel: dotKernel{heads: heads, scale: 1 / math.Sqrt(float64(d/heads)), proj: true, headAxis: true},
	}
	m.wq = ps.New(prefix+".wq", models.GlorotUniform, H, d)
	m.wk = ps.New(prefix+".wk", models.GlorotUniform, D, d)
	m.wv = ps.New(prefix+".wv", models.GlorotUniform, D, d)
	m.wo = ps.New(prefix+".wo", models.GlorotUniform, d, d)
	return m, nil
}

// Name implements Mechanism.
func (m *MultiHead) Name() string { return m.name }

// Dims implements Mechanism; the context has the model width d.
func (m *MultiHead) Dims() Dims { return Dims{Query: m.H, Key: m.D, Context: m.d} }

// Heads returns the number of heads h.
func (m *MultiHead) Heads() int { return m.heads }

// Prepare implements Mechanism: it computes K = M·Wk and V = M·Wv.
func (m *MultiHead) Prepare(memory, mask []float32, B, T int) (*Keys, error) {
	if err := checkParams(m, m.wq, m.wk, m.wv, m.wo); err != nil {
		return nil, err
	}
	k, err := newKeys(m, memory, mask, B, T)
	if err != nil {
		return nil, err
	}
	k.proj, k.values = make([]float32, B*T*m.d), make([]float32, B*T*m.d)
	projectForward(k.proj, [][]float32{memory, f32(m.wk)}, B*T, m.D, m.d)
	projectForward(k.values, [][]float32{memory, f32(m.wv)}, B*T, m.D, m.d)
	return k, nil
}

// Step implements Mechanism. It also writes dst.Heads (B, h, T).
func (m *MultiHead) Step(dst *State, keys *Keys, query []float32, prev *State) error {
	if err := checkStep(m, dst, keys, query, prev); err != nil {
		return err
	}
	B, T, d, h := keys.B, keys.T, m.d, m.heads
	dst.resize(B, T, d)
	dst.Heads = grow(dst.Heads, B*h*T)
	x := dotArgs[float32]{B: B, T: T, d: d, H: m.H, keys: keys.proj, query: query, mask: keys.Mask, w: f32(m.wq)}
	dotForwardSerial(m.kernel, &x, dst.Heads)
	buf := getScratch[float32](B * d)
	defer putScratch(buf)
	heads := *buf // (B, d): the heads' contexts side by side
	contextForward(heads, dst.Heads, keys.values, B, h, T, d, false)
	models.Gemm(false, false, B, d, d, 1, heads, d, f32(m.wo), d, 0, dst.Context, d)
	inv := 1 / float32(h)
	for b := 0; b < B; b++ {
		w := dst.Weights[b*T : (b+1)*T]
		clear(w)
		for j := 0; j < h; j++ {
			axpy(inv, dst.Heads[(b*h+j)*T:(b*h+j+1)*T], w)
		}
	}
	dst.advance(prev)
	return nil
}

// PrepareNodes implements Mechanism: Proj is K (B, T, d) and Values V.
func (m *MultiHead) PrepareNodes(b *models.Binding, memory, mask *gorgonia.Node) (KeysNodes, error) {
	k, err := newKeysNodes(m, memory, mask, m.wk)
	if err != nil {
		return k, err
	}
	if k.Proj, err = apply(m, projectKernel{}, memory, b.Node(m.wk.Name)); err != nil {
		return k, err
	}
	k.Values, err = apply(m, projectKernel{}, memory, b.Node(m.wv.Name))
	return k, err
}

// StepNode implements Mechanism: a fused score node for all heads (B, h, T),
// a context node, the output projection and the heads' mean.
func (m *MultiHead) StepNode(b *models.Binding, keys KeysNodes, query *gorgonia.Node, _ StateNodes) (StateNodes, error) {
	if err := checkQueryNode(m, keys, query); err != nil {
		return StateNodes{}, err
	}
	if keys.Proj == nil || keys.Values == nil {
		return StateNodes{}, fmt.Errorf("attention: %s: keys were not prepared by MultiHead: %w", m.name, ErrKeys)
	}
	heads, err := apply(m, m.kernel, keys.Proj, query, keys.Mask, b.Node(m.wq.Name))
	if err != nil {
		return StateNodes{}, err
	}
	hctx, err := apply(m, contextKernel{heads: m.heads}, heads, keys.Values)
	if err != nil {
		return StateNodes{}, err
	}
	ctx, err := gorgonia.Mul(hctx, b.Node(m.wo.Name))
	if err != nil {
		return StateNodes{}, fmt.Errorf("attention: %s: output projection: %w", m.name, err)
	}
	mean, err := gorgonia.Mean(heads, 1)
	if err != nil {
		return StateNodes{}, fmt.Errorf("attention: %s: mean of the heads: %w", m.name, err)
	}
	return StateNodes{Context: ctx, Weights: mean, Heads: heads}, nil
}
