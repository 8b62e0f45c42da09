package caption_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/models/safetensors"
)

// TestAdaptiveSentinel checks what search reports of adaptive attention:
// a sentinel weight in [0, 1] per word, the same from greedy and a beam of
// 1 and after a file round trip, and none for soft attention.
func TestAdaptiveSentinel(t *testing.T) {
	cfg := tinyConfig(caption.Adaptive)
	cfg.NoGate = true
	m := mustNew(t, cfg, 7)
	loaded, _ := roundTrip(t, m, safetensors.F32)
	rng := rand.New(rand.NewPCG(8, 9))
	o := &caption.SearchOptions{MaxLength: 8, LengthPenalty: 1}
	for i := range 3 {
		f := randomFeatures(rng, cfg.Regions, cfg.FeatureDim)
		greedy, err := m.Greedy(nil, [][]float32{f}, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, model := range []*caption.Model{m, loaded} {
			beam, err := model.Beam(nil, f, 1, o)
			if err != nil {
				t.Fatal(err)
			}
			g, b := greedy[0], beam[0]
			if !slices.Equal(g.Tokens, b.Tokens) || !slices.Equal(g.Sentinel, b.Sentinel) {
				t.Errorf("image %d: greedy %v with sentinel %v, beam of 1 %v with %v", i, g.Tokens, g.Sentinel, b.Tokens, b.Sentinel)
			}
		}
		h := greedy[0]
		if len(h.Sentinel) != len(h.Tokens) || len(h.Tokens) == 0 {
			t.Fatalf("image %d: %d sentinel weights for %d tokens", i, len(h.Sentinel), len(h.Tokens))
		}
		for j, s := range h.Sentinel {
			if !(s >= 0 && s <= 1) {
				t.Errorf("image %d word %d: sentinel weight %v, want [0, 1]", i, j, s)
			}
			if h.Beta[j] != 1 {
				t.Errorf("image %d word %d: gate %v, want 1 (adaptive attention has no gate)", i, j, h.Beta[j])
			}
		}
	}
	soft := mustNew(t, tinyConfig(caption.Soft), 7)
	hyps, err := soft.Beam(nil, randomFeatures(rng, cfg.Regions, cfg.FeatureDim), 2, o)
	if err != nil {
		t.Fatal(err)
	}
	if hyps[0].Sentinel != nil {
		t.Errorf("soft attention reports sentinel weights %v, want none", hyps[0].Sentinel)
	}
}

// TestAdaptiveConfigErrors checks the settings adaptive attention refuses:
// the gate, hard-attention options, and a switch to or from it on a
// trained model (its sentinel has weights the others lack).
func TestAdaptiveConfigErrors(t *testing.T) {
	gated := tinyConfig(caption.Adaptive)
	if _, err := caption.New(gated, toyVocab(t), 1); !errors.Is(err, caption.ErrConfig) || !strings.Contains(err.Error(), "set no_gate") {
		t.Errorf("adaptive with the gate: %v, want ErrConfig saying to set no_gate", err)
	}
	hard := tinyConfig(caption.Adaptive)
	hard.NoGate, hard.Hard = true, caption.DefaultHardConfig()
	if _, err := caption.New(hard, toyVocab(t), 1); !errors.Is(err, caption.ErrConfig) || !strings.Contains(err.Error(), "hard options need") {
		t.Errorf("adaptive with hard options: %v, want ErrConfig", err)
	}
	soft := tinyConfig(caption.Soft)
	soft.NoGate = true
	m := mustNew(t, soft, 1)
	to := m.Config
	to.Attention = caption.Adaptive
	if _, err := m.Reconfigure(to); !errors.Is(err, caption.ErrConfig) || !strings.Contains(err.Error(), "sentinel") {
		t.Errorf("soft → adaptive: %v, want ErrConfig naming the sentinel", err)
	}
}
