package models

import (
	"fmt"
	"math/rand/v2"
	"sort"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// A Param is one named trainable tensor. Its Value is shared by the eager
// inference code and by every training graph that binds it (one graph per
// shape bucket); Grad accumulates gradients collected from those graphs
// until an optimizer step consumes and clears it.
type Param struct {
	Name  string        // dotted path, e.g. "speller.lstm.w"
	Value *tensor.Dense // float32 or float64, row-major
	Grad  *tensor.Dense // same shape and dtype as Value
}

// Shape returns the parameter's shape.
func (p *Param) Shape() tensor.Shape { return p.Value.Shape() }

// Size returns the number of scalars in the parameter.
func (p *Param) Size() int { return p.Value.Shape().TotalSize() }

// F32 returns the parameter's values as float32 (it panics for a float64
// store: a programmer error).
func (p *Param) F32() []float32 { return p.Value.Data().([]float32) }

// Params is an ordered set of named parameters with seeded initialization.
// Names are unique dotted paths; order is creation order, which fixes the
// layout of checkpoints and of optimizer state.
type Params struct {
	dtype  tensor.Dtype
	rng    *rand.Rand
	list   []*Param
	byName map[string]*Param
}

// NewParams returns an empty store of the given dtype (tensor.Float32 or
// tensor.Float64) whose initializers draw from rng.
func NewParams(dtype tensor.Dtype, rng *rand.Rand) *Params {
	if dtype != tensor.Float32 && dtype != tensor.Float64 {
		panic(fmt.Sprintf("models: NewParams: dtype %v, want float32 or float64", dtype))
	}
	return &Params{dtype: dtype, rng: rng, byName: map[string]*Param{}}
}

// Dtype returns the store's element type.
func (ps *Params) Dtype() tensor.Dtype { return ps.dtype }

// New creates, initializes and registers a parameter. A duplicate or empty
// name or a non-positive dimension is a programmer error and panics.
func (ps *Params) New(name string, init Init, shape ...int) *Param {
	if name == "" {
		panic("models: Params.New: empty name")
	}
	if _, dup := ps.byName[name]; dup {
		panic(fmt.Sprintf("models: Params.New: duplicate parameter %q", name))
	}
	n := 1
	for _, d := range shape {
		if d <= 0 {
			panic(fmt.Sprintf("models: Params.New(%q): shape %v", name, shape))
		}
		n *= d
	}
	vals := make([]float64, n)
	if init != nil {
		init(ps.rng, shape, vals)
	}
	p := &Param{
		Name:  name,
		Value: tensor.New(tensor.Of(ps.dtype), tensor.WithShape(shape...)),
		Grad:  tensor.New(tensor.Of(ps.dtype), tensor.WithShape(shape...)),
	}
	switch d := p.Value.Data().(type) {
	case []float32:
		for i, v := range vals {
			d[i] = float32(v)
		}
	case []float64:
		copy(d, vals)
	}
	ps.list = append(ps.list, p)
	ps.byName[name] = p
	return p
}

// SetRand makes later New calls draw their initial values from rng: a
// layer added to a loaded model (a new head for fine-tuning) is then
// seeded by the caller.
func (ps *Params) SetRand(rng *rand.Rand) { ps.rng = rng }

// Get returns the parameter called name.
func (ps *Params) Get(name string) (*Param, bool) {
	p, ok := ps.byName[name]
	return p, ok
}

// All returns the parameters in creation order. The slice is shared: do not
// modify it.
func (ps *Params) All() []*Param { return ps.list }

// Names returns the parameter names in creation order.
func (ps *Params) Names() []string {
	names := make([]string, len(ps.list))
	for i, p := range ps.list {
		names[i] = p.Name
	}
	return names
}

// Count returns the total number of scalars.
func (ps *Params) Count() int {
	n := 0
	for _, p := range ps.list {
		n += p.Size()
	}
	return n
}

// ZeroGrads clears every accumulated gradient.
func (ps *Params) ZeroGrads() {
	for _, p := range ps.list {
		p.Grad.Zero()
	}
}

// Binding ties parameters to nodes of one graph. Every graph that trains
// the parameters has its own Binding; all of them share the Value tensors.
type Binding struct {
	params    []*Param
	nodes     gorgonia.Nodes
	byName    map[string]*gorgonia.Node
	stepSinks map[*LSTM]stepSinkRef // see stepSink
	// packs holds, per LSTM, the packed weights its unrolled steps read
	// (see stepSink). Graphs that never run at the same time may share
	// one (a Buckets' graphs do); graphs that run concurrently
	// (Replicas) share one whose refs are marked sharedPacks, packed
	// once per run under a lock.
	packs       map[*LSTM]*stepPacksRef
	sharedPacks bool
}

// Bind adds a node for each parameter to g, holding the parameter's Value
// tensor itself (not a copy), so that an optimizer step on the Params is
// seen by every graph at once. Graphs only read the Value tensors, so
// graphs over one Params may run concurrently; each adds its gradients
// into the Grad tensors with CollectGrads, one graph at a time.
func (ps *Params) Bind(g *gorgonia.ExprGraph) *Binding {
	return ps.bind(g, map[*LSTM]*stepPacksRef{}, false)
}

// bind is Bind with the packed LSTM weights kept in packs, shared by
// concurrent graphs when shared (see stepPacksRef).
func (ps *Params) bind(g *gorgonia.ExprGraph, packs map[*LSTM]*stepPacksRef, shared bool) *Binding {
	b := &Binding{byName: make(map[string]*gorgonia.Node, len(ps.list)), packs: packs, sharedPacks: shared}
	for _, p := range ps.list {
		n := gorgonia.NodeFromAny(g, p.Value, gorgonia.WithName(p.Name))
		b.params = append(b.params, p)
		b.nodes = append(b.nodes, n)
		b.byName[p.Name] = n
	}
	return b
}

// Node returns the node bound to the named parameter. Asking for a
// parameter that was never created is a programmer error and panics.
func (b *Binding) Node(name string) *gorgonia.Node {
	n, ok := b.byName[name]
	if !ok {
		names := make([]string, 0, len(b.byName))
		for k := range b.byName {
			names = append(names, k)
		}
		sort.Strings(names)
		panic(fmt.Sprintf("models: no parameter %q (have %v)", name, names))
	}
	return n
}

// Nodes returns the bound nodes, in parameter order.
func (b *Binding) Nodes() gorgonia.Nodes { return b.nodes }

// Used returns the bound nodes that the graph's loss depends on: the ones to
// pass to gorgonia.Grad and BindDualValues. A bucket graph may leave some
// parameters unused (for example a CTC head when the CTC weight is 0).
func (b *Binding) Used() gorgonia.Nodes {
	var used gorgonia.Nodes
	for _, n := range b.nodes {
		if n.Graph().To(n.ID()).Len() > 0 {
			used = append(used, n)
		}
	}
	return used
}

// dependsOnParams reports whether n's value depends on a bound parameter,
// that is whether a gradient with respect to n can reach one. A kernel
// whose input does not (features, masks) can skip that input's gradient.
func (b *Binding) dependsOnParams(n *gorgonia.Node) bool {
	params := make(map[int64]bool, len(b.nodes))
	for _, p := range b.nodes {
		params[p.ID()] = true
	}
	g := n.Graph()
	seen := map[int64]bool{}
	stack := []int64{n.ID()}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if params[id] {
			return true
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		for it := g.From(id); it.Next(); {
			stack = append(stack, it.Node().ID())
		}
	}
	return false
}

// CollectGrads adds each bound node's gradient (from a tape machine run with
// BindDualValues) into its parameter's Grad and zeroes the node's gradient,
// so that gorgonia's own accumulation across runs never double counts.
func (b *Binding) CollectGrads() error { return b.collectGrads(true) }

// collectGrads is CollectGrads, or with add false only the zeroing (a
// GradStream has taken the gradients).
func (b *Binding) collectGrads(add bool) error {
	for i, n := range b.nodes {
		gv, err := n.Grad()
		if err != nil {
			continue // not differentiated in this graph
		}
		gd, ok := gv.(*tensor.Dense)
		if !ok {
			return fmt.Errorf("models: gradient of %s is %T", n.Name(), gv)
		}
		if !add {
			gd.Zero()
			continue
		}
		p := b.params[i]
		switch dst := p.Grad.Data().(type) {
		case []float32:
			addInto(dst, gd.Data().([]float32))
		case []float64:
			addInto(dst, gd.Data().([]float64))
		}
		gd.Zero()
	}
	return nil
}

func addInto[F Float](dst, src []F) {
	for i, v := range src {
		dst[i] += v
	}
}
