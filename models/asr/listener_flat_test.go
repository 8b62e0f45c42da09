package asr_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/asr"
)

// TestListenerFlatConfig checks listener_flat's validation and its time
// reduction (TestPhoneFileRoundTrip checks that a model without flat
// layers writes no listener_flat, so existing files keep their JSON).
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
		})
	}
}
