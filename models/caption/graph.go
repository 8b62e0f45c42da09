package caption

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Trainer holds what training adds to a Model: the random generator of
// dropout masks, hard-attention samples and expectation draws, and hard
// attention's reward baseline. Its BuildLoss builds the graphs of
// models.Buckets, and Run feeds and runs one:
//
//	tr := caption.NewTrainer(m, seed)
//	buckets := models.NewBuckets(m.Params, tr.BuildLoss)
//	opt := models.NewAdam(m.Params, nil)
//	key := caption.KeyFor(exs, 4)
//	bt, err := m.MakeBatch(key, exs)
//	gr, err := buckets.Get(key)
//	loss, err := tr.Run(gr, bt)
//	_, err = opt.Step()
//
// A model has at most one Trainer (the Trainer supplies its hard-attention
// sampler); training runs on one goroutine.
type Trainer struct {
	Model *Model
	// Rand draws dropout masks, hard-attention samples and which
	// captions read the expectation; seeded by NewTrainer.
	Rand *rand.Rand
	// Baseline is hard attention's moving-average reward baseline r̄, in
	// nats per token; it starts at −log V, the reward of a uniform
	// decoder. Save it with a checkpoint to resume exactly.
	Baseline attention.Baseline

	dropout *models.Dropout
}

// NewTrainer returns a trainer for m whose randomness comes from seed.
func NewTrainer(m *Model, seed uint64) *Trainer {
	rng := rand.New(rand.NewPCG(seed, 0x7a1))
	m.sampler.src = rng
	return &Trainer{
		Model:    m,
		Rand:     rng,
		Baseline: attention.Baseline{Value: -math.Log(float64(m.Config.Vocab)), Decay: m.Config.Hard.BaselineDecay},
		dropout:  &models.Dropout{P: m.Config.Dropout, Rng: rng},
	}
}

// Inputs are a training graph's input nodes, fed by Trainer.Run.
type Inputs struct {
	Key      BatchKey
	Features *gorgonia.Node // (B, L, D)
	Prev     *gorgonia.Node // (S, B)
	Targets  *gorgonia.Node // (S·B)
	Weights  *gorgonia.Node // (S·B)
	Steps    *gorgonia.Node // (B, S)
	Norm     *gorgonia.Node // scalar 1/N: scales the penalty
	// Hard attention only (nil for soft):
	Mix       *gorgonia.Node // (B): 1 for a caption that reads the expectation, 0 for one that samples
	Reinforce *gorgonia.Node // (B, S): each step's REINFORCE weight, (1 − mix_b)·step_bt/N
	Baseline  *gorgonia.Node // (1): r̄

	crossEntropy, penalty, reinforce, reward gorgonia.Value // read out after a run
}

// Loss is one batch's loss and its parts, each per target token.
type Loss struct {
	Total        float64 // what the gradients are of: the sum of the three parts below
	CrossEntropy float64 // −(1/N)·Σ log p(y_t), label-smoothed
	Penalty      float64 // (λ/N)·Σ_b Σ_i (1 − Σ_t α_bti)²
	Reinforce    float64 // the REINFORCE surrogate with the entropy bonus (hard attention)
	// Reward is the mean per-token log-likelihood of the captions that
	// sampled their attention (hard attention), the baseline's input.
	Reward float64
}

// BuildLoss adds the training graph of one batch shape to g; it is a
// models.BuildFunc for models.NewBuckets. The loss is
//
//	L = (1/N)·[ Σ_t CE(y_t) + λ·Σ_b Σ_i (1 − Σ_t α_bti)² ] (+ REINFORCE)
//
// that is, the per-caption cost of Xu et al. (eq. 14) summed over the batch
// and divided by its N target tokens. For hard attention each caption either
// reads the expectation (probability HardConfig.ExpectationMix) or samples
// one region per step, and the sampling captions add
//
//	(1/N)·Σ_t [ −(R_b − r̄)·log α_t,s_t − λ_e·H(α_t) ]
//
// where R_b is the caption's mean per-token log-likelihood (see
// rewardKernel) and r̄ the Trainer's Baseline.
func (tr *Trainer) BuildLoss(g *gorgonia.ExprGraph, b *models.Binding, key BatchKey) (*gorgonia.Node, *Inputs, error) {
	m := tr.Model
	cfg := m.Config
	B, S := key.B, key.S
	if B < 1 || S < 1 {
		return nil, nil, fmt.Errorf("%w: batch key %+v, want B, S ≥ 1", ErrInput, key)
	}
	dt := m.Params.Dtype()
	hard := cfg.Attention == Hard
	in := &Inputs{
		Key:      key,
		Features: gorgonia.NewTensor(g, dt, 3, gorgonia.WithShape(B, cfg.Regions, cfg.FeatureDim), gorgonia.WithName("features")),
		Prev:     gorgonia.NewMatrix(g, dt, gorgonia.WithShape(S, B), gorgonia.WithName("prev")),
		Targets:  gorgonia.NewVector(g, dt, gorgonia.WithShape(S*B), gorgonia.WithName("targets")),
		Weights:  gorgonia.NewVector(g, dt, gorgonia.WithShape(S*B), gorgonia.WithName("weights")),
		Steps:    gorgonia.NewMatrix(g, dt, gorgonia.WithShape(B, S), gorgonia.WithName("steps")),
		Norm:     gorgonia.NewScalar(g, dt, gorgonia.WithName("norm")),
	}
	if hard {
		in.Mix = gorgonia.NewVector(g, dt, gorgonia.WithShape(B), gorgonia.WithName("mix"))
		in.Reinforce = gorgonia.NewMatrix(g, dt, gorgonia.WithShape(B, S), gorgonia.WithName("reinforce"))
		in.Baseline = gorgonia.NewVector(g, dt, gorgonia.WithShape(1), gorgonia.WithName("baseline"))
	}
	u, err := tr.unroll(b, in)
	if err != nil {
		return nil, nil, fmt.Errorf("caption: building graph %+v: %w", key, err)
	}
	loss, err := tr.loss(in, u)
	if err != nil {
		return nil, nil, fmt.Errorf("caption: building graph %+v: %w", key, err)
	}
	return loss, in, nil
}

// unrolled is the teacher-forced decoder in a graph.
type unrolled struct {
	logits  *gorgonia.Node   // (S·B, V)
	weights []*gorgonia.Node // S × (B, L): α_t
	samples []*gorgonia.Node // S × (B, L): one-hot samples (hard attention)
}

// unroll adds the decoder, teacher-forced over S steps (Xu et al. §3.1.2):
//
//	h₀, c₀ = tanh(f_init,h(ā)), tanh(f_init,c(ā))        ā = (1/L)·Σ_i a_i
//	α_t    = softmax(vᵀ·tanh(W·h_{t−1} + U·a_i + b))     (B, L)
//	z_t    = β_t·Σ_i α_ti·a_i,  β_t = σ(f_β(h_{t−1}))     (B, D)
//	         (adaptive: z_t = ĉ_t of the sentinel, see doc.go)
//	h_t    = LSTM([E·y_{t−1}; z_t], h_{t−1}, c_{t−1})     (B, H)
//	logits = L_o·tanh(E·y_{t−1} + L_h·h_t + L_z·z_t)      (S·B, V)
//
// with dropout on h_t and on the deep output in training.
func (tr *Trainer) unroll(b *models.Binding, in *Inputs) (*unrolled, error) {
	m := tr.Model
	cfg := m.Config
	B, S, H, E := in.Key.B, in.Key.S, cfg.Hidden, cfg.Embed
	keys, err := m.Attention.PrepareNodes(b, in.Features, nil) // U·a_i + b: (B, L, A)
	if err != nil {
		return nil, err
	}
	state, h, err := m.initialState(b, in.Features) // (B, 2H), (B, H)
	if err != nil {
		return nil, err
	}
	emb, err := m.Embedding.Apply(b, in.Prev) // (S, B, E)
	if err != nil {
		return nil, err
	}
	u := &unrolled{}
	hs := make([]*gorgonia.Node, S)
	zs := make([]*gorgonia.Node, S)
	var att attention.StateNodes
	for t := 0; t < S; t++ {
		fail := func(err error) (*unrolled, error) { return nil, fmt.Errorf("step %d: %w", t, err) }
		e, err := models.Select(emb, 0, t) // E·y_{t−1} (B, E)
		if err != nil {
			return fail(err)
		}
		query := h // h_{t−1} (B, H)
		if m.Sentinel != nil {
			if query, err = m.sentinelQueryNode(b, e, h, state); err != nil { // [h_{t−1} | s_t] (B, 2H)
				return fail(err)
			}
		}
		if att, err = m.Attention.StepNode(b, keys, query, att); err != nil { // α_t from h_{t−1}
			return fail(err)
		}
		z := att.Context // (B, D)
		if att.Sample != nil {
			if z, err = models.Apply(hardContextKernel{}, att.Weights, att.Sample, in.Mix, in.Features); err != nil {
				return fail(err)
			}
			u.samples = append(u.samples, att.Sample)
		}
		u.weights = append(u.weights, att.Weights)
		if m.Gate != nil {
			if z, err = m.Gate.Node(b, z, h); err != nil { // β_t·z from h_{t−1}
				return fail(err)
			}
		}
		x, err := models.Concat(1, e, z) // (B, E+D)
		if err != nil {
			return fail(err)
		}
		if state, err = m.LSTM.ApplyStep(b, x, state); err != nil { // (B, 2H)
			return fail(err)
		}
		if h, err = models.Slice(state, 1, 0, H); err != nil { // h_t (B, H)
			return fail(err)
		}
		hs[t], zs[t] = h, z
	}
	allH, err := concatSteps(hs) // (S·B, H)
	if err != nil {
		return nil, err
	}
	allZ, err := concatSteps(zs) // (S·B, D)
	if err != nil {
		return nil, err
	}
	if allH, err = tr.drop(allH); err != nil {
		return nil, err
	}
	lh, err := m.OutH.Apply(b, allH) // L_h·h_t + bias (S·B, E)
	if err != nil {
		return nil, err
	}
	lz, err := m.OutZ.Apply(b, allZ) // L_z·z_t (S·B, E)
	if err != nil {
		return nil, err
	}
	ey, err := gorgonia.Reshape(emb, tensor.Shape{S * B, E}) // E·y_{t−1}
	if err != nil {
		return nil, err
	}
	deep, err := models.Apply(tanhSumKernel{}, lh, ey, lz) // (S·B, E)
	if err != nil {
		return nil, err
	}
	if deep, err = tr.drop(deep); err != nil {
		return nil, err
	}
	if u.logits, err = m.Output.Apply(b, deep); err != nil { // (S·B, V)
		return nil, err
	}
	return u, nil
}

// sentinelQueryNode adds adaptive attention's query [h_{t−1} | s_t] (B, 2H):
// the visual sentinel s_t = σ([E·y_{t−1}; h_{t−1}]·W_s + b_s) ⊙ tanh(c_{t−1})
// beside the state, from the word embedding e (B, E), h_{t−1} (B, H) and
// the LSTM state [h_{t−1} | c_{t−1}] (B, 2H).
func (m *Model) sentinelQueryNode(b *models.Binding, e, h, state *gorgonia.Node) (*gorgonia.Node, error) {
	eh, err := models.Concat(1, e, h) // (B, E+H)
	if err != nil {
		return nil, err
	}
	pre, err := m.Sentinel.Apply(b, eh) // (B, H)
	if err != nil {
		return nil, err
	}
	s, err := models.Apply(sentinelKernel{}, pre, state) // s_t (B, H)
	if err != nil {
		return nil, err
	}
	return models.Concat(1, h, s)
}

// initialState adds h₀ and c₀, packed as the LSTM state [h₀ | c₀] (B, 2H),
// and h₀ (B, H) on its own.
func (m *Model) initialState(b *models.Binding, features *gorgonia.Node) (state, h0 *gorgonia.Node, err error) {
	mean, err := models.Apply(meanKernel{}, features) // ā (B, D)
	if err != nil {
		return nil, nil, err
	}
	half := func(l *models.Linear) (*gorgonia.Node, error) {
		pre, err := l.Apply(b, mean)
		if err != nil {
			return nil, err
		}
		return models.Apply(tanhSumKernel{}, pre)
	}
	if h0, err = half(m.InitH); err != nil {
		return nil, nil, err
	}
	c0, err := half(m.InitC)
	if err != nil {
		return nil, nil, err
	}
	if state, err = models.Concat(1, h0, c0); err != nil {
		return nil, nil, err
	}
	return state, h0, nil
}

// concatSteps stacks S step nodes (B, W) into one (S·B, W), step-major.
func concatSteps(steps []*gorgonia.Node) (*gorgonia.Node, error) {
	if len(steps) == 1 {
		return steps[0], nil
	}
	return models.Concat(0, steps...)
}

// drop adds dropout when the config asks for it.
func (tr *Trainer) drop(x *gorgonia.Node) (*gorgonia.Node, error) {
	if tr.dropout.P == 0 {
		return x, nil
	}
	return tr.dropout.Apply(x)
}

// loss adds the cross-entropy, the doubly stochastic penalty and, for hard
// attention, the REINFORCE surrogate, and the read-outs of each part.
func (tr *Trainer) loss(in *Inputs, u *unrolled) (*gorgonia.Node, error) {
	cfg := tr.Model.Config
	loss, err := models.CrossEntropy(u.logits, in.Targets, in.Weights, cfg.LabelSmoothing)
	if err != nil {
		return nil, err
	}
	gorgonia.Read(loss, &in.crossEntropy)
	var alphas *gorgonia.Node // (B, S, L)
	if cfg.DoublyStochastic > 0 || u.samples != nil {
		if alphas, err = attention.StackWeights(u.weights); err != nil {
			return nil, err
		}
	}
	add := func(part *gorgonia.Node) error {
		var err error
		loss, err = gorgonia.Add(loss, part)
		return err
	}
	if cfg.DoublyStochastic > 0 {
		p, err := attention.DoublyStochastic(alphas, in.Steps, nil, cfg.DoublyStochastic)
		if err != nil {
			return nil, err
		}
		if p, err = gorgonia.Mul(p, in.Norm); err != nil {
			return nil, err
		}
		gorgonia.Read(p, &in.penalty)
		if err := add(p); err != nil {
			return nil, err
		}
	}
	if u.samples == nil {
		return loss, nil
	}
	samples, err := attention.StackWeights(u.samples)
	if err != nil {
		return nil, err
	}
	reward, err := models.Apply(&rewardKernel{B: in.Key.B}, u.logits, in.Targets) // (B)
	if err != nil {
		return nil, err
	}
	gorgonia.Read(reward, &in.reward)
	r, err := models.Apply(reinforceKernel{entropy: cfg.Hard.Entropy}, alphas, samples, in.Reinforce, reward, in.Baseline)
	if err != nil {
		return nil, err
	}
	if r, err = gorgonia.Sum(r); err != nil {
		return nil, err
	}
	gorgonia.Read(r, &in.reinforce)
	if err := add(r); err != nil {
		return nil, err
	}
	return loss, nil
}

// Run feeds bt to gr (built by BuildLoss for bt.Key), runs it, which adds
// the gradients into the model's parameters, and returns the loss. For
// hard attention it draws which captions read the expectation and, after
// the run, folds the sampling captions' mean reward into the Baseline.
func (tr *Trainer) Run(gr *models.Graph[*Inputs], bt *Batch) (Loss, error) {
	in := gr.Inputs
	if bt.Key != in.Key {
		return Loss{}, fmt.Errorf("%w: Run: batch of key %+v on a graph of key %+v", ErrInput, bt.Key, in.Key)
	}
	if bt.Tokens < 1 {
		return Loss{}, fmt.Errorf("%w: Run: batch has no target tokens", ErrInput)
	}
	dt := tr.Model.Params.Dtype()
	B, S := bt.Key.B, bt.Key.S
	cfg := tr.Model.Config
	norm := 1 / float64(max(bt.Norm, bt.Tokens))
	feeds := []struct {
		n *gorgonia.Node
		v gorgonia.Value
	}{
		{in.Features, models.FloatTensor(dt, bt.Features, B, cfg.Regions, cfg.FeatureDim)},
		{in.Prev, models.IntTensor(dt, bt.Prev, S, B)},
		{in.Targets, models.IntTensor(dt, bt.Targets, S*B)},
		{in.Weights, models.FloatTensor(dt, bt.Weights, S*B)},
		{in.Steps, models.FloatTensor(dt, bt.Steps, B, S)},
		{in.Norm, scalar(dt, norm)},
	}
	var sampled []bool
	if in.Mix != nil {
		mix := make([]float32, B)
		weights := make([]float32, B*S)
		sampled = make([]bool, B)
		for b := range mix {
			if tr.Rand.Float64() < cfg.Hard.ExpectationMix {
				mix[b] = 1
				continue
			}
			sampled[b] = true
			for t := range S {
				weights[b*S+t] = bt.Steps[b*S+t] * float32(norm)
			}
		}
		feeds = append(feeds, []struct {
			n *gorgonia.Node
			v gorgonia.Value
		}{
			{in.Mix, models.FloatTensor(dt, mix, B)},
			{in.Reinforce, models.FloatTensor(dt, weights, B, S)},
			{in.Baseline, models.FloatTensor(dt, []float32{float32(tr.Baseline.Value)}, 1)},
		}...)
	}
	for _, f := range feeds {
		if err := gorgonia.Let(f.n, f.v); err != nil {
			return Loss{}, fmt.Errorf("caption: feeding %s: %w", f.n.Name(), err)
		}
	}
	total, err := gr.Run()
	if err != nil {
		return Loss{}, fmt.Errorf("caption: %w", err)
	}
	l := Loss{Total: total, CrossEntropy: scalarOf(in.crossEntropy), Penalty: scalarOf(in.penalty), Reinforce: scalarOf(in.reinforce)}
	if sampled != nil {
		rewards := floatsOf(in.reward)
		n := 0
		for b, s := range sampled {
			if s && b < len(rewards) {
				l.Reward += rewards[b]
				n++
			}
		}
		if n > 0 {
			l.Reward /= float64(n)
			tr.Baseline.Update(l.Reward)
		}
	}
	return l, nil
}

// scalar wraps v as a gorgonia scalar of dtype dt.
func scalar(dt tensor.Dtype, v float64) gorgonia.Value {
	if dt == tensor.Float64 {
		return gorgonia.NewF64(v)
	}
	return gorgonia.NewF32(float32(v))
}

// scalarOf returns a read-out scalar or one-element tensor (0 for none).
func scalarOf(v gorgonia.Value) float64 {
	if f := floatsOf(v); len(f) > 0 {
		return f[0]
	}
	return 0
}

// floatsOf returns a read-out value as float64s (nil for none).
func floatsOf(v gorgonia.Value) []float64 {
	if v == nil {
		return nil
	}
	switch d := v.Data().(type) {
	case float32:
		return []float64{float64(d)}
	case float64:
		return []float64{d}
	case []float32:
		out := make([]float64, len(d))
		for i, x := range d {
			out[i] = float64(x)
		}
		return out
	case []float64:
		return append([]float64(nil), d...)
	}
	return nil
}
