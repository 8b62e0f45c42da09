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
	// Phone CTC head only (nil without one):
	PhoneTargets *gorgonia.Node // (B, S)
	PhoneLengths *gorgonia.Node // (B)
	PhoneWeights *gorgonia.Node // (B) λp/N_phone, 0 for an utterance without phones
	phoneLoss    *gorgonia.Value
}

// PhoneCTCLoss returns the last run's phone CTC term, λp·Σ_b CTC_b/N_phone
// (0 without a phone head): divided by λp, the phone CTC loss per phone.
func (in Inputs) PhoneCTCLoss() float64 {
	if in.phoneLoss == nil || *in.phoneLoss == nil {
		return 0
	}
	switch v := (*in.phoneLoss).Data().(type) {
	case float32:
		return float64(v)
	case float64:
		return v
	}
	return 0
}

// BuildFunc returns the function models.NewBuckets needs to build the
// training graph of one BatchKey. The loss of a batch is
//
//	L = Σ_rows w_row · CE(speller logits, targets)           (label-smoothed)
//	  + Σ_b w_b · CTC(listener logits_b, target_b)           (when λ > 0)
//	  + Σ_b wp_b · CTC(phone logits_b, phones_b)             (when λp > 0)
//
// with w_row = (1−λ−λp)/N, w_b = λ/N_ctc and wp_b = λp/N_phone (see
// Batch): a per-token average of (1−λ−λp)·CE + λ·CTC + λp·CTC_phone. The
// phone logits read listener layer PhoneCTCLayer before dropout. rng
// draws the dropout masks (nil: no dropout).
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
		layers, layerLengths, err := m.Listener.ApplyLayers(b, in.X, in.Lengths) // hʲ (B, T_j, D), lengths (B)
		if err != nil {
			return nil, in, err
		}
		mem, memLengths := layers[len(layers)-1], layerLengths[len(layers)-1] // h (B, T', D), lengths (B)
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
		if err != nil {
			return nil, in, err
		}
		if m.PhoneCTC != nil {
			j := m.Config.PhoneCTCLayer
			if loss, err = m.phoneTerm(g, b, k, &in, loss, layers[j], layerLengths[j]); err != nil {
				return nil, in, err
			}
		}
		if m.CTC == nil {
			return loss, in, nil
		}
		loss, err = m.ctcTerm(g, b, k, &in, loss, mem, memLengths)
		return loss, in, err
	}
}

// ctcTerm adds the CTC term Σ_b w_b·CTC(h_b·W_c + b_c, y_b) to loss, with
// its inputs in in.
func (m *Model) ctcTerm(g *gorgonia.ExprGraph, b *models.Binding, k BatchKey, in *Inputs, loss, mem, memLengths *gorgonia.Node) (*gorgonia.Node, error) {
	t, err := weightedCTC(g, b, k, m.CTC, mem, memLengths, EOS, "ctc") // Σ_b w_b·−log p_ctc(y_b | x_b)
	if err != nil {
		return nil, err
	}
	in.CTCTargets, in.CTCLengths, in.CTCWeights = t.targets, t.lengths, t.weights
	return gorgonia.Add(loss, t.sum) // (scalar)
}

// phoneTerm adds the phone CTC term Σ_b wp_b·CTC(hʲ_b·W_p + b_p,
// phones_b) to loss, with its inputs in in.
func (m *Model) phoneTerm(g *gorgonia.ExprGraph, b *models.Binding, k BatchKey, in *Inputs, loss, h, lengths *gorgonia.Node) (*gorgonia.Node, error) {
	t, err := weightedCTC(g, b, k, m.PhoneCTC, h, lengths, PhoneBlank, "phone") // Σ_b wp_b·−log p(phones_b | x_b)
	if err != nil {
		return nil, err
	}
	in.PhoneTargets, in.PhoneLengths, in.PhoneWeights = t.targets, t.lengths, t.weights
	in.phoneLoss = new(gorgonia.Value)
	gorgonia.Read(t.sum, in.phoneLoss)
	return gorgonia.Add(loss, t.sum) // (scalar)
}

// ctcSum is a CTC head's weighted loss and the inputs that feed it.
type ctcSum struct {
	sum                       *gorgonia.Node // Σ_b w_b·−log p(y_b | x_b) (scalar)
	targets, lengths, weights *gorgonia.Node // (B, S), (B), (B)
}

// weightedCTC builds head's CTC loss over layer output h (B, T, D) with
// frame lengths (B), summed over the batch with a weight per
// utterance; its inputs are named after name.
func weightedCTC(g *gorgonia.ExprGraph, b *models.Binding, k BatchKey, head *models.Linear, h, lengths *gorgonia.Node, blank int, name string) (ctcSum, error) {
	dt := tensor.Float32
	t := ctcSum{
		targets: gorgonia.NewMatrix(g, dt, gorgonia.WithShape(k.B, k.S), gorgonia.WithName(name+"_targets")),
		lengths: gorgonia.NewVector(g, dt, gorgonia.WithShape(k.B), gorgonia.WithName(name+"_lengths")),
		weights: gorgonia.NewVector(g, dt, gorgonia.WithShape(k.B), gorgonia.WithName(name+"_weights")),
	}
	logits, err := head.Apply(b, h) // h·W + b (B, T, classes)
	if err != nil {
		return t, err
	}
	perSeq, err := models.CTCLoss(logits, t.targets, lengths, t.lengths, &models.CTCOptions{Blank: blank}) // −log p(y_b | x_b) (B)
	if err != nil {
		return t, err
	}
	weighted, err := gorgonia.HadamardProd(perSeq, t.weights) // (B)
	if err != nil {
		return t, err
	}
	t.sum, err = gorgonia.Sum(weighted) // (scalar)
	return t, err
}

// Bind feeds a batch to the graph's inputs.
func (in Inputs) Bind(bt *Batch) error {
	dt := tensor.Float32
	k := bt.Key
	Te := len(bt.Mask) / k.B
	type input struct {
		n *gorgonia.Node
		v *tensor.Dense
	}
	feed := []input{
		{in.X, models.FloatTensor(dt, bt.X, k.B, k.T, len(bt.X)/(k.B*k.T))},
		{in.Lengths, models.IntTensor(dt, bt.Lengths, k.B)},
		{in.Mask, models.FloatTensor(dt, bt.Mask, k.B, Te)},
		{in.DecIn, models.IntTensor(dt, bt.DecIn, k.S, k.B)},
		{in.Targets, models.IntTensor(dt, bt.Targets, k.S*k.B)},
		{in.Weights, models.FloatTensor(dt, bt.Weights, k.S*k.B)},
	}
	// A CTC head's targets (B, S), lengths (B) and weights (B).
	ctc := func(targets, lengths, weights *gorgonia.Node, t, l []int, w []float32) {
		if targets != nil {
			feed = append(feed, input{targets, models.IntTensor(dt, t, k.B, k.S)},
				input{lengths, models.IntTensor(dt, l, k.B)}, input{weights, models.FloatTensor(dt, w, k.B)})
		}
	}
	ctc(in.CTCTargets, in.CTCLengths, in.CTCWeights, bt.CTCTargets, bt.CTCLengths, bt.CTCWeights)
	ctc(in.PhoneTargets, in.PhoneLengths, in.PhoneWeights, bt.PhoneTargets, bt.PhoneLengths, bt.PhoneWeights)
	for _, f := range feed {
		if err := gorgonia.Let(f.n, f.v); err != nil {
			return err
		}
	}
	return nil
}
