package caption

import (
	"fmt"
	"math"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

// hardContextKernel is the context of a hard-attention training step with
// Xu et al.'s mix of sampled and expected attention (§4.1): row b reads
//
//	z_b = Σ_i w_bi·a_bi,   w_b = m_b·α_b + (1 − m_b)·s_b
//
// where α (B, L) are the attention weights, s (B, L) a one-hot sample
// drawn from them, and m (B) is 1 for a caption that reads the
// expectation and 0 for one that reads its sample. The expectation passes
// gradient to α; a sample does not (REINFORCE trains α there, see
// reinforceKernel). Inputs: α, s, m, a (B, L, D); only α is
// differentiated (the annotations are inputs). Output (B, D).
type hardContextKernel struct{}

func (hardContextKernel) Name() string { return "caption.HardContext" }

func (hardContextKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 4 || in[0].Dims() != 2 || in[3].Dims() != 3 {
		return nil, fmt.Errorf("want weights (B, L), sample (B, L), mix (B), annotations (B, L, D); got %v", in)
	}
	B, L := in[0][0], in[0][1]
	if !in[1].Eq(in[0]) || !in[2].Eq(tensor.Shape{B}) || in[3][0] != B || in[3][1] != L {
		return nil, fmt.Errorf("want weights (B, L), sample (B, L), mix (B), annotations (B, L, D); got %v", in)
	}
	return tensor.Shape{B, in[3][2]}, nil
}

func (hardContextKernel) Differentiable(int) []bool { return []bool{true, false, false, false} }

func (hardContextKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	s := in[3].Shape()
	if is64(out) {
		hardContext(floats[float64](out), inputs[float64](in), s[0], s[1], s[2])
	} else {
		hardContext(floats[float32](out), inputs[float32](in), s[0], s[1], s[2])
	}
	return nil
}

func (hardContextKernel) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error {
	s := in[3].Shape()
	if is64(out) {
		hardContextBackward(floats[float64](dIn[0]), floats[float64](dOut), inputs[float64](in), s[0], s[1], s[2])
	} else {
		hardContextBackward(floats[float32](dIn[0]), floats[float32](dOut), inputs[float32](in), s[0], s[1], s[2])
	}
	return nil
}

// mixed returns the weight row b reads region i with.
func mixed[F models.Float](alpha, sample, mix []F, b, i, L int) F {
	m := mix[b]
	return m*alpha[b*L+i] + (1-m)*sample[b*L+i]
}

func hardContext[F models.Float](z []F, in [][]F, B, L, D int) {
	alpha, sample, mix, a := in[0], in[1], in[2], in[3]
	clear(z)
	for b := 0; b < B; b++ {
		row := z[b*D : (b+1)*D]
		for i := 0; i < L; i++ {
			w := mixed(alpha, sample, mix, b, i, L)
			if w == 0 {
				continue
			}
			for d, x := range a[(b*L+i)*D : (b*L+i+1)*D] {
				row[d] += w * x
			}
		}
	}
}

// hardContextBackward writes ∂L/∂α_bi = m_b·⟨∂L/∂z_b, a_bi⟩.
func hardContextBackward[F models.Float](dAlpha, dz []F, in [][]F, B, L, D int) {
	mix, a := in[2], in[3]
	for b := 0; b < B; b++ {
		g := dz[b*D : (b+1)*D]
		for i := 0; i < L; i++ {
			var dot F
			if mix[b] != 0 {
				for d, x := range a[(b*L+i)*D : (b*L+i+1)*D] {
					dot += g[d] * x
				}
			}
			dAlpha[b*L+i] = mix[b] * dot
		}
	}
}

// minProb keeps log α finite for a weight that underflowed to 0.
const minProb = 1e-30

// reinforceKernel is the REINFORCE surrogate of every hard-attention step
// of a batch (Williams 1992; Xu et al. 2015, eq. 12), with an entropy
// bonus:
//
//	L = Σ_b Σ_t w_bt·[ −(R_b − r̄)·log α_bt,s_bt − λ_e·H(α_bt) ]
//
// α (B, S, L) are the steps' weights, s (B, S, L) their one-hot samples,
// w (B, S) the weight of each step (0 on padded steps and on captions that
// read the expectation, 1/N otherwise for N target tokens), R (B) the
// reward of each caption and r̄ (1) the baseline. Its gradient is the
// REINFORCE estimate of ∂(−E[R])/∂α, less the entropy's gradient; only α
// is differentiated. Output (1).
//
// attention.Reinforce computes one step's surrogate for every row of a
// batch; this kernel adds the per-step weights, so that padded steps and
// expectation captions get neither the REINFORCE term nor the entropy
// bonus, and does all steps in one node.
type reinforceKernel struct {
	entropy float64 // λ_e
}

func (k reinforceKernel) Name() string { return fmt.Sprintf("caption.Reinforce(λe=%g)", k.entropy) }

func (reinforceKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	const want = "want weights (B, S, L), samples (B, S, L), step weights (B, S), reward (B), baseline (1)"
	if len(in) != 5 || in[0].Dims() != 3 {
		return nil, fmt.Errorf("%s; got %v", want, in)
	}
	B, S := in[0][0], in[0][1]
	if !in[1].Eq(in[0]) || !in[2].Eq(tensor.Shape{B, S}) || !in[3].Eq(tensor.Shape{B}) || !in[4].Eq(tensor.Shape{1}) {
		return nil, fmt.Errorf("%s; got %v", want, in)
	}
	return tensor.Shape{1}, nil
}

func (reinforceKernel) Differentiable(int) []bool { return []bool{true, false, false, false, false} }

func (k reinforceKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	s := in[0].Shape()
	if is64(out) {
		floats[float64](out)[0] = reinforce(nil, 0, inputs[float64](in), s[0], s[1], s[2], k.entropy)
	} else {
		floats[float32](out)[0] = reinforce(nil, 0, inputs[float32](in), s[0], s[1], s[2], k.entropy)
	}
	return nil
}

func (k reinforceKernel) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error {
	s := in[0].Shape()
	if is64(out) {
		reinforce(floats[float64](dIn[0]), floats[float64](dOut)[0], inputs[float64](in), s[0], s[1], s[2], k.entropy)
	} else {
		reinforce(floats[float32](dIn[0]), floats[float32](dOut)[0], inputs[float32](in), s[0], s[1], s[2], k.entropy)
	}
	return nil
}

// reinforce returns the surrogate and, when dAlpha is set, writes its
// gradient scaled by g into dAlpha.
func reinforce[F models.Float](dAlpha []F, g F, in [][]F, B, S, L int, entropy float64) F {
	alpha, sample, w, reward, baseline := in[0], in[1], in[2], in[3], in[4][0]
	lam := F(entropy)
	var loss F
	for b := 0; b < B; b++ {
		adv := reward[b] - baseline
		for t := 0; t < S; t++ {
			r := (b*S + t) * L
			wt := w[b*S+t]
			if wt == 0 {
				if dAlpha != nil {
					clear(dAlpha[r : r+L])
				}
				continue
			}
			var logp, ent F
			for i, a := range alpha[r : r+L] {
				la := models.Log(max(a, minProb))
				logp += sample[r+i] * la
				if a > 0 {
					ent -= a * la
				}
				if dAlpha != nil {
					var d F
					if s := sample[r+i]; s != 0 {
						d -= adv * s / max(a, minProb)
					}
					if a > 0 {
						d += lam * (la + 1)
					}
					dAlpha[r+i] = g * wt * d
				}
			}
			loss += wt * (-adv*logp - lam*ent)
		}
	}
	return loss
}

// rewardKernel computes each caption's reward for REINFORCE: the mean
// log-probability of its target tokens,
//
//	R_b = (1/n_b)·Σ_t log p(y_bt | s, a)
//
// from the logits (S·B, V) and the step-major targets (S·B) (PadID past
// the end). Xu et al. reward log p(y | s, a), the sum; the mean keeps the
// caption's length out of the advantage R − r̄, which a single baseline
// could not remove. No gradient flows into the reward. Output (B).
type rewardKernel struct {
	B       int
	targets []int
}

func (k *rewardKernel) Name() string { return fmt.Sprintf("caption.Reward(B=%d)", k.B) }

func (k *rewardKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 2 || in[0].Dims() != 2 || !in[1].Eq(tensor.Shape{in[0][0]}) || in[0][0]%k.B != 0 {
		return nil, fmt.Errorf("want logits (S·%d, V) and targets (S·%d); got %v", k.B, k.B, in)
	}
	return tensor.Shape{k.B}, nil
}

func (*rewardKernel) Differentiable(int) []bool { return []bool{false, false} }

func (k *rewardKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	V := in[0].Shape()[1]
	if is64(out) {
		return meanLogProb(k, floats[float64](out), floats[float64](in[0]), floats[float64](in[1]), V)
	}
	return meanLogProb(k, floats[float32](out), floats[float32](in[0]), floats[float32](in[1]), V)
}

func meanLogProb[F models.Float](k *rewardKernel, out, logits, targets []F, V int) error {
	k.targets = k.targets[:0]
	for i, t := range targets {
		id := int(t)
		if F(id) != t || id < models.PadID || id >= V {
			return fmt.Errorf("%w: target %d is %v, want a token id below %d or PadID", ErrInput, i, t, V)
		}
		k.targets = append(k.targets, id)
	}
	counts := make([]int, k.B)
	clear(out)
	for n, t := range k.targets {
		if t == models.PadID {
			continue
		}
		row := logits[n*V : (n+1)*V]
		out[n%k.B] += F(float64(row[t]) - logSumExp(row))
		counts[n%k.B]++
	}
	for b, c := range counts {
		if c > 0 {
			out[b] /= F(c)
		}
	}
	return nil
}

func (*rewardKernel) Backward([]*tensor.Dense, *tensor.Dense, *tensor.Dense, []*tensor.Dense) error {
	return nil // no differentiable input
}

// logSumExp returns log Σ exp(x) without overflow, in float64.
func logSumExp[F models.Float](x []F) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = math.Max(m, float64(v))
	}
	if math.IsInf(m, 0) {
		return m
	}
	var s float64
	for _, v := range x {
		s += math.Exp(float64(v) - m)
	}
	return m + math.Log(s)
}
