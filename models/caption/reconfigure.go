package caption

import (
	"fmt"

	"gorgonia.org/tensor"
)

// Reconfigure returns a model holding m's weights under the settings of
// cfg, for fine-tuning with other training settings or another kind of
// attention: soft and hard attention share every parameter (Xu et al.
// §4: the same f_att scores the regions; only how the context is formed
// differs), so a trained soft model can start a hard one.
//
// A zero field of cfg keeps m's value; a sentinel (NoDropout, NoPenalty,
// NoEntropy, NoExpectation) asks for 0, as in New (LabelSmoothing has no
// sentinel: 0 keeps m's). Changing Attention
// replaces the hard-attention settings with cfg.Hard (its zero fields
// taking the defaults); otherwise cfg.Hard's non-zero fields replace m's.
// NoGate true drops the gate. A setting that changes a parameter's name
// or shape (the sizes, Vocab, the gate) is ErrConfig naming it. m is not
// changed; the result shares no memory with it.
func (m *Model) Reconfigure(cfg Config) (*Model, error) {
	c := m.Config.stored()
	keep := func(v *int, want int, name string) error {
		if want != 0 && want != *v {
			return fmt.Errorf("%w: %s = %d, but the model has %d (its weights would not fit)", ErrConfig, name, want, *v)
		}
		return nil
	}
	for _, f := range []struct {
		v    *int
		want int
		name string
	}{
		{&c.Regions, cfg.Regions, "regions"}, {&c.FeatureDim, cfg.FeatureDim, "feature_dim"},
		{&c.Embed, cfg.Embed, "embed"}, {&c.Hidden, cfg.Hidden, "hidden"},
		{&c.AttentionDim, cfg.AttentionDim, "attention_dim"}, {&c.Vocab, cfg.Vocab, "vocab"},
	} {
		if err := keep(f.v, f.want, f.name); err != nil {
			return nil, err
		}
	}
	if cfg.NoGate && !c.NoGate {
		return nil, fmt.Errorf("%w: no_gate is set, but the model has a gate (its weights would be dropped)", ErrConfig)
	}
	set := func(v *float64, want float64) {
		if want != 0 {
			*v = want
		}
	}
	set(&c.Dropout, cfg.Dropout)
	set(&c.DoublyStochastic, cfg.DoublyStochastic)
	set(&c.LabelSmoothing, cfg.LabelSmoothing)
	if cfg.Attention != "" && cfg.Attention != c.Attention {
		c.Attention, c.Hard = cfg.Attention, cfg.Hard
	} else {
		set(&c.Hard.Entropy, cfg.Hard.Entropy)
		set(&c.Hard.BaselineDecay, cfg.Hard.BaselineDecay)
		set(&c.Hard.ExpectationMix, cfg.Hard.ExpectationMix)
		if cfg.Hard.Inference != "" {
			c.Hard.Inference = cfg.Hard.Inference
		}
	}
	c = c.Defaults()
	if err := c.Validate(); err != nil {
		return nil, err
	}
	f, err := m.Params.NewFile(Kind, c.stored(), m.Vocab.List())
	if err != nil {
		return nil, err
	}
	dtype := tensor.Float32
	if m.Params.Dtype() == tensor.Float64 {
		dtype = tensor.Float64
	}
	out, err := build(c, m.Vocab, 0, dtype)
	if err != nil {
		return nil, err
	}
	if err := out.Params.Load(f); err != nil {
		return nil, fmt.Errorf("caption: reconfigure: %w", err)
	}
	return out, nil
}
