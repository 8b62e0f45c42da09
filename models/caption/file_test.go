package caption_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/models/modeltest"
	"github.com/attend-go/attend/models/safetensors"
)

// roundTrip writes m as a model file of dtype and reads it back.
func roundTrip(t *testing.T, m *caption.Model, dtype safetensors.DType) (*caption.Model, int) {
	t.Helper()
	f, err := m.File()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := safetensors.Write(&buf, f, dtype); err != nil {
		t.Fatal(err)
	}
	g, err := safetensors.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := caption.Load(g)
	if err != nil {
		t.Fatal(err)
	}
	return loaded, buf.Len()
}

// TestSaveLoad writes the trained toy model as F32 and F16 files and
// checks that the loaded models caption every image as the original does:
// F32 exactly, weights and scores included; F16 with the same words.
func TestSaveLoad(t *testing.T) {
	m, exs := trainedToy(t)
	sizes := map[safetensors.DType]int{}
	for _, dtype := range []safetensors.DType{safetensors.F32, safetensors.F16} {
		t.Run(dtype.String(), func(t *testing.T) {
			loaded, size := roundTrip(t, m, dtype)
			sizes[dtype] = size
			if loaded.Config != m.Config || !slices.Equal(loaded.Vocab.List(), m.Vocab.List()) {
				t.Fatalf("loaded config %+v and vocabulary %q, want %+v and %q", loaded.Config, loaded.Vocab.List(), m.Config, m.Vocab.List())
			}
			for i, ex := range exs {
				want, err := m.Beam(nil, ex.Features, 3, nil)
				if err != nil {
					t.Fatal(err)
				}
				got, err := loaded.Beam(nil, ex.Features, 3, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Fatalf("image %d: %d hypotheses, want %d", i, len(got), len(want))
				}
				if g, w := strings.Join(got[0].Words, " "), strings.Join(want[0].Words, " "); g != w {
					t.Errorf("image %d: loaded model says %q, original %q", i, g, w)
				}
				if dtype == safetensors.F32 {
					for j := range got {
						if !slices.Equal(got[j].Tokens, want[j].Tokens) || got[j].LogProb != want[j].LogProb ||
							!slices.EqualFunc(got[j].Attention, want[j].Attention, slices.Equal) {
							t.Errorf("image %d hypothesis %d: F32 round trip changed %q (%v) into %q (%v)", i, j, want[j].Words, want[j].LogProb, got[j].Words, got[j].LogProb)
						}
					}
				}
			}
		})
	}
	t.Logf("file sizes: %v", sizes)
	if 2*sizes[safetensors.F16] > sizes[safetensors.F32]+4096 {
		t.Errorf("F16 file is %d bytes, F32 %d: want about half", sizes[safetensors.F16], sizes[safetensors.F32])
	}
}

// TestSaveLoadConfig checks that explicit zeros and hard-attention
// settings survive a checkpoint: Load reads the config over
// DefaultConfig, which must not turn a stored 0 back into a default.
func TestSaveLoadConfig(t *testing.T) {
	for _, cfg := range []caption.Config{
		tinyConfig(caption.Soft), // Dropout 0
		{Regions: 3, FeatureDim: 4, Embed: 5, Hidden: 6, AttentionDim: 7, DoublyStochastic: 0, NoGate: true, LabelSmoothing: 0.2},
		{Regions: 3, FeatureDim: 4, Embed: 5, Hidden: 6, AttentionDim: 7, Attention: caption.Hard,
			Hard: caption.HardConfig{Entropy: 0, ExpectationMix: 0, BaselineDecay: 0.5, Inference: caption.Argmax}},
		{Regions: 3, FeatureDim: 4, Embed: 5, Hidden: 6, AttentionDim: 7, Attention: caption.Hard},
		{Regions: 3, FeatureDim: 4, Embed: 5, Hidden: 6, AttentionDim: 7, Attention: caption.Adaptive, NoGate: true},
	} {
		m := mustNew(t, cfg, 1)
		loaded, _ := roundTrip(t, m, safetensors.F32)
		if loaded.Config != m.Config {
			t.Errorf("config %+v\nloads as %+v", m.Config, loaded.Config)
		}
		if got, want := len(loaded.Params.All()), len(m.Params.All()); got != want {
			t.Errorf("%d parameters loaded, want %d", got, want)
		}
		if got, want := loaded.Params.Count(), m.Config.Parameters(); got != want {
			t.Errorf("Config.Parameters = %d, the model has %d", want, got)
		}
	}
}

// TestLoadOldConfig loads configs as checkpoints written before
// DefaultConfig stored them: an explicit 0 weight as the sentinel −1, and
// soft attention's hard settings with an empty inference mode.
func TestLoadOldConfig(t *testing.T) {
	for _, tc := range []struct {
		name   string
		from   caption.Config
		config string // the old file's
		want   func(c *caption.Config)
	}{
		{"soft", tinyConfig(caption.Soft),
			`{"regions":6,"feature_dim":8,"embed":12,"hidden":24,"attention_dim":10,"vocab":%d,"attention":"soft","no_gate":false,"dropout":-1,"doubly_stochastic":-1,"label_smoothing":0,"hard":{"entropy":0,"baseline_decay":0,"expectation_mix":0,"inference":""}}`,
			func(c *caption.Config) { c.Dropout, c.DoublyStochastic = 0, 0 }},
		{"hard", tinyConfig(caption.Hard),
			`{"regions":6,"feature_dim":8,"embed":12,"hidden":24,"attention_dim":10,"vocab":%d,"attention":"hard","no_gate":false,"dropout":0.5,"doubly_stochastic":1,"label_smoothing":0,"hard":{"entropy":-1,"baseline_decay":0.9,"expectation_mix":-1,"inference":"argmax"}}`,
			func(c *caption.Config) {
				c.Dropout, c.DoublyStochastic = 0.5, 1
				c.Hard = caption.HardConfig{BaselineDecay: 0.9, Inference: caption.Argmax}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustNew(t, tc.from, 1)
			f, err := m.File()
			if err != nil {
				t.Fatal(err)
			}
			f.Config = json.RawMessage(fmt.Sprintf(tc.config, m.Config.Vocab))
			loaded, err := caption.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			want := m.Config
			tc.want(&want)
			if loaded.Config != want {
				t.Errorf("old config loads as\n %+v, want\n %+v", loaded.Config, want)
			}
		})
	}
}

// TestLoadErrors checks that a file that does not fit the model is an
// error wrapping the right sentinel and saying what is wrong.
func TestLoadErrors(t *testing.T) {
	m := mustNew(t, tinyConfig(caption.Soft), 1)
	fresh := func() *safetensors.File {
		f, err := m.File()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	editConfig := func(edit func(map[string]any)) func(*safetensors.File) { return modeltest.EditConfig(t, edit) }
	for _, tc := range []struct {
		name string
		edit func(*safetensors.File)
		want error
		text string
	}{
		{"kind", func(f *safetensors.File) { f.Kind = "asr" }, safetensors.ErrKind, "asr"},
		{"unknown config field", editConfig(func(c map[string]any) { c["layers"] = 2 }), safetensors.ErrMismatch, "layers"},
		{"bad attention", editConfig(func(c map[string]any) { c["attention"] = "medium" }), caption.ErrConfig, `attention = "medium"`},
		{"negative hidden", editConfig(func(c map[string]any) { c["hidden"] = -4 }), caption.ErrConfig, "hidden = -4"},
		{"huge hidden", editConfig(func(c map[string]any) { c["hidden"] = 1 << 40 }), caption.ErrConfig, "hidden = 1099511627776"},
		{"config lies about sizes", editConfig(func(c map[string]any) { c["hidden"] = 4000 }), safetensors.ErrMismatch, "the config needs"},
		{"vocab size", editConfig(func(c map[string]any) { c["vocab"] = 7 }), caption.ErrConfig, "vocab = 7, but attend.vocab lists 19"},
		{"vocab without specials", func(f *safetensors.File) { f.Vocab = append([]string{"x"}, f.Vocab[1:]...) }, caption.ErrVocab, "must start with"},
		{"duplicate word", func(f *safetensors.File) { f.Vocab[5] = f.Vocab[4] }, caption.ErrVocab, "is token 4 and token 5"},
		{"NaN weight", func(f *safetensors.File) { f.Tensors[3].Data[2] = float32(math.NaN()) }, safetensors.ErrCorrupt, "holds NaN at 2"},
		{"renamed tensor", func(f *safetensors.File) { f.Tensors[0].Name = "embed.tabel" }, safetensors.ErrMismatch, "embed.tabel"},
		{"hard options on soft attention", editConfig(func(c map[string]any) { c["hard"] = map[string]any{"entropy": 0.1} }), caption.ErrConfig, "hard options need"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fresh()
			tc.edit(f)
			_, err := caption.Load(f)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
				t.Errorf("error %v, want %v with %q", err, tc.want, tc.text)
			}
		})
	}
}
