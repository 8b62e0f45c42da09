package attention

import (
	"fmt"
	"math/rand/v2"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// HardMode says what a Hard attention step reads at inference. It is
// written in text (JSON, flags) as "expectation", "argmax" or "sample".
type HardMode int

const (
	// Expectation reads Σ_t α_t·k_t: soft attention with the same weights
	// (Xu et al. 2015 use it at test time, and for half the training
	// samples, to reduce variance). It is the zero value: deterministic,
	// and what the paper evaluates.
	Expectation HardMode = iota
	// Argmax reads the most likely entry.
	Argmax
	// Sample reads one entry drawn from α.
	Sample
)

var hardModeNames = [...]string{Expectation: "expectation", Argmax: "argmax", Sample: "sample"}

func (m HardMode) String() string {
	switch m {
	case Argmax:
		return "Argmax"
	case Expectation:
		return "Expectation"
	case Sample:
		return "Sample"
	}
	return fmt.Sprintf("HardMode(%d)", int(m))
}

// MarshalText writes the mode's lower-case name.
func (m HardMode) MarshalText() ([]byte, error) {
	if m < 0 || int(m) >= len(hardModeNames) {
		return nil, fmt.Errorf("attention: unknown hard attention mode %v: %w", m, ErrConfig)
	}
	return []byte(hardModeNames[m]), nil
}

// UnmarshalText reads a mode's lower-case name; "" is Expectation.
func (m *HardMode) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*m = Expectation
		return nil
	}
	for i, name := range hardModeNames {
		if string(b) == name {
			*m = HardMode(i)
			return nil
		}
	}
	return fmt.Errorf("attention: hard attention mode %q: want expectation, argmax or sample: %w", b, ErrConfig)
}

// Hard is stochastic hard attention (Xu et al. 2015, §4.1): the additive
// score gives a distribution α over the L locations, and a step reads one
// location s ~ α:
//
//	α = softmax(vᵀ·tanh(W·q + U·a_i + b)),   s ~ Multinoulli(α),   c = a_s
//
// Reading one location is not differentiable; the weights are trained by
// REINFORCE (see Reinforce and Baseline), the rest of the model by the
// usual gradient through c. The training graph (StepNode) always samples;
// the eager Step reads as HardOptions.Inference says. Weights holds α in
// both faces, Sample the location read.
//
// Hard attention makes a step read one region instead of averaging all of
// them, but its gradient estimate is noisy: train it longer, with the
// baseline and the entropy bonus, and prefer soft attention unless a
// single location per step is the point.
type Hard struct {
	name string
	core *additiveCore
	opts HardOptions
}

// HardOptions configures Hard; the zero value means the defaults.
type HardOptions struct {
	// Inference is what the eager Step reads: Expectation (the zero
	// value), Argmax or Sample.
	Inference HardMode
	// Rand draws the samples of training graphs and of Sample inference;
	// it is required for them. Steps that sample share it, so they must
	// not run concurrently.
	Rand *rand.Rand
}

// NewHard creates hard attention with the parameters of Additive:
// prefix.w (H, A), prefix.u (D, A), prefix.b (A), prefix.v (A). opts nil
// means the defaults.
func NewHard(ps *models.Params, prefix string, H, D, A int, opts *HardOptions) (*Hard, error) {
	var o HardOptions
	if opts != nil {
		o = *opts
	}
	switch o.Inference {
	case Argmax, Expectation:
	case Sample:
		if o.Rand == nil {
			return nil, fmt.Errorf("attention: Hard: Sample inference needs HardOptions.Rand: %w", ErrConfig)
		}
	default:
		return nil, fmt.Errorf("attention: Hard: unknown inference mode %v: %w", o.Inference, ErrConfig)
	}
	c, err := newAdditiveCore("Hard", ps, prefix, H, D, A, true, additiveSpec{})
	if err != nil {
		return nil, err
	}
	return &Hard{name: fmt.Sprintf("Hard(%s: H=%d,D=%d,A=%d,%v)", prefix, H, D, A, o.Inference), core: c, opts: o}, nil
}

// Name implements Mechanism.
func (m *Hard) Name() string { return m.name }

// Dims implements Mechanism.
func (m *Hard) Dims() Dims { return Dims{Query: m.core.H, Key: m.core.D, Context: m.core.D} }

// Prepare implements Mechanism: it computes U·a + b for every location.
func (m *Hard) Prepare(memory, mask []float32, B, T int) (*Keys, error) {
	return m.core.prepare(m, memory, mask, B, T)
}

// Step implements Mechanism. dst.Weights is α; dst.Sample the location
// read (−1 in Expectation mode and for all-padding rows); dst.Context that
// location's entry (zero for an all-padding row), or the expectation.
func (m *Hard) Step(dst *State, keys *Keys, query []float32, prev *State) error {
	if err := checkStep(m, dst, keys, query, prev); err != nil {
		return err
	}
	B, T, D := keys.B, keys.T, keys.D
	dst.resize(B, T, D)
	dst.Sample = grow(dst.Sample, B)
	m.core.weights(dst.Weights, keys, query, prev)
	if m.opts.Inference == Expectation {
		contextForward(dst.Context, dst.Weights, keys.Memory, B, 1, T, D, false)
		for b := range dst.Sample {
			dst.Sample[b] = -1
		}
	} else {
		for b := 0; b < B; b++ {
			s := pick(dst.Weights[b*T:(b+1)*T], m.opts.Inference, m.opts.Rand)
			dst.Sample[b] = s
			c := dst.Context[b*D : (b+1)*D]
			if s < 0 {
				clear(c)
				continue
			}
			copy(c, keys.Memory[(b*T+s)*D:(b*T+s+1)*D])
		}
	}
	dst.advance(prev)
	return nil
}

// PrepareNodes implements Mechanism: Proj is U·a + b (B, T, A).
func (m *Hard) PrepareNodes(b *models.Binding, memory, mask *gorgonia.Node) (KeysNodes, error) {
	return m.core.prepareNodes(m, b, memory, mask)
}

// StepNode implements Mechanism for training: Weights is α (B, T), Sample
// a one-hot draw from α (B, T) made anew on every run, and Context the
// drawn entry (B, D). The context passes gradient to the memory but not to
// α: pass Weights and Sample to Reinforce for that.
func (m *Hard) StepNode(b *models.Binding, keys KeysNodes, query *gorgonia.Node, prev StateNodes) (StateNodes, error) {
	if m.opts.Rand == nil {
		return StateNodes{}, fmt.Errorf("attention: %s: training graphs sample and need HardOptions.Rand: %w", m.name, ErrConfig)
	}
	alpha, err := m.core.weightsNode(m, b, keys, query, prev)
	if err != nil {
		return StateNodes{}, err
	}
	sample, err := apply(m, sampleKernel{mode: Sample, rng: m.opts.Rand}, alpha)
	if err != nil {
		return StateNodes{}, err
	}
	ctx, err := contextNode(m, contextKernel{heads: 1, alphaConst: true}, sample, keys)
	if err != nil {
		return StateNodes{}, err
	}
	return StateNodes{Context: ctx, Weights: alpha, Sample: sample}, nil
}

// Reinforce returns the scalar REINFORCE surrogate of one Hard attention
// step (Xu et al. 2015, eq. 12), summed over the batch:
//
//	L = Σ_b [ −(R_b − b)·log α_{b,s_b} − entropy·H(α_b) ]
//
// weights and sample are a Hard step's Weights and Sample (B, T), reward
// R (B) the reward of each row, typically the log-likelihood of its target
// sequence (a node of the same graph: no gradient flows into it), and
// baseline b (1), or (B) per row, usually a Baseline's Value bound each
// run. Adding L to the loss (summed over the steps of a sequence) gives
// α the REINFORCE gradient, lowered in variance by the baseline, plus an
// entropy bonus that keeps it from collapsing early (λ_H ≈ 0.01–0.1).
func Reinforce(weights, sample, reward, baseline *gorgonia.Node, entropy float64) (*gorgonia.Node, error) {
	for _, n := range []*gorgonia.Node{weights, sample, reward, baseline} {
		if n == nil {
			return nil, fmt.Errorf("attention: Reinforce: nil node: %w", ErrShape)
		}
	}
	if entropy < 0 {
		return nil, fmt.Errorf("attention: Reinforce: entropy weight %g, want ≥ 0: %w", entropy, ErrConfig)
	}
	k := reinforceKernel{entropy: entropy}
	if _, err := k.OutputShape([]tensor.Shape{weights.Shape(), sample.Shape(), reward.Shape(), baseline.Shape()}); err != nil {
		return nil, fmt.Errorf("attention: Reinforce: %w", err)
	}
	l, err := models.Apply(k, weights, sample, reward, baseline)
	if err != nil {
		return nil, fmt.Errorf("attention: Reinforce: %w", err)
	}
	s, err := gorgonia.Sum(l)
	if err != nil {
		return nil, fmt.Errorf("attention: Reinforce: %w", err)
	}
	return s, nil
}

// Baseline is the moving-average reward baseline of Xu et al. (2015,
// §4.1): after each batch, b ← Decay·b + (1 − Decay)·R̄. Subtracting it from
// the reward centers REINFORCE's gradient estimate and lowers its
// variance. The zero Baseline starts at 0 with Decay 0.9.
type Baseline struct {
	Value float64 // b
	Decay float64 // 0 means 0.9
}

// Update folds a batch's mean reward into the baseline.
func (b *Baseline) Update(meanReward float64) {
	d := b.Decay
	if d == 0 {
		d = 0.9
	}
	b.Value = d*b.Value + (1-d)*meanReward
}
