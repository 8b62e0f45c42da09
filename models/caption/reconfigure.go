package caption

import (
	"fmt"

	"gorgonia.org/tensor"
)

// Reconfigure returns a model holding m's weights under cfg, for
// fine-tuning with other training settings or another kind of attention:
// soft and hard attention share every parameter (Xu et al. §4: the same
// f_att scores the regions; only how the context is formed differs), so
// a trained soft model can start a hard one.
//
// cfg is the whole new config: start from m.Config and change what
// should change (for hard attention from a soft model, set Hard to
// DefaultHardConfig()). Its training weights are taken as they are. A
// zero size, Vocab or Attention keeps m's; a setting that changes a
// parameter's name or shape (the sizes, Vocab, NoGate, a change to or
// from Adaptive attention) is ErrConfig naming it. m is not changed; the result shares no memory with it.
func (m *Model) Reconfigure(cfg Config) (*Model, error) {
	c := cfg
	keep := func(v *int, have int, name string) error {
		switch {
		case *v == 0:
			*v = have
		case *v != have:
			return fmt.Errorf("%w: %s = %d, but the model has %d (its weights would not fit)", ErrConfig, name, *v, have)
		}
		return nil
	}
	have := m.Config
	for _, f := range []struct {
		v    *int
		have int
		name string
	}{
		{&c.Regions, have.Regions, "regions"}, {&c.FeatureDim, have.FeatureDim, "feature_dim"},
		{&c.Embed, have.Embed, "embed"}, {&c.Hidden, have.Hidden, "hidden"},
		{&c.AttentionDim, have.AttentionDim, "attention_dim"}, {&c.Vocab, have.Vocab, "vocab"},
	} {
		if err := keep(f.v, f.have, f.name); err != nil {
			return nil, err
		}
	}
	if to := c.Attention == Adaptive; c.Attention != "" && to != (have.Attention == Adaptive) {
		return nil, fmt.Errorf("%w: attention %q from a model of %q attention: adaptive attention's sentinel has weights soft and hard attention lack", ErrConfig, c.Attention, have.Attention)
	}
	if c.NoGate != have.NoGate {
		if c.NoGate {
			return nil, fmt.Errorf("%w: no_gate is set, but the model has a gate (its weights would be dropped)", ErrConfig)
		}
		return nil, fmt.Errorf("%w: no_gate is not set, but the model has no gate (it has no gate weights)", ErrConfig)
	}
	if c.Attention == "" {
		c.Attention = have.Attention
	}
	c = c.Defaults()
	if err := c.Validate(); err != nil {
		return nil, err
	}
	f, err := m.Params.NewFile(Kind, c, m.Vocab.List())
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
