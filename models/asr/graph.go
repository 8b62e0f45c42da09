package asr

import (
	"math/rand/v2"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Inputs are a training graph's input nodes; Bind feeds them a Batch.
// T₀ is the batch's stacked frames, T' its encoder frames, S its speller
// steps (see the package doc for the rest).
type Inputs struct {
	X       *gorgonia.Node // (B, T₀, s·M) stacked frames z
	Lengths *gorgonia.Node // (B) real stacked frames
	Mask    *gorgonia.Node // (B, T') 1 on real encoder frames
	DecIn   *gorgonia.Node // (S, B) y_{i−1}: EOS, then the targets; PadID past the end
	Targets *gorgonia.Node // (S·B) y_i, step-major
	Weights *gorgonia.Node // (S·B) (1−λ)/N on real targets, 0 on padding
	// CTC head only (nil without one):
	CTCTargets *gorgonia.Node // (B, S)
	CTCLengths *gorgonia.Node // (B)
	CTCWeights *gorgonia.Node // (B) λ/N_ctc, 0 for an utterance CTC cannot align
}

// BuildFunc returns the function models.NewBuckets needs to build the
// training graph of one BatchKey. The loss of a batch is
//
//	L = Σ_rows w_row · CE(speller logits, targets)           (label-smoothed)
//	  + Σ_b w_b · CTC(listener logits_b, target_b)           (when λ > 0)
//
// with w_row = (1−λ)/N and w_b = λ/N_ctc (see Batch): a per-token average
// of (1−λ)·CE + λ·CTC. rng draws the dropout masks (nil: no dropout).
func (m *Model) BuildFunc(rng *rand.Rand) models.BuildFunc[BatchKey, Inputs] {
	return func(g *gorgonia.ExprGraph, b *models.Binding, k BatchKey) (*gorgonia.Node, Inputs, error) {
		dt := tensor.Float32
		Te := m.Listener.OutputLength(k.T) // T'
		in := Inputs{
			X:       gorgonia.NewTensor(g, dt, 3, gorgonia.WithShape(k.B, k.T, m.Config.inputWidth()), gorgonia.WithName("x")),
			Lengths: gorgonia.NewVector(g, dt, gorgonia.WithShape(k.B), gorgonia.WithName("lengths")),
			Mask:    gorgonia.NewMatrix(g, dt, gorgonia.WithShape(k.B, Te), gorgonia.WithName("mask")),
			DecIn:   gorgonia.NewMatrix(g, dt, gorgonia.WithShape(k.S, k.B), gorgonia.WithName("dec_in")),
			Targets: gorgonia.NewVector(g, dt, gorgonia.WithShape(k.S*k.B), gorgonia.WithName("targets")),
			Weights: gorgonia.NewVector(g, dt, gorgonia.WithShape(k.S*k.B), gorgonia.WithName("weights")),
		}
		mem, memLengths, err := m.Listener.Apply(b, in.X, in.Lengths) // h (B, T', D), lengths (B)
		if err != nil {
			return nil, in, err
		}
		if p := m.Config.Dropout; p > 0 && rng != nil {
			if mem, err = (&models.Dropout{P: p, Rng: rng}).Apply(mem); err != nil { // (B, T', D)
				return nil, in, err
			}
		}
		keys, err := m.Speller.Attention.PrepareNodes(b, mem, in.Mask) // U·h_t + b (B, T', A)
		if err != nil {
			return nil, in, err
		}
		u, err := m.Speller.Unroll(b, keys, in.DecIn) // logits (S·B, V)
		if err != nil {
			return nil, in, err
		}
		loss, err := models.CrossEntropy(u.Logits, in.Targets, in.Weights, m.Config.LabelSmoothing) // Σ w·CE_ε (scalar)
		if err != nil || m.CTC == nil {
			return loss, in, err
		}
		in.CTCTargets = gorgonia.NewMatrix(g, dt, gorgonia.WithShape(k.B, k.S), gorgonia.WithName("ctc_targets"))
		in.CTCLengths = gorgonia.NewVector(g, dt, gorgonia.WithShape(k.B), gorgonia.WithName("ctc_lengths"))
		in.CTCWeights = gorgonia.NewVector(g, dt, gorgonia.WithShape(k.B), gorgonia.WithName("ctc_weights"))
		logits, err := m.CTC.Apply(b, mem) // h·W_c + b_c (B, T', V)
		if err != nil {
			return nil, in, err
		}
		perSeq, err := models.CTCLoss(logits, in.CTCTargets, memLengths, in.CTCLengths, &models.CTCOptions{Blank: EOS}) // −log p_ctc(y_b | x_b) (B)
		if err != nil {
			return nil, in, err
		}
		weighted, err := gorgonia.HadamardProd(perSeq, in.CTCWeights) // (B)
		if err != nil {
			return nil, in, err
		}
		ctc, err := gorgonia.Sum(weighted) // (scalar)
		if err != nil {
			return nil, in, err
		}
		loss, err = gorgonia.Add(loss, ctc) // (scalar)
		return loss, in, err
	}
}

// Bind feeds a batch to the graph's inputs.
func (in Inputs) Bind(bt *Batch) error {
	dt := tensor.Float32
	k := bt.Key
	Te := len(bt.Mask) / k.B
	feed := []struct {
		n *gorgonia.Node
		v *tensor.Dense
	}{
		{in.X, models.FloatTensor(dt, bt.X, k.B, k.T, len(bt.X)/(k.B*k.T))},
		{in.Lengths, models.IntTensor(dt, bt.Lengths, k.B)},
		{in.Mask, models.FloatTensor(dt, bt.Mask, k.B, Te)},
		{in.DecIn, models.IntTensor(dt, bt.DecIn, k.S, k.B)},
		{in.Targets, models.IntTensor(dt, bt.Targets, k.S*k.B)},
		{in.Weights, models.FloatTensor(dt, bt.Weights, k.S*k.B)},
	}
	if in.CTCTargets != nil {
		feed = append(feed, []struct {
			n *gorgonia.Node
			v *tensor.Dense
		}{
			{in.CTCTargets, models.IntTensor(dt, bt.CTCTargets, k.B, k.S)},
			{in.CTCLengths, models.IntTensor(dt, bt.CTCLengths, k.B)},
			{in.CTCWeights, models.FloatTensor(dt, bt.CTCWeights, k.B)},
		}...)
	}
	for _, f := range feed {
		if err := gorgonia.Let(f.n, f.v); err != nil {
			return err
		}
	}
	return nil
}
