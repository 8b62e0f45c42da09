package attention

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// DoublyStochastic returns the doubly stochastic attention penalty of Xu
// et al. (2015, §4.2.1, eq. 14), summed over the batch:
//
//	P = λ·Σ_b Σ_i m_bi·(1 − Σ_t s_bt·α_bti)²
//
// weights α is (B, S, L): the weights of S output steps over L locations
// (StackWeights makes it from the steps' (B, L) nodes); steps s (B, S) marks
// the real output steps with 1 (padded steps with 0); locations m (B, L),
// or nil for all ones, marks the real locations, so padded memory frames,
// whose attention is always 0, add no constant. Softmax already makes each
// step's weights sum to 1 over the locations; P pushes each location's
// weights to also sum to about 1 over the steps, so that every region is
// attended to at some point, which Xu et al. found improves captions.
// Typical λ: 1.
func DoublyStochastic(weights, steps, locations *gorgonia.Node, lambda float64) (*gorgonia.Node, error) {
	if weights == nil || steps == nil {
		return nil, fmt.Errorf("attention: DoublyStochastic: nil weights or steps node: %w", ErrShape)
	}
	k := penaltyKernel{lambda: lambda, locations: locations != nil}
	in := []*gorgonia.Node{weights, steps}
	if locations != nil {
		in = append(in, locations)
	}
	shapes := make([]tensor.Shape, len(in))
	for i, n := range in {
		shapes[i] = n.Shape()
	}
	if _, err := k.OutputShape(shapes); err != nil {
		return nil, fmt.Errorf("attention: DoublyStochastic: %w", err)
	}
	p, err := models.Apply(k, in...)
	if err != nil {
		return nil, fmt.Errorf("attention: DoublyStochastic: %w", err)
	}
	s, err := gorgonia.Sum(p)
	if err != nil {
		return nil, fmt.Errorf("attention: DoublyStochastic: %w", err)
	}
	return s, nil
}

// StackWeights stacks the weights of S steps, each (B, L), into one
// (B, S, L) node for DoublyStochastic.
func StackWeights(steps []*gorgonia.Node) (*gorgonia.Node, error) {
	if len(steps) == 0 {
		return nil, fmt.Errorf("attention: StackWeights: no steps: %w", ErrShape)
	}
	s0 := steps[0].Shape()
	for i, n := range steps {
		if n == nil || n.Shape().Dims() != 2 || !n.Shape().Eq(s0) {
			return nil, fmt.Errorf("attention: StackWeights: step %d is not (B, L) like step 0 %v: %w", i, s0, ErrShape)
		}
	}
	flat := steps[0] // (B, S·L) after the concatenation
	if len(steps) > 1 {
		var err error
		if flat, err = models.Concat(1, steps...); err != nil {
			return nil, fmt.Errorf("attention: StackWeights: %w", err)
		}
	}
	out, err := gorgonia.Reshape(flat, tensor.Shape{s0[0], len(steps), s0[1]})
	if err != nil {
		return nil, fmt.Errorf("attention: StackWeights: %w", err)
	}
	return out, nil
}

// penaltyKernel computes DoublyStochastic's per-batch sum. Inputs: weights
// (B, S, L), steps (B, S) and, when locations is set, locations (B, L).
// Output (1). Only the weights are differentiated:
//
//	∂P/∂α_bti = −2λ·m_bi·s_bt·(1 − Σ_t' s_bt'·α_bt'i)
type penaltyKernel struct {
	lambda    float64
	locations bool
}

func (k penaltyKernel) Name() string {
	return fmt.Sprintf("attention.DoublyStochastic(λ=%g)", k.lambda)
}

func (k penaltyKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	n := 2
	if k.locations {
		n = 3
	}
	if len(in) != n || in[0].Dims() != 3 {
		return nil, fmt.Errorf("want weights (B, S, L), steps (B, S)%s; got %v: %w", map[bool]string{true: ", locations (B, L)"}[k.locations], in, ErrShape)
	}
	B, S, L := in[0][0], in[0][1], in[0][2]
	if !in[1].Eq(tensor.Shape{B, S}) {
		return nil, fmt.Errorf("steps %v, want (%d, %d): %w", in[1], B, S, ErrShape)
	}
	if k.locations && !in[2].Eq(tensor.Shape{B, L}) {
		return nil, fmt.Errorf("locations %v, want (%d, %d): %w", in[2], B, L, ErrShape)
	}
	return tensor.Shape{1}, nil
}

func (k penaltyKernel) Differentiable(n int) []bool { return []bool{true, false, false}[:n] }

func (k penaltyKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	s := in[0].Shape()
	if out.Dtype() == tensor.Float64 {
		penalty(data[float64](out), nil, 0, datas[float64](in), s[0], s[1], s[2], k.lambda)
	} else {
		penalty(data[float32](out), nil, 0, datas[float32](in), s[0], s[1], s[2], k.lambda)
	}
	return nil
}

func (k penaltyKernel) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error {
	s := in[0].Shape()
	if out.Dtype() == tensor.Float64 {
		penalty(nil, data[float64](dIn[0]), data[float64](dOut)[0], datas[float64](in), s[0], s[1], s[2], k.lambda)
	} else {
		penalty(nil, data[float32](dIn[0]), data[float32](dOut)[0], datas[float32](in), s[0], s[1], s[2], k.lambda)
	}
	return nil
}

// penalty writes the penalty into out[0] when out is set, and the weights'
// gradient (scaled by dOut) into dAlpha when it is set.
func penalty[F Float](out, dAlpha []F, dOut F, in [][]F, B, S, L int, lambda float64) {
	alpha, steps := in[0], in[1]
	var locs []F
	if len(in) > 2 {
		locs = in[2]
	}
	var total F
	lam := F(lambda)
	for b := 0; b < B; b++ {
		for i := 0; i < L; i++ {
			m := F(1)
			if locs != nil {
				m = locs[b*L+i]
			}
			var sum F
			for t := 0; t < S; t++ {
				sum += steps[b*S+t] * alpha[(b*S+t)*L+i]
			}
			r := 1 - sum
			total += lam * m * r * r
			if dAlpha != nil {
				for t := 0; t < S; t++ {
					dAlpha[(b*S+t)*L+i] = -2 * lam * m * steps[b*S+t] * r * dOut
				}
			}
		}
	}
	if out != nil {
		out[0] = total
	}
}
