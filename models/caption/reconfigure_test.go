package caption_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/caption"
)

// TestReconfigure checks that Reconfigure applies the config asked for,
// carries every weight over unchanged, and refuses settings whose weights
// would not fit.
func TestReconfigure(t *testing.T) {
	soft := tinyConfig(caption.Soft)
	soft.Dropout = 0.3
	hard := tinyConfig(caption.Hard)
	hard.Hard.Entropy = 0.05
	tests := []struct {
		name string
		from caption.Config
		edit func(c *caption.Config) // edits the source's config into the one asked for
		want func(c *caption.Config) // edits the source's config into the expected one; nil: as asked
		err  string                  // substring of the expected ErrConfig
	}{
		{name: "nothing changed", from: soft, edit: func(*caption.Config) {}},
		{name: "soft to hard", from: soft, edit: func(c *caption.Config) { c.Attention, c.Hard = caption.Hard, caption.DefaultHardConfig() }},
		{name: "soft to hard, zero settings", from: soft, edit: func(c *caption.Config) { c.Attention = caption.Hard },
			want: func(c *caption.Config) { c.Attention, c.Hard = caption.Hard, caption.HardConfig{BaselineDecay: 0.9} }},
		{name: "hard to soft", from: hard, edit: func(c *caption.Config) { c.Attention, c.Hard = caption.Soft, caption.HardConfig{} }},
		{name: "hard takes a zero mix", from: hard, edit: func(c *caption.Config) { c.Hard.ExpectationMix = 0 }},
		{name: "training settings", from: soft, edit: func(c *caption.Config) { c.Dropout, c.DoublyStochastic, c.LabelSmoothing = 0, 2, 0.1 }},
		{name: "zero sizes keep the model's", from: soft, edit: func(c *caption.Config) { c.Embed, c.Hidden, c.Vocab, c.Attention = 0, 0, 0, "" },
			want: func(*caption.Config) {}},
		{name: "another hidden size", from: soft, edit: func(c *caption.Config) { c.Hidden = 32 }, err: "hidden = 32, but the model has 24"},
		{name: "another grid", from: soft, edit: func(c *caption.Config) { c.Regions = 49 }, err: "regions = 49"},
		{name: "dropping the gate", from: soft, edit: func(c *caption.Config) { c.NoGate = true }, err: "no_gate"},
		{name: "invalid setting", from: soft, edit: func(c *caption.Config) { c.Dropout = 1.5 }, err: "dropout = 1.5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := mustNew(t, tc.from, 7)
			before := m.Config
			cfg := m.Config
			tc.edit(&cfg)
			got, err := m.Reconfigure(cfg)
			if tc.err != "" {
				if !errors.Is(err, caption.ErrConfig) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want ErrConfig naming %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := cfg
			if tc.want != nil {
				want = before
				tc.want(&want)
			}
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
			if _, err := got.Greedy(nil, [][]float32{feats}, &caption.SearchOptions{LengthPenalty: 1, MaxLength: 5}); err != nil {
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
