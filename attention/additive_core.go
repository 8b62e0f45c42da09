package attention

import (
	"fmt"
	"math"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
)

// additiveCore holds the parameters of the additive family (Additive,
// LocationAware, Concat, Hard) and computes their weights in both faces.
type additiveCore struct {
	H, D, A     int
	w           *models.Param // (H, A): query projection W
	u           *models.Param // (D, A): key projection U
	b           *models.Param // (A): bias, or nil (Concat)
	v           *models.Param // (A): scoring vector
	filters, uf *models.Param // (nf, C, K) and (nf, A): location features, or nil
	spec        additiveSpec
}

// checkDims reports ErrConfig for a missing store or prefix or a width < 1.
func checkDims(kind string, ps *models.Params, prefix string, dims map[string]int) error {
	if ps == nil {
		return fmt.Errorf("attention: %s: nil parameter store: %w", kind, ErrConfig)
	}
	if prefix == "" {
		return fmt.Errorf("attention: %s: empty parameter prefix: %w", kind, ErrConfig)
	}
	for name, d := range dims {
		if d < 1 {
			return fmt.Errorf("attention: %s %q: %s = %d, want ≥ 1: %w", kind, prefix, name, d, ErrConfig)
		}
	}
	return nil
}

// newAdditiveCore creates prefix.w (H, A), prefix.u (D, A), prefix.b (A)
// when bias is set, prefix.v (A), and with location features prefix.conv
// (nf, C, K) and prefix.loc (nf, A). W, U, F and Uf start Glorot-uniform,
// b at zero and v uniform in ±1/√A (never zero: with v = 0 every score is
// equal and the weights get no gradient).
func newAdditiveCore(kind string, ps *models.Params, prefix string, H, D, A int, bias bool, spec additiveSpec) (*additiveCore, error) {
	if err := checkDims(kind, ps, prefix, map[string]int{"query width": H, "key width": D, "attention width": A}); err != nil {
		return nil, err
	}
	if spec.sharpen == 0 {
		spec.sharpen = 1
	}
	c := &additiveCore{H: H, D: D, A: A, spec: spec}
	type def struct {
		dst   **models.Param
		name  string
		init  models.Init
		shape []int
	}
	defs := []def{
		{&c.w, ".w", models.GlorotUniform, []int{H, A}},
		{&c.u, ".u", models.GlorotUniform, []int{D, A}},
	}
	if bias {
		defs = append(defs, def{&c.b, ".b", models.Zeros, []int{A}})
	}
	defs = append(defs, def{&c.v, ".v", models.Uniform(1 / math.Sqrt(float64(A))), []int{A}})
	if spec.filters > 0 {
		defs = append(defs,
			def{&c.filters, ".conv", models.GlorotUniform, []int{spec.filters, spec.channels, spec.width}},
			def{&c.uf, ".loc", models.GlorotUniform, []int{spec.filters, A}})
	}
	for _, d := range defs {
		if _, dup := ps.Get(prefix + d.name); dup {
			return nil, fmt.Errorf("attention: %s: parameter %q already exists: %w", kind, prefix+d.name, ErrConfig)
		}
	}
	for _, d := range defs {
		*d.dst = ps.New(prefix+d.name, d.init, d.shape...)
	}
	return c, nil
}

// params lists the parameters, for dtype checks.
func (c *additiveCore) params() []*models.Param {
	return []*models.Param{c.w, c.u, c.b, c.v, c.filters, c.uf}
}

// usesPrev reports whether a step reads the previous weights.
func (c *additiveCore) usesPrev() bool { return c.spec.filters > 0 || c.spec.window.enabled() }

// usesCum reports whether a step reads the cumulative weights.
func (c *additiveCore) usesCum() bool { return c.spec.filters > 0 && c.spec.channels == 2 }

// prepare projects the memory once: proj (B·T, A) = memory (B·T, D)·U + b.
func (c *additiveCore) prepare(owner Mechanism, memory, mask []float32, B, T int) (*Keys, error) {
	if err := checkParams(owner, c.params()...); err != nil {
		return nil, err
	}
	k, err := newKeys(owner, memory, mask, B, T)
	if err != nil {
		return nil, err
	}
	k.proj = make([]float32, B*T*c.A)
	in := [][]float32{memory, f32(c.u)}
	if c.b != nil {
		in = append(in, f32(c.b))
	}
	projectForward(k.proj, in, B*T, c.D, c.A)
	return k, nil
}

// weights writes the eager α (B, T) of one step.
func (c *additiveCore) weights(alpha []float32, keys *Keys, query []float32, prev *State) {
	x := additiveArgs[float32]{B: keys.B, T: keys.T, A: c.A, H: c.H,
		proj: keys.proj, query: query, w: f32(c.w), v: f32(c.v), mask: keys.Mask, shared: keys.shared}
	pw, pc := prevSlices(prev)
	if c.usesPrev() {
		x.prev = pw
	}
	if c.usesCum() {
		x.cum = pc
	}
	if c.filters != nil {
		x.filters, x.uf = f32(c.filters), f32(c.uf)
	}
	additiveForwardSerial(&c.spec, &x, alpha)
}

// prepareNodes adds the key projection node: proj (B, T, A).
func (c *additiveCore) prepareNodes(owner Mechanism, bd *models.Binding, memory, mask *gorgonia.Node) (KeysNodes, error) {
	k, err := newKeysNodes(owner, memory, mask, c.u)
	if err != nil {
		return k, err
	}
	in := []*gorgonia.Node{memory, bd.Node(c.u.Name)}
	var bias *gorgonia.Node
	if c.b != nil {
		bias = bd.Node(c.b.Name)
		in = append(in, bias)
	}
	if k.Proj, err = apply(owner, projectKernel{bias: c.b != nil}, in...); err != nil {
		return k, err
	}
	k.sink, k.token, err = newKeySink(owner, memory, in[1], bias)
	return k, err
}

// weightsNode adds the fused score node α (B, T) of one step.
func (c *additiveCore) weightsNode(owner Mechanism, bd *models.Binding, keys KeysNodes, query *gorgonia.Node, prev StateNodes) (*gorgonia.Node, error) {
	if err := checkQueryNode(owner, keys, query); err != nil {
		return nil, err
	}
	if keys.Proj == nil {
		return nil, fmt.Errorf("attention: %s: keys were not prepared by this mechanism: %w", owner.Name(), ErrKeys)
	}
	k := &additiveKernel{spec: &c.spec, prev: c.usesPrev() && prev.Weights != nil, sink: keys.sink}
	in := []*gorgonia.Node{keys.Proj, query, bd.Node(c.w.Name), bd.Node(c.v.Name), keys.Mask}
	if k.prev {
		in = append(in, prev.Weights)
		if c.usesCum() {
			if prev.Cumulative == nil {
				return nil, fmt.Errorf("attention: %s: previous state has weights but no cumulative weights: %w", owner.Name(), ErrKeys)
			}
			in = append(in, prev.Cumulative)
		}
	}
	if k.loc() {
		in = append(in, bd.Node(c.filters.Name), bd.Node(c.uf.Name))
	}
	if k.sink != nil {
		in = append(in, keys.token)
	}
	return apply(owner, k, in...)
}
