package asr_test

import (
	"encoding/json"
	"maps"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
)

// tinyConfig is a model small enough to train in seconds.
func tinyConfig(ctc float64) asr.Config {
	return asr.Config{
		MelBins: 8, Stack: 2, ListenerHidden: 16, ListenerLayers: 2, Embed: 8,
		SpellerHidden: 32, AttentionDim: 16, LocationFilters: 4, LocationWidth: 5,
		CTCWeight: ctc, LabelSmoothing: 0, Dropout: 0,
	}
}

// toyUtterance renders text as frames: each character is 5–7 frames of a
// pattern unique to it (plus noise), with 3 silent frames around.
func toyUtterance(rng *rand.Rand, v *asr.Vocab, text string, bins int) asr.Example {
	tokens, err := v.Encode(text)
	if err != nil {
		panic(err)
	}
	var feats []float32
	frame := func(tok int) {
		for b := range bins {
			x := float32(0.1 * rng.NormFloat64())
			if tok > 0 {
				x += float32(math.Sin(float64((tok*7+b*3)%11))) * 2
			}
			feats = append(feats, x)
		}
	}
	for range 3 {
		frame(0)
	}
	for _, t := range tokens {
		for range 5 + rng.IntN(3) {
			frame(t)
		}
	}
	for range 3 {
		frame(0)
	}
	return asr.Example{Frames: len(feats) / bins, Features: feats, Tokens: tokens}
}

var toyTexts = []string{"cat", "dog", "a cat", "go", "tac", "god", "act", "dog ate"}

// TestTrainTinyModel trains the whole model on eight toy utterances and
// checks that greedy search, beam search and joint CTC decoding all
// transcribe them exactly; with a CTC head the fallback path must also
// spell them.
func TestTrainTinyModel(t *testing.T) {
	for _, tc := range []struct {
		name string
		ctc  float64
	}{{"attention only", 0}, {"joint CTC", 0.3}} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := asr.New(tinyConfig(tc.ctc), nil, 1)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			var exs []asr.Example
			for _, s := range toyTexts {
				exs = append(exs, toyUtterance(rng, m.Vocab, s, 8))
			}
			buckets := models.NewBuckets(m.Params, m.BuildFunc(nil))
			defer buckets.Close()
			opt := models.NewAdam(m.Params, &models.AdamOptions{LR: 0.01})
			var loss float64
			for step := range 300 {
				key := m.KeyFor(exs, 8, 4)
				bt, err := m.MakeBatch(key, exs)
				if err != nil {
					t.Fatal(err)
				}
				gr, err := buckets.Get(key)
				if err != nil {
					t.Fatal(err)
				}
				if err := gr.Inputs.Bind(bt); err != nil {
					t.Fatal(err)
				}
				if loss, err = gr.Run(); err != nil {
					t.Fatal(err)
				}
				if _, err := opt.Step(); err != nil {
					t.Fatal(err)
				}
				if step > 100 && loss < 0.01 {
					break
				}
			}
			t.Logf("final loss %.4f", loss)
			var ws asr.Workspace
			for i, ex := range exs {
				e, err := m.Encode(&ws, ex.Features, ex.Frames)
				if err != nil {
					t.Fatal(err)
				}
				for _, o := range []decode.Options{{Beam: 1, LengthPenalty: 1, EOSThreshold: 1.5}, {Beam: 4, LengthPenalty: 1, EOSThreshold: 1.5}, {Beam: 4, LengthPenalty: 1, EOSThreshold: 1.5, CTCWeight: 0.3}, {Beam: 4, LengthPenalty: 1, EOSThreshold: 1.5, CTCWeight: 0.3, CTCBeam: 4}} {
					r, err := decode.Decode(m, &ws, e, &o)
					if err != nil {
						t.Fatal(err)
					}
					if r.Text != toyTexts[i] || r.Fallback != "" {
						t.Errorf("%+v: %q → %q (fallback %q)", o, toyTexts[i], r.Text, r.Fallback)
					}
					if len(r.Alignment) != len(r.Tokens) {
						t.Errorf("%d alignment rows for %d tokens", len(r.Alignment), len(r.Tokens))
					}
					for j, row := range r.Alignment {
						if len(row) != e.T {
							t.Fatalf("alignment row %d has %d frames, want %d", j, len(row), e.T)
						}
						s := float32(0)
						for _, w := range row {
							s += w
						}
						if math.Abs(float64(s-1)) > 1e-4 {
							t.Errorf("alignment row %d sums to %v", j, s)
						}
					}
				}
				if tc.ctc > 0 {
					if got := m.Vocab.Decode(m.CTCGreedy(e)); got != toyTexts[i] {
						t.Errorf("CTC greedy: %q → %q", toyTexts[i], got)
					}
				}
			}
		})
	}
}

// TestFileRoundTrip saves and reloads models whose configs hold explicit
// zeros (no CTC head, no smoothing, no dropout), and one with a phone CTC
// head: the reloaded config and every weight must be the same.
func TestFileRoundTrip(t *testing.T) {
	flat := phoneConfig(0.3, 0.2, 2)
	flat.ListenerLayers, flat.ListenerFlat = 3, 1
	for _, cfg := range []asr.Config{tinyConfig(0), tinyConfig(0.3), phoneConfig(0.3, 0.2, 1), flat} {
		m, err := asr.New(cfg, nil, 5)
		if err != nil {
			t.Fatal(err)
		}
		f, err := m.File()
		if err != nil {
			t.Fatal(err)
		}
		back, err := asr.Load(f)
		if err != nil {
			t.Fatalf("config %+v: %v", cfg, err)
		}
		if back.Config != m.Config || (back.PhoneCTC == nil) != (m.PhoneCTC == nil) || len(back.Params.All()) != len(m.Params.All()) {
			t.Fatalf("config %+v came back as %+v (phone head %v, %d of %d parameters)", m.Config, back.Config, back.PhoneCTC != nil, len(back.Params.All()), len(m.Params.All()))
		}
		for i, p := range m.Params.All() {
			q := back.Params.All()[i]
			for j, v := range p.F32() {
				if q.F32()[j] != v {
					t.Fatalf("%s[%d] = %v, reloaded %v", p.Name, j, v, q.F32()[j])
				}
			}
		}
	}
}

// TestLoadOldConfig loads checkpoints written before DefaultConfig, which
// stored an explicit 0 rate as the sentinel −1, and one whose config
// lacks the rates, which take DefaultConfig's.
func TestLoadOldConfig(t *testing.T) {
	m, err := asr.New(tinyConfig(0), nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.File()
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(f.Config, &raw); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		edit  func(map[string]any)
		rates [3]float64 // CTC, smoothing, dropout
	}{
		{"sentinels", func(c map[string]any) { c["ctc_weight"], c["label_smoothing"], c["dropout"] = -1, -1, -1 }, [3]float64{0, 0, 0}},
		{"no rates", func(c map[string]any) {
			delete(c, "ctc_weight")
			delete(c, "label_smoothing")
			delete(c, "dropout")
		}, [3]float64{0.3, 0.1, 0.2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := maps.Clone(raw)
			tc.edit(c)
			b, err := json.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			old := *f
			old.Config = b
			if tc.rates[0] > 0 {
				// A CTC head needs its weights: take them from a model with one.
				withCTC, err := asr.New(tinyConfig(0.3), nil, 5)
				if err != nil {
					t.Fatal(err)
				}
				wf, err := withCTC.File()
				if err != nil {
					t.Fatal(err)
				}
				old.Tensors = wf.Tensors
			}
			back, err := asr.Load(&old)
			if err != nil {
				t.Fatal(err)
			}
			want := m.Config
			want.CTCWeight, want.LabelSmoothing, want.Dropout = tc.rates[0], tc.rates[1], tc.rates[2]
			if back.Config != want {
				t.Errorf("config %s loaded as\n %+v, want\n %+v", b, back.Config, want)
			}
		})
	}
}
