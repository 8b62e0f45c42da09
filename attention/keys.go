package attention

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// newKeys validates a memory (B, T, D) and mask (B, T) and wraps them.
func newKeys(owner Mechanism, memory, mask []float32, B, T int) (*Keys, error) {
	D := owner.Dims().Key
	if B < 1 || T < 1 {
		return nil, fmt.Errorf("attention: %s: batch %d × length %d, want both ≥ 1: %w", owner.Name(), B, T, ErrShape)
	}
	if len(memory) != B*T*D {
		return nil, fmt.Errorf("attention: %s: memory has %d values, want B·T·D = %d·%d·%d = %d: %w", owner.Name(), len(memory), B, T, D, B*T*D, ErrShape)
	}
	if mask != nil && len(mask) != B*T {
		return nil, fmt.Errorf("attention: %s: mask has %d values, want B·T = %d: %w", owner.Name(), len(mask), B*T, ErrShape)
	}
	k := &Keys{B: B, T: T, D: D, Memory: memory, Mask: mask, Lengths: make([]int, B), owner: owner}
	for b := range k.Lengths {
		k.Lengths[b] = realCount(row(mask, b, T), T)
	}
	return k, nil
}

// Rows returns a view of k's first n rows (1 ≤ n ≤ k.B): the same memory,
// mask and projections, without copying, as if Prepare had been given
// only those rows. A search whose live rows vary from step to step (rows
// that all read the same memory) prepares keys for the most rows once and
// steps on views of them.
func (k *Keys) Rows(n int) (*Keys, error) {
	if n < 1 || n > k.B {
		return nil, fmt.Errorf("attention: Keys.Rows: %d rows of %d: %w", n, k.B, ErrShape)
	}
	if n == k.B {
		return k, nil
	}
	head := func(x []float32) []float32 {
		if x == nil {
			return nil
		}
		return x[:n*(len(x)/k.B)]
	}
	v := *k
	v.B, v.Lengths = n, k.Lengths[:n]
	if !k.shared {
		v.Memory, v.Mask = head(k.Memory), head(k.Mask)
		v.proj, v.values = head(k.proj), head(k.values)
	}
	return &v, nil
}

// broadcastStepper is implemented by the mechanisms whose Step reads
// broadcast keys in place (the additive family's softStep).
type broadcastStepper interface{ stepsOnBroadcast() }

func (*Additive) stepsOnBroadcast()      {}
func (*Concat) stepsOnBroadcast()        {}
func (*LocationAware) stepsOnBroadcast() {}

// Broadcast returns the keys of n rows that each hold k's one row (k.B
// must be 1), as Prepare makes them from n copies of its memory: the
// rows of a beam search, which all attend to one utterance. For the
// additive family (Additive, Concat, LocationAware) the rows share k's
// memory and projections without copying them, and a step computes each
// row from row 0, exactly as from a copy (TestBroadcastKeys); for the
// other mechanisms the rows are copies.
func (k *Keys) Broadcast(n int) (*Keys, error) {
	if k.B != 1 || n < 1 {
		return nil, fmt.Errorf("attention: Keys.Broadcast: %d rows of keys of %d rows, want keys of 1 row: %w", n, k.B, ErrShape)
	}
	v := *k
	v.B, v.Lengths = n, make([]int, n)
	for b := range v.Lengths {
		v.Lengths[b] = k.Lengths[0]
	}
	if _, ok := k.owner.(broadcastStepper); ok {
		v.shared = true
		return &v, nil
	}
	copies := func(x []float32) []float32 {
		if x == nil {
			return nil
		}
		c := make([]float32, 0, n*len(x))
		for range n {
			c = append(c, x...)
		}
		return c
	}
	v.Memory, v.Mask, v.proj, v.values = copies(k.Memory), copies(k.Mask), copies(k.proj), copies(k.values)
	return &v, nil
}

// checkParams reports ErrDtype unless every parameter is float32, the
// eager face's element type.
func checkParams(owner Mechanism, ps ...*models.Param) error {
	for _, p := range ps {
		if p != nil && p.Value.Dtype() != tensor.Float32 {
			return fmt.Errorf("attention: %s: parameter %s is %v; the eager face computes in float32: %w", owner.Name(), p.Name, p.Value.Dtype(), ErrDtype)
		}
	}
	return nil
}

// checkStep validates the operands of an eager Step.
func checkStep(owner Mechanism, dst *State, keys *Keys, query []float32, prev *State) error {
	switch {
	case keys == nil:
		return fmt.Errorf("attention: %s: nil keys: %w", owner.Name(), ErrKeys)
	case keys.owner != owner:
		return fmt.Errorf("attention: %s: keys were prepared by another mechanism: %w", owner.Name(), ErrKeys)
	case dst == nil:
		return fmt.Errorf("attention: %s: nil destination state: %w", owner.Name(), ErrKeys)
	case dst == prev:
		return fmt.Errorf("attention: %s: the destination state is the previous state; alternate two States: %w", owner.Name(), ErrKeys)
	}
	if H := owner.Dims().Query; len(query) != keys.B*H {
		return fmt.Errorf("attention: %s: query has %d values, want B·H = %d·%d: %w", owner.Name(), len(query), keys.B, H, ErrShape)
	}
	if !prev.first() && (len(prev.Weights) != keys.B*keys.T || len(prev.Cumulative) != keys.B*keys.T) {
		return fmt.Errorf("attention: %s: previous state has %d weights, want B·T = %d: %w", owner.Name(), len(prev.Weights), keys.B*keys.T, ErrShape)
	}
	return nil
}

// prevSlices returns the previous weights and cumulative weights, nil
// before the first step.
func prevSlices(prev *State) (weights, cumulative []float32) {
	if prev.first() {
		return nil, nil
	}
	return prev.Weights, prev.Cumulative
}

// newKeysNodes validates a memory node (B, T, D) and a mask node (B, T),
// making an all-ones mask when mask is nil, and checks that the memory has
// the parameters' dtype.
func newKeysNodes(owner Mechanism, memory, mask *gorgonia.Node, params ...*models.Param) (KeysNodes, error) {
	D := owner.Dims().Key
	if memory == nil {
		return KeysNodes{}, fmt.Errorf("attention: %s: nil memory node: %w", owner.Name(), ErrShape)
	}
	for _, p := range params {
		if p != nil && p.Value.Dtype() != memory.Dtype() {
			return KeysNodes{}, fmt.Errorf("attention: %s: memory is %v, parameter %s %v: %w", owner.Name(), memory.Dtype(), p.Name, p.Value.Dtype(), ErrDtype)
		}
	}
	s := memory.Shape()
	if s.Dims() != 3 || s[2] != D {
		return KeysNodes{}, fmt.Errorf("attention: %s: memory %v, want (B, T, %d): %w", owner.Name(), s, D, ErrShape)
	}
	B, T := s[0], s[1]
	if mask == nil {
		ones := tensor.New(tensor.Of(memory.Dtype()), tensor.WithShape(B, T))
		if err := ones.Memset(oneOf(memory.Dtype())); err != nil {
			return KeysNodes{}, fmt.Errorf("attention: %s: %w", owner.Name(), err)
		}
		mask = gorgonia.NewConstant(ones, gorgonia.WithName(fmt.Sprintf("%s.ones(%d,%d)", owner.Name(), B, T)))
	}
	if !mask.Shape().Eq(tensor.Shape{B, T}) {
		return KeysNodes{}, fmt.Errorf("attention: %s: mask %v, want (%d, %d): %w", owner.Name(), mask.Shape(), B, T, ErrShape)
	}
	if mask.Dtype() != memory.Dtype() {
		return KeysNodes{}, fmt.Errorf("attention: %s: mask is %v, memory %v: %w", owner.Name(), mask.Dtype(), memory.Dtype(), ErrDtype)
	}
	return KeysNodes{B: B, T: T, Memory: memory, Mask: mask}, nil
}

func oneOf(dt tensor.Dtype) any {
	if dt == tensor.Float64 {
		return 1.0
	}
	return float32(1)
}

// checkQueryNode validates a (B, H) query node against prepared keys.
func checkQueryNode(owner Mechanism, keys KeysNodes, query *gorgonia.Node) error {
	if keys.Memory == nil {
		return fmt.Errorf("attention: %s: keys were not prepared: %w", owner.Name(), ErrKeys)
	}
	H := owner.Dims().Query
	if query == nil || !query.Shape().Eq(tensor.Shape{keys.B, H}) {
		var s tensor.Shape
		if query != nil {
			s = query.Shape()
		}
		return fmt.Errorf("attention: %s: query %v, want (%d, %d): %w", owner.Name(), s, keys.B, H, ErrShape)
	}
	return nil
}

// apply is models.Apply with the package's error prefix.
func apply(owner Mechanism, k models.Kernel, inputs ...*gorgonia.Node) (*gorgonia.Node, error) {
	n, err := models.Apply(k, inputs...)
	if err != nil {
		return nil, fmt.Errorf("attention: %s: %w", owner.Name(), err)
	}
	return n, nil
}
