package models

import (
	"fmt"
	"hash"
	"hash/fnv"
	"sync/atomic"
	"unsafe"

	"github.com/chewxy/hm"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// A Kernel is the eager forward and hand-written backward pass of one fused
// operation. Apply turns a Kernel into a gorgonia node, so a training graph
// holds a few large fused nodes instead of thousands of small ones
// (DESIGN.md "Compute strategy" 2).
//
// All tensors a Kernel sees are dense, row-major and of one dtype, float32
// or float64 (float64 serves the finite-difference gradient checks).
//
// A Kernel value may keep state between Forward and Backward (for example
// the gate activations of an LSTM), so each Apply needs its own Kernel value.
type Kernel interface {
	// Name names the kernel in graph dumps and errors, e.g. "LSTM(256)".
	Name() string
	// OutputShape returns the output's shape for the inputs' shapes, or an
	// error that names the mismatch.
	OutputShape(in []tensor.Shape) (tensor.Shape, error)
	// Differentiable reports, per input, whether Backward computes its gradient.
	Differentiable(nInputs int) []bool
	// Forward writes the result into out.
	Forward(out *tensor.Dense, in []*tensor.Dense) error
	// Backward writes ∂L/∂in[i] into dIn[i] (overwriting it) for each
	// differentiable input, given dOut = ∂L/∂out; dIn[i] is nil for the
	// others. It runs after Forward on the same inputs, so it may use what
	// Forward saved.
	Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error
}

// kernelIDs makes each applied kernel's hash unique, so that gorgonia never
// merges two fused nodes that happen to share inputs and a name, and so
// that a graph built again hashes differently (hash_collision.go).
var kernelIDs atomic.Uint64

// Apply adds k to the graph of the inputs and returns its output node. The
// node is differentiable with respect to the inputs k.Differentiable marks.
func Apply(k Kernel, inputs ...*gorgonia.Node) (*gorgonia.Node, error) {
	shapes := make([]tensor.Shape, len(inputs))
	for i, n := range inputs {
		shapes[i] = n.Shape()
	}
	outShape, err := k.OutputShape(shapes)
	if err != nil {
		return nil, fmt.Errorf("models: %s: %w", k.Name(), err)
	}
	op := &fusedOp{
		kernel:  k,
		id:      kernelIDs.Add(1),
		inDims:  make([]int, len(inputs)),
		outDims: len(outShape),
		grads:   &gradCache{},
	}
	for i, s := range shapes {
		op.inDims[i] = len(s)
	}
	n, err := gorgonia.ApplyOp(op, inputs...)
	if err != nil {
		return nil, fmt.Errorf("models: %s: %w", k.Name(), err)
	}
	if n.Op() != gorgonia.Op(op) {
		return nil, fmt.Errorf("models: %s into %v: %w", op, n, errNodeMerged)
	}
	return n, nil
}

// fusedOp adapts a Kernel's forward pass to gorgonia.Op and gorgonia.SDOp.
type fusedOp struct {
	kernel  Kernel
	id      uint64
	inDims  []int
	outDims int
	grads   *gradCache
	out     *tensor.Dense // output reused across runs (see output)
	ready   *readyAt      // gradients final before this op runs (ready.go)
}

// gradCache holds the input gradients of one Backward call, shared by the
// per-input gradient nodes: the first to run computes all of them.
type gradCache struct {
	dIn   []*tensor.Dense
	valid bool // computed since the last Forward
}

func (op *fusedOp) Arity() int { return len(op.inDims) }

func (op *fusedOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	ts := make([]hm.Type, 0, len(op.inDims)+1)
	for _, d := range op.inDims {
		ts = append(ts, tensorType(d, a))
	}
	ts = append(ts, tensorType(op.outDims, a))
	return hm.NewFnType(ts...)
}

func tensorType(dims int, a hm.TypeVariable) hm.Type {
	if dims == 0 {
		return a
	}
	return gorgonia.TensorType{Dims: dims, Of: a}
}

func (op *fusedOp) InferShape(in ...gorgonia.DimSizer) (tensor.Shape, error) {
	shapes, err := gorgonia.DimSizersToShapes(in)
	if err != nil {
		return nil, err
	}
	return op.kernel.OutputShape(shapes)
}

func (op *fusedOp) Do(in ...gorgonia.Value) (gorgonia.Value, error) {
	ins, err := denseInputs(in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	shape, err := op.kernel.OutputShape(shapesOf(ins))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return op.output(shape, ins[0].Dtype()), op.forward(op.out, ins)
}

// output returns the op's own output tensor, allocated on the first run and
// reused after: the tape machine forgets its registers at every Reset, so
// without this every run of a bucket graph would allocate every output.
// Reuse is safe because a value's register is only recycled after its last
// reader in a run, and every run recomputes the op before reading it; a
// tensor another op has reshaped in place is reshaped back.
func (op *fusedOp) output(shape tensor.Shape, dt tensor.Dtype) *tensor.Dense {
	if op.out == nil || op.out.Dtype() != dt || op.out.Shape().TotalSize() != shape.TotalSize() || op.out.RequiresIterator() {
		op.out = tensor.New(tensor.Of(dt), tensor.WithShape(shape...))
	} else if !op.out.Shape().Eq(shape) {
		if err := op.out.Reshape(shape...); err != nil {
			op.out = tensor.New(tensor.Of(dt), tensor.WithShape(shape...))
		}
	}
	return op.out
}

// UsePreallocDo writes into the machine's register when it fits. A register
// of another shape, or one that aliases an input (gorgonia reuses registers),
// is refused, and the machine falls back to Do.
func (op *fusedOp) UsePreallocDo(prealloc gorgonia.Value, in ...gorgonia.Value) (gorgonia.Value, error) {
	ins, err := denseInputs(in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	out, ok := usableRegister(prealloc, ins)
	if !ok {
		return nil, fmt.Errorf("%s: register unusable", op)
	}
	shape, err := op.kernel.OutputShape(shapesOf(ins))
	if err != nil || !shape.Eq(out.Shape()) {
		return nil, fmt.Errorf("%s: register shape %v, want %v", op, out.Shape(), shape)
	}
	return out, op.forward(out, ins)
}

func (op *fusedOp) forward(out *tensor.Dense, ins []*tensor.Dense) error {
	op.ready.fire()
	op.grads.valid = false
	if err := op.kernel.Forward(out, ins); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

func (op *fusedOp) ReturnsPtr() bool     { return false }
func (op *fusedOp) CallsExtern() bool    { return false }
func (op *fusedOp) OverwritesInput() int { return -1 }
func (op *fusedOp) String() string       { return fmt.Sprintf("%s#%d", op.kernel.Name(), op.id) }
func (op *fusedOp) WriteHash(h hash.Hash) {
	fmt.Fprint(h, op.String())
}
func (op *fusedOp) Hashcode() uint32 { return hashString(op.String()) }

func (op *fusedOp) DiffWRT(n int) []bool { return op.kernel.Differentiable(n) }

// SymDiff returns one gradient node per differentiable input. Each reads the
// forward inputs, the forward output and the output gradient, so gorgonia
// keeps them alive until the backward pass.
func (op *fusedOp) SymDiff(inputs gorgonia.Nodes, output, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	diff := op.kernel.Differentiable(len(inputs))
	args := make(gorgonia.Nodes, 0, len(inputs)+2)
	args = append(args, inputs...)
	args = append(args, output, grad)
	res := make(gorgonia.Nodes, len(inputs))
	for i := range inputs {
		if !diff[i] {
			continue
		}
		gop := &gradOp{fwd: op, wrt: i}
		g, err := gorgonia.ApplyOp(gop, args...)
		if err != nil {
			return nil, fmt.Errorf("models: gradient of %s: %w", op, err)
		}
		if g.Op() != gorgonia.Op(gop) {
			return nil, fmt.Errorf("models: %s into %v: %w", gop, g, errNodeMerged)
		}
		res[i] = g
	}
	return res, nil
}

// gradOp yields ∂L/∂input[wrt] of a fused node. Its inputs are the forward
// inputs, the forward output and ∂L/∂output.
type gradOp struct {
	fwd   *fusedOp
	wrt   int
	ready *readyAt // gradients final before this op runs (ready.go)
}

func (op *gradOp) Arity() int { return len(op.fwd.inDims) + 2 }

func (op *gradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	ts := make([]hm.Type, 0, len(op.fwd.inDims)+3)
	for _, d := range op.fwd.inDims {
		ts = append(ts, tensorType(d, a))
	}
	ts = append(ts, tensorType(op.fwd.outDims, a), tensorType(op.fwd.outDims, a))
	ts = append(ts, tensorType(op.fwd.inDims[op.wrt], a))
	return hm.NewFnType(ts...)
}

func (op *gradOp) InferShape(in ...gorgonia.DimSizer) (tensor.Shape, error) {
	shapes, err := gorgonia.DimSizersToShapes(in)
	if err != nil {
		return nil, err
	}
	return shapes[op.wrt].Clone(), nil
}

func (op *gradOp) Do(in ...gorgonia.Value) (gorgonia.Value, error) {
	ins, err := denseInputs(in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	// The cached gradient is returned itself, not a copy: like a fused
	// op's output it is reused across runs and recomputed before use.
	return op.gradient(ins)
}

func (op *gradOp) UsePreallocDo(prealloc gorgonia.Value, in ...gorgonia.Value) (gorgonia.Value, error) {
	ins, err := denseInputs(in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	out, ok := usableRegister(prealloc, ins)
	if !ok || !out.Shape().Eq(ins[op.wrt].Shape()) {
		return nil, fmt.Errorf("%s: register unusable", op)
	}
	src, err := op.gradient(ins)
	if err != nil {
		return nil, err
	}
	copy(rawBytes(out), rawBytes(src))
	return out, nil
}

// gradient runs the kernel's Backward once per forward pass and returns the
// cached gradient of input wrt.
func (op *gradOp) gradient(ins []*tensor.Dense) (*tensor.Dense, error) {
	op.ready.fire()
	n := len(op.fwd.inDims)
	fwdIn, out, dOut := ins[:n], ins[n], ins[n+1]
	c := op.fwd.grads
	if !c.valid {
		diff := op.fwd.kernel.Differentiable(n)
		if len(c.dIn) != n {
			c.dIn = make([]*tensor.Dense, n)
		}
		for i, x := range fwdIn {
			if !diff[i] {
				c.dIn[i] = nil
				continue
			}
			if c.dIn[i] == nil || !c.dIn[i].Shape().Eq(x.Shape()) || c.dIn[i].Dtype() != x.Dtype() {
				c.dIn[i] = tensor.New(tensor.Of(x.Dtype()), tensor.WithShape(x.Shape().Clone()...))
			}
		}
		if err := op.fwd.kernel.Backward(c.dIn, dOut, out, fwdIn); err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		c.valid = true
	}
	return c.dIn[op.wrt], nil
}

func (op *gradOp) ReturnsPtr() bool      { return false }
func (op *gradOp) CallsExtern() bool     { return false }
func (op *gradOp) OverwritesInput() int  { return -1 }
func (op *gradOp) String() string        { return fmt.Sprintf("∂%s/∂in%d", op.fwd, op.wrt) }
func (op *gradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, op.String()) }
func (op *gradOp) Hashcode() uint32      { return hashString(op.String()) }

func hashString(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// denseInputs converts gorgonia values to dense row-major tensors of one
// float dtype, materializing views.
func denseInputs(in []gorgonia.Value) ([]*tensor.Dense, error) {
	out := make([]*tensor.Dense, len(in))
	for i, v := range in {
		var d *tensor.Dense
		switch x := v.(type) {
		case *tensor.Dense:
			d = x
		case *gorgonia.F32:
			d = tensor.New(tensor.WithShape(), tensor.WithBacking([]float32{float32(*x)}))
		case *gorgonia.F64:
			d = tensor.New(tensor.WithShape(), tensor.WithBacking([]float64{float64(*x)}))
		default:
			return nil, fmt.Errorf("input %d: unsupported value type %T", i, v)
		}
		if d.RequiresIterator() {
			d = d.Materialize().(*tensor.Dense)
		}
		if dt := d.Dtype(); dt != tensor.Float32 && dt != tensor.Float64 {
			return nil, fmt.Errorf("input %d: dtype %v, want float32 or float64", i, dt)
		}
		if i > 0 && d.Dtype() != out[0].Dtype() {
			return nil, fmt.Errorf("input %d: dtype %v, want %v like input 0", i, d.Dtype(), out[0].Dtype())
		}
		out[i] = d
	}
	return out, nil
}

func shapesOf(ts []*tensor.Dense) []tensor.Shape {
	s := make([]tensor.Shape, len(ts))
	for i, t := range ts {
		s[i] = t.Shape()
	}
	return s
}

// usableRegister reports whether a preallocated register can take an output:
// a dense tensor of the inputs' dtype whose memory overlaps no input.
func usableRegister(prealloc gorgonia.Value, ins []*tensor.Dense) (*tensor.Dense, bool) {
	out, ok := prealloc.(*tensor.Dense)
	if !ok || out.RequiresIterator() || out.Dtype() != ins[0].Dtype() {
		return nil, false
	}
	ob := rawBytes(out)
	for _, x := range ins {
		if overlaps(ob, rawBytes(x)) {
			return nil, false
		}
	}
	return out, true
}

// rawBytes is the tensor's backing memory (dense, not a view).
func rawBytes(t *tensor.Dense) []byte {
	return t.Header.Raw
}

func overlaps(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	a0, b0 := uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&b[0]))
	return a0 < b0+uintptr(len(b)) && b0 < a0+uintptr(len(a))
}
