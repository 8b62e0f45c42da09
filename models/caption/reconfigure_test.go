package caption_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/caption"
)

// TestReconfigure checks that Reconfigure applies the settings asked for,
// keeps the others, carries every weight over unchanged, and refuses
// settings whose weights would not fit.
func TestReconfigure(t *testing.T) {
	soft := tinyConfig(caption.Soft)
	soft.Dropout = 0.3
	hard := tinyConfig(caption.Hard)
	hard.Hard.Entropy = 0.05
	tests := []struct {
		name string
		from caption.Config
		cfg  caption.Config
		want func(c *caption.Config) // edits the source's config into the expected one
		err  string                  // substring of the expected ErrConfig
	}{
		{name: "nothing set keeps all", from: soft, want: func(*caption.Config) {}},
		{name: "soft to hard takes the hard defaults", from: soft, cfg: caption.Config{Attention: caption.Hard},
			want: func(c *caption.Config) {
				c.Attention = caption.Hard
				c.Hard = caption.HardConfig{Entropy: 0.01, BaselineDecay: 0.9, ExpectationMix: 0.5, Inference: caption.Expectation}
			}},
		{name: "hard to soft drops the hard settings", from: hard, cfg: caption.Config{Attention: caption.Soft},
			want: func(c *caption.Config) { c.Attention, c.Hard = caption.Soft, caption.HardConfig{} }},
		{name: "hard keeps its entropy and takes a new mix", from: hard, cfg: caption.Config{Hard: caption.HardConfig{ExpectationMix: caption.NoExpectation}},
			want: func(c *caption.Config) { c.Hard.ExpectationMix = 0 }},
		{name: "training settings", from: soft, cfg: caption.Config{Dropout: caption.NoDropout, DoublyStochastic: 2, LabelSmoothing: 0.1},
			want: func(c *caption.Config) { c.Dropout, c.DoublyStochastic, c.LabelSmoothing = 0, 2, 0.1 }},
		{name: "same sizes are fine", from: soft, cfg: caption.Config{Embed: 12, Hidden: 24}, want: func(*caption.Config) {}},
		{name: "another hidden size", from: soft, cfg: caption.Config{Hidden: 32}, err: "hidden = 32, but the model has 24"},
		{name: "another grid", from: soft, cfg: caption.Config{Regions: 49}, err: "regions = 49"},
		{name: "dropping the gate", from: soft, cfg: caption.Config{NoGate: true}, err: "no_gate"},
		{name: "invalid setting", from: soft, cfg: caption.Config{Dropout: 1.5}, err: "dropout = 1.5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := mustNew(t, tc.from, 7)
			before := m.Config
			got, err := m.Reconfigure(tc.cfg)
			if tc.err != "" {
				if !errors.Is(err, caption.ErrConfig) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want ErrConfig naming %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := before
			tc.want(&want)
			if got.Config != want {
				t.Errorf("config\n got %+v\nwant %+v", got.Config, want)
			}
			if m.Config != before {
				t.Errorf("the source changed: %+v", m.Config)
			}
			if !slices.Equal(paramValues(t, got), paramValues(t, m)) {
				t.Error("the weights changed")
			}
			// The result is a working model of its kind.
			feats := randomFeatures(rand.New(rand.NewPCG(1, 2)), want.Regions, want.FeatureDim)
			if _, err := got.Greedy(nil, [][]float32{feats}, &caption.SearchOptions{MaxLength: 5}); err != nil {
				t.Errorf("greedy search: %v", err)
			}
		})
	}
}

// paramValues flattens a model's weights in file order.
func paramValues(t *testing.T, m *caption.Model) []float32 {
	t.Helper()
	f, err := m.File()
	if err != nil {
		t.Fatal(err)
	}
	var all []float32
	for _, tensor := range f.Tensors {
		all = append(all, tensor.Data...)
	}
	return all
}
