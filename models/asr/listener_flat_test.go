package asr_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/asr"
)

// TestListenerFlatConfig checks listener_flat's validation and its time
// reduction, and that a config without flat layers writes no field for
// them (existing model files keep their JSON).
func TestListenerFlatConfig(t *testing.T) {
	for _, tc := range []struct {
		name         string
		layers, flat int
		reduction    int    // with Stack 2
		want         string // "" for valid
	}{
		{"none", 2, 0, 4, ""},
		{"one of three", 3, 1, 4, ""},
		{"two of four", 4, 2, 4, ""},
		{"two of three", 3, 2, 2, ""},
		{"negative", 2, -1, 0, "listener_flat = -1, want [0, 2)"},
		{"every layer", 2, 2, 0, "listener_flat = 2, want [0, 2): the first of the 2 listener layers"},
		{"the only layer", 1, 1, 0, "listener_flat = 1, want [0, 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tinyConfig(0)
			c.ListenerLayers, c.ListenerFlat = tc.layers, tc.flat
			err := c.Defaults().Validate()
			if tc.want == "" && err != nil || tc.want != "" && (!errors.Is(err, asr.ErrConfig) || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("Validate = %v, want %q", err, tc.want)
			}
			if tc.want != "" {
				return
			}
			if got := c.Reduction(); got != tc.reduction {
				t.Errorf("Reduction = %d, want %d", got, tc.reduction)
			}
			m, err := asr.New(c, nil, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := m.EncoderLength(29), (29+tc.reduction-1)/tc.reduction; got != want {
				t.Errorf("EncoderLength(29) = %d, want ⌈29/%d⌉ = %d", got, tc.reduction, want)
			}
			f, err := m.File()
			if err != nil {
				t.Fatal(err)
			}
			var raw map[string]any
			if err := json.Unmarshal(f.Config, &raw); err != nil {
				t.Fatal(err)
			}
			if _, has := raw["listener_flat"]; has != (tc.flat > 0) {
				t.Errorf("config JSON %s: listener_flat present %v, want %v", f.Config, has, tc.flat > 0)
			}
		})
	}
}
