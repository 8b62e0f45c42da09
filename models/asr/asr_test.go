package asr_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
)

// tinyConfig is a model small enough to train in seconds.
func tinyConfig(ctc float64) asr.Config {
	return asr.Config{
		MelBins: 8, Stack: 2, ListenerHidden: 16, ListenerLayers: 2, Embed: 8,
		SpellerHidden: 32, AttentionDim: 16, LocationFilters: 4, LocationWidth: 5,
		CTCWeight: ctc, LabelSmoothing: asr.NoSmoothing, Dropout: asr.NoDropout,
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
	}{{"attention only", asr.NoCTC}, {"joint CTC", 0.3}} {
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
				for _, o := range []asr.SearchOptions{{Beam: 1, CTCWeight: asr.NoCTC}, {Beam: 4, CTCWeight: asr.NoCTC}, {Beam: 4}, {Beam: 4, CTCBeam: 4}} {
					r, err := m.Decode(&ws, e, &o)
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
// zeros (no CTC head, no smoothing, no dropout): the reloaded config and
// every weight must be the same.
func TestFileRoundTrip(t *testing.T) {
	for _, ctc := range []float64{asr.NoCTC, 0.3} {
		m, err := asr.New(tinyConfig(ctc), nil, 5)
		if err != nil {
			t.Fatal(err)
		}
		f, err := m.File()
		if err != nil {
			t.Fatal(err)
		}
		back, err := asr.Load(f)
		if err != nil {
			t.Fatalf("ctc %v: %v", ctc, err)
		}
		if back.Config != m.Config {
			t.Errorf("config %+v came back as %+v", m.Config, back.Config)
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
