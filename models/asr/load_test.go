package asr_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/modeltest"
	"github.com/attend-go/attend/models/safetensors"
)

// TestParameters checks Config.Parameters against the scalars New
// allocates, with and without a CTC head, over one to three listener
// layers.
func TestParameters(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*asr.Config)
	}{
		{"tiny", func(*asr.Config) {}},
		{"tiny with CTC", func(c *asr.Config) { c.CTCWeight = 0.3 }},
		{"phone CTC head", func(c *asr.Config) { c.CTCWeight, c.PhoneCTCWeight = 0.3, 0.2 }},
		{"phone CTC head on layer 2 of 3", func(c *asr.Config) { c.ListenerLayers, c.PhoneCTCWeight, c.PhoneCTCLayer = 3, 0.2, 2 }},
		{"one listener layer", func(c *asr.Config) { c.ListenerLayers = 1 }},
		{"three listener layers, CTC", func(c *asr.Config) { c.ListenerLayers, c.CTCWeight = 3, 0.5 }},
		{"flat listener layer", func(c *asr.Config) { c.ListenerLayers, c.ListenerFlat = 3, 1 }},
		{"two flat layers, phone CTC head on the top one", func(c *asr.Config) {
			c.ListenerLayers, c.ListenerFlat, c.PhoneCTCWeight, c.PhoneCTCLayer = 4, 2, 0.2, 3
		}},
		{"wide location filters", func(c *asr.Config) { c.LocationFilters, c.LocationWidth = 7, 11 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tinyConfig(0)
			tc.edit(&cfg)
			m, err := asr.New(cfg, nil, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := m.Config.Parameters(m.Vocab.Size()), m.Params.Count(); got != want {
				t.Errorf("Parameters = %d, the model has %d", got, want)
			}
		})
	}
	def := asr.DefaultConfig()
	m, err := asr.New(def, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := def.Parameters(m.Vocab.Size()), m.Params.Count(); got != want {
		t.Errorf("default config: Parameters = %d, the model has %d", got, want)
	}
}

// TestLoadErrors checks that a file that does not fit the model is an
// error wrapping the right sentinel and saying what is wrong, before any
// parameter is allocated where the config and the tensors disagree.
func TestLoadErrors(t *testing.T) {
	m, err := asr.New(tinyConfig(0.3), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	fresh := func() *safetensors.File {
		f, err := m.File()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	editConfig := func(edit func(map[string]any)) func(*safetensors.File) { return modeltest.EditConfig(t, edit) }
	last := func(f *safetensors.File) *safetensors.Tensor { return &f.Tensors[len(f.Tensors)-1] }
	for _, tc := range []struct {
		name string
		edit func(*safetensors.File)
		want error
		text string
	}{
		{"kind", func(f *safetensors.File) { f.Kind = "caption" }, safetensors.ErrKind, "caption"},
		{"negative hidden", editConfig(func(c map[string]any) { c["speller_hidden"] = -4 }), asr.ErrConfig, "speller_hidden = -4"},
		{"even location width", editConfig(func(c map[string]any) { c["location_width"] = 4 }), asr.ErrConfig, "location_width = 4"},
		{"every listener layer flat", editConfig(func(c map[string]any) { c["listener_flat"] = 2 }), asr.ErrConfig, "listener_flat = 2, want [0, 2)"},
		{"flat layer the file lacks", editConfig(func(c map[string]any) { c["listener_layers"], c["listener_flat"] = 3, 1 }), safetensors.ErrMismatch, "the config needs"},
		{"config lies about sizes", editConfig(func(c map[string]any) { c["listener_hidden"] = 4000 }), safetensors.ErrMismatch, "the config needs"},
		{"huge hidden", editConfig(func(c map[string]any) { c["speller_hidden"] = 1 << 40 }), safetensors.ErrMismatch, "the config needs"},
		{"CTC weight without a CTC head", editConfig(func(c map[string]any) { c["ctc_weight"] = 0 }), safetensors.ErrMismatch, "the config needs"},
		{"duplicate character", func(f *safetensors.File) { f.Vocab[2] = f.Vocab[1] }, asr.ErrConfig, "twice"},
		{"NaN weight", func(f *safetensors.File) { f.Tensors[3].Data[2] = float32(math.NaN()) }, safetensors.ErrCorrupt, "holds NaN at 2"},
		{"infinite weight", func(f *safetensors.File) { last(f).Data[0] = float32(math.Inf(-1)) }, safetensors.ErrCorrupt, "holds -Inf at 0"},
		{"renamed tensor", func(f *safetensors.File) { f.Tensors[0].Name = "ctc.weight" }, safetensors.ErrMismatch, "ctc.weight"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fresh()
			tc.edit(f)
			_, err := asr.Load(f)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
				t.Errorf("error %v, want %v with %q", err, tc.want, tc.text)
			}
		})
	}
}
