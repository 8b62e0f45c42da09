package caption_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/models/caption"
)

// TestConfigDefaults checks the default constructors and that zero
// training weights stay zero.
func TestConfigDefaults(t *testing.T) {
	got := caption.DefaultConfig()
	want := caption.Config{
		Regions: 49, FeatureDim: 1280, Embed: 256, Hidden: 512, AttentionDim: 256,
		Attention: caption.Soft, Dropout: 0.5, DoublyStochastic: 1,
	}
	if got != want {
		t.Errorf("DefaultConfig() = %+v, want %+v", got, want)
	}
	if h := caption.DefaultHardConfig(); h != (caption.HardConfig{Entropy: 0.01, BaselineDecay: 0.9, ExpectationMix: 0.5, Inference: caption.Expectation}) {
		t.Errorf("DefaultHardConfig() = %+v", h)
	}
	zero := caption.Config{Attention: caption.Hard}.Defaults()
	if zero.Dropout != 0 || zero.DoublyStochastic != 0 || zero.Hard != (caption.HardConfig{BaselineDecay: 0.9}) {
		t.Errorf("hard config with zero weights defaults to %+v, want zeros and baseline decay 0.9", zero)
	}
}

// TestConfigValidate checks that every invalid field is an ErrConfig
// naming it.
func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*caption.Config)
		want string
	}{
		{"negative regions", func(c *caption.Config) { c.Regions = -1 }, "regions = -1, want 1 … 65536"},
		{"huge feature dim", func(c *caption.Config) { c.FeatureDim = 1 << 20 }, "feature_dim = 1048576"},
		{"negative embed", func(c *caption.Config) { c.Embed = -5 }, "embed = -5"},
		{"negative hidden", func(c *caption.Config) { c.Hidden = -2 }, "hidden = -2"},
		{"negative attention dim", func(c *caption.Config) { c.AttentionDim = -3 }, "attention_dim = -3"},
		{"tiny vocab", func(c *caption.Config) { c.Vocab = 4 }, "vocab = 4, want 5"},
		{"unknown attention", func(c *caption.Config) { c.Attention = "Soft" }, `attention = "Soft", want "soft", "hard" or "adaptive"`},
		{"dropout 1", func(c *caption.Config) { c.Dropout = 1 }, "dropout = 1, want [0, 1)"},
		{"dropout NaN", func(c *caption.Config) { c.Dropout = math.NaN() }, "dropout = NaN"},
		{"negative penalty", func(c *caption.Config) { c.DoublyStochastic = -3 }, "doubly_stochastic = -3, want a finite number ≥ 0"},
		{"infinite penalty", func(c *caption.Config) { c.DoublyStochastic = math.Inf(1) }, "doubly_stochastic = +Inf"},
		{"smoothing 1", func(c *caption.Config) { c.LabelSmoothing = 1 }, "label_smoothing = 1, want [0, 1)"},
		{"hard options on soft", func(c *caption.Config) { c.Hard.Entropy = 0.1 }, `hard options need attention "hard"`},
		{"negative entropy", func(c *caption.Config) { c.Attention = caption.Hard; c.Hard.Entropy = -0.5 }, "hard.entropy = -0.5"},
		{"decay 1", func(c *caption.Config) { c.Attention = caption.Hard; c.Hard.BaselineDecay = 1 }, "hard.baseline_decay = 1, want [0, 1)"},
		{"mix above 1", func(c *caption.Config) { c.Attention = caption.Hard; c.Hard.ExpectationMix = 1.5 }, "hard.expectation_mix = 1.5, want [0, 1]"},
		{"unknown inference", func(c *caption.Config) { c.Attention = caption.Hard; c.Hard.Inference = attention.Sample }, `hard.inference = "sample", want "expectation" or "argmax"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := caption.Config{Vocab: 20}
			tc.edit(&c)
			err := c.Defaults().Validate()
			if !errors.Is(err, caption.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrConfig with %q", err, tc.want)
			}
			if _, err := caption.New(c, toyVocab(t), 1); err == nil {
				t.Errorf("New accepted %+v", c)
			}
		})
	}
	if err := (caption.Config{Vocab: 20}).Defaults().Validate(); err != nil {
		t.Errorf("default config: %v", err)
	}
	if _, err := caption.New(caption.Config{Vocab: 7}, toyVocab(t), 1); !errors.Is(err, caption.ErrConfig) {
		t.Errorf("New with vocab 7 for a 19-token vocabulary: %v, want ErrConfig", err)
	}
	if _, err := caption.New(caption.Config{}, nil, 1); !errors.Is(err, caption.ErrVocab) {
		t.Errorf("New without a vocabulary: %v, want ErrVocab", err)
	}
}
