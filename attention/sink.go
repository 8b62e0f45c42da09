package attention

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// keySink gathers, in one graph, the gradients that the steps of an
// unrolled decoder send to the keys they all read: ∂L/∂proj (B, T, A) and
// ∂L/∂memory (B, T, D).
//
// Were proj and the memory ordinary differentiable inputs of every step
// node, each step's backward pass would fill one dense gradient of each and
// gorgonia would add the S of them up: 2·S tensors of B·T·(A or D) floats
// kept per graph (112 steps of the speech recipe: ≈ 480 MB per bucket),
// cleared, written and summed on every run, a third of a decoder's
// training step. Instead the step nodes read proj and the memory as
// constants and add their gradients into the sink's two accumulators; a
// one-element token ties them to the graph. The sink node outputs it and
// every step node takes it as a differentiable input whose gradient is
// zero, so gorgonia runs the sink's backward pass — which turns the
// accumulators into the gradients of the memory, U and b — only after
// the backward pass of every step.
//
// Steps of different decoders may share a sink; mechanisms that do not use
// it (their nodes take the memory as a differentiable input) still get
// their gradient summed with the sink's by gorgonia.
type keySink struct {
	dproj, dmem any // []float32 or []float64, zeroed by the sink's forward pass
}

// newKeySink adds the sink node of memory (B, T, D) and, when u is not
// nil, of proj = memory·U (+ b) to a graph and returns the sink and its
// token.
func newKeySink(owner Mechanism, memory, u, b *gorgonia.Node) (*keySink, *gorgonia.Node, error) {
	s := &keySink{}
	in := []*gorgonia.Node{memory}
	if u != nil {
		in = append(in, u)
		if b != nil {
			in = append(in, b)
		}
	}
	tok, err := apply(owner, sinkKernel{sink: s, proj: u != nil, bias: b != nil}, in...)
	return s, tok, err
}

// sinkKernel is the sink node: inputs memory (B, T, D) and, with proj, U
// (D, A) and, with bias, b (A); output the token (1), always 0.
type sinkKernel struct {
	sink       *keySink
	proj, bias bool
}

func (k sinkKernel) Name() string { return "attention.KeySink" }

func (k sinkKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	want := 1
	if k.proj {
		want++
		if k.bias {
			want++
		}
	}
	if len(in) != want || in[0].Dims() != 3 {
		return nil, fmt.Errorf("want memory (B, T, D) and %d parameters; got %v: %w", want-1, in, ErrShape)
	}
	if k.proj {
		if u := in[1]; u.Dims() != 2 || u[0] != in[0][2] {
			return nil, fmt.Errorf("U %v, want (%d, A): %w", u, in[0][2], ErrShape)
		}
		if k.bias && (in[2].Dims() != 1 || in[2][0] != in[1][1]) {
			return nil, fmt.Errorf("bias %v, want (%d): %w", in[2], in[1][1], ErrShape)
		}
	}
	return tensor.Shape{1}, nil
}

func (k sinkKernel) Differentiable(n int) []bool {
	d := make([]bool, n)
	for i := range d {
		d[i] = true
	}
	return d
}

func (k sinkKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	if out.Dtype() == tensor.Float64 {
		sinkForward[float64](k, data[float64](out), in)
	} else {
		sinkForward[float32](k, data[float32](out), in)
	}
	return nil
}

// sinkForward zeroes the accumulators (sized to the memory) and the token.
func sinkForward[F Float](k sinkKernel, tok []F, in []*tensor.Dense) {
	s := in[0].Shape()
	n := s[0] * s[1]
	dmem, _ := k.sink.dmem.([]F)
	dmem = grow(dmem, n*s[2])
	clear(dmem)
	k.sink.dmem = dmem
	if k.proj {
		dproj, _ := k.sink.dproj.([]F)
		dproj = grow(dproj, n*in[1].Shape()[1])
		clear(dproj)
		k.sink.dproj = dproj
	}
	clear(tok)
}

func (k sinkKernel) Backward(dIn []*tensor.Dense, _, _ *tensor.Dense, in []*tensor.Dense) error {
	if in[0].Dtype() == tensor.Float64 {
		sinkBackward[float64](k, datas[float64](dIn), datas[float64](in), in[0].Shape())
	} else {
		sinkBackward[float32](k, datas[float32](dIn), datas[float32](in), in[0].Shape())
	}
	return nil
}

// sinkBackward: dmemory = Σ_steps ∂L/∂memory + (Σ_steps ∂L/∂proj)·Uᵀ, and
// dU, db as projectBackward computes them from Σ_steps ∂L/∂proj.
func sinkBackward[F Float](k sinkKernel, dIn, in [][]F, s tensor.Shape) {
	n, D := s[0]*s[1], s[2]
	dmem := k.sink.dmem.([]F)
	copy(dIn[0], dmem[:n*D])
	if !k.proj {
		return
	}
	dproj := k.sink.dproj.([]F)
	A := len(in[1]) / D
	models.Gemm(false, true, n, D, A, 1, dproj, A, in[1], A, 1, dIn[0], D)
	models.Gemm(true, false, D, A, n, 1, in[0], D, dproj, A, 0, dIn[1], A)
	if k.bias {
		db := dIn[2]
		clear(db)
		for r := range n {
			axpy(1, dproj[r*A:(r+1)*A], db)
		}
	}
}
