package attention

import (
	"fmt"
	"math/rand/v2"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

// sampleKernel turns weights α (B, T) into a one-hot (B, T): a position
// drawn from α (Sample) or its most likely position (Argmax). A row of
// all-zero weights (all padding) gives an all-zero row. It has no gradient:
// Hard attention trains its weights with REINFORCE (reinforceKernel).
// Each Forward draws anew, so every run of a training graph samples.
type sampleKernel struct {
	mode HardMode
	rng  *rand.Rand
}

func (k sampleKernel) Name() string { return fmt.Sprintf("attention.Sample(%v)", k.mode) }

func (sampleKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 || in[0].Dims() != 2 {
		return nil, fmt.Errorf("want weights (B, T); got %v: %w", in, ErrShape)
	}
	return in[0].Clone(), nil
}

func (sampleKernel) Differentiable(int) []bool { return []bool{false} }

func (k sampleKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	s := in[0].Shape()
	if out.Dtype() == tensor.Float64 {
		oneHot(data[float64](out), data[float64](in[0]), s[0], s[1], k.mode, k.rng)
	} else {
		oneHot(data[float32](out), data[float32](in[0]), s[0], s[1], k.mode, k.rng)
	}
	return nil
}

func (sampleKernel) Backward([]*tensor.Dense, *tensor.Dense, *tensor.Dense, []*tensor.Dense) error {
	return nil // no differentiable input
}

// oneHot writes the one-hot rows of the positions pick chooses.
func oneHot[F Float](out, alpha []F, B, T int, mode HardMode, rng *rand.Rand) {
	clear(out)
	for b := 0; b < B; b++ {
		if t := pick(alpha[b*T:(b+1)*T], mode, rng); t >= 0 {
			out[b*T+t] = 1
		}
	}
}

// pick returns the position of a row of weights that mode chooses: a draw
// from the weights (one rng.Float64 per row with positive total weight) or
// the first largest one; −1 for a row without positive weight.
func pick[F Float](alpha []F, mode HardMode, rng *rand.Rand) int {
	var total F
	best, at := F(0), -1
	for t, a := range alpha {
		if a > 0 {
			total += a
			if a > best {
				best, at = a, t
			}
		}
	}
	if at < 0 || mode != Sample {
		return at
	}
	u := F(rng.Float64()) * total
	var run F
	last := at
	for t, a := range alpha {
		if a <= 0 {
			continue
		}
		run += a
		last = t
		if u < run {
			return t
		}
	}
	return last // u rounded up to the total
}

// reinforceKernel is the REINFORCE surrogate of Hard attention (Williams
// 1992; Xu et al. 2015, §4.1, eq. 12), summed over the batch:
//
//	L = Σ_b [ −(R_b − b)·log α_{b,s_b} − λ_H·H(α_b) ],   H(α) = −Σ_t α_t·log α_t
//
// Its gradient is the REINFORCE estimate plus the entropy bonus; through
// the softmax it is ∂L/∂e_t = −(R − b)·(δ_{t,s} − α_t) + λ_H·α_t·(log α_t + H).
// Inputs: α (B, T) (differentiable), the one-hot sample (B, T), the reward
// R (B) and the baseline b (1) or per row (B), none of them differentiated.
// Output (1).
type reinforceKernel struct {
	entropy float64 // λ_H
}

// minProb keeps log α finite for a probability that underflowed to 0.
const minProb = 1e-30

func (k reinforceKernel) Name() string { return fmt.Sprintf("attention.Reinforce(λH=%g)", k.entropy) }

func (reinforceKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 4 || in[0].Dims() != 2 {
		return nil, fmt.Errorf("want weights (B, T), sample (B, T), reward (B), baseline (1) or (B); got %v: %w", in, ErrShape)
	}
	B := in[0][0]
	if !in[1].Eq(in[0]) || !in[2].Eq(tensor.Shape{B}) || !(in[3].Eq(tensor.Shape{1}) || in[3].Eq(tensor.Shape{B})) {
		return nil, fmt.Errorf("want weights (B, T), sample (B, T), reward (B), baseline (1) or (B); got %v: %w", in, ErrShape)
	}
	return tensor.Shape{1}, nil
}

func (reinforceKernel) Differentiable(int) []bool { return []bool{true, false, false, false} }

func (k reinforceKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	s := in[0].Shape()
	if out.Dtype() == tensor.Float64 {
		data[float64](out)[0] = reinforceLoss(datas[float64](in), s[0], s[1], k.entropy)
	} else {
		data[float32](out)[0] = reinforceLoss(datas[float32](in), s[0], s[1], k.entropy)
	}
	return nil
}

func (k reinforceKernel) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error {
	s := in[0].Shape()
	if out.Dtype() == tensor.Float64 {
		reinforceGrad(data[float64](dIn[0]), data[float64](dOut)[0], datas[float64](in), s[0], s[1], k.entropy)
	} else {
		reinforceGrad(data[float32](dIn[0]), data[float32](dOut)[0], datas[float32](in), s[0], s[1], k.entropy)
	}
	return nil
}

// advantage returns R_b − b for row b.
func advantage[F Float](reward, baseline []F, b int) F {
	if len(baseline) == 1 {
		return reward[b] - baseline[0]
	}
	return reward[b] - baseline[b]
}

func reinforceLoss[F Float](in [][]F, B, T int, lambda float64) F {
	alpha, sample, reward, baseline := in[0], in[1], in[2], in[3]
	var loss F
	for b := 0; b < B; b++ {
		adv := advantage(reward, baseline, b)
		var logp, ent F
		for t, a := range alpha[b*T : (b+1)*T] {
			if a <= 0 && sample[b*T+t] == 0 {
				continue
			}
			la := models.Log(max(a, minProb))
			logp += sample[b*T+t] * la
			if a > 0 {
				ent -= a * la
			}
		}
		loss += -adv*logp - F(lambda)*ent
	}
	return loss
}

func reinforceGrad[F Float](dAlpha []F, dOut F, in [][]F, B, T int, lambda float64) {
	alpha, sample, reward, baseline := in[0], in[1], in[2], in[3]
	for b := 0; b < B; b++ {
		adv := advantage(reward, baseline, b)
		for t, a := range alpha[b*T : (b+1)*T] {
			i := b*T + t
			var g F
			if s := sample[i]; s != 0 {
				g -= adv * s / max(a, minProb)
			}
			if a > 0 {
				g += F(lambda) * (models.Log(a) + 1)
			}
			dAlpha[i] = dOut * g
		}
	}
}
