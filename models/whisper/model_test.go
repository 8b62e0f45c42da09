package whisper

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/models/safetensors"
)

// bundle returns the path of a file of the shared Whisper reference
// bundle, skipping the test without it.
func bundle(t testing.TB, name string) string {
	t.Helper()
	p, err := shareddata.Lookup(filepath.Join("whisper", name))
	if err != nil {
		t.Skip(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Skipf("no %s: %v", p, err)
	}
	return p
}

// referenceTensors opens a bundle's NAME.reference.safetensors.
func referenceTensors(t testing.TB, model string) *safetensors.Reader {
	t.Helper()
	f, err := os.Open(bundle(t, model+".reference.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	st, _ := f.Stat()
	r, err := safetensors.NewReader(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// referenceJSON decodes a bundle's NAME.reference.json into v.
func referenceJSON(t testing.TB, model string, v any) {
	t.Helper()
	data, err := os.ReadFile(bundle(t, model+".reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}

// relMaxDiff returns max|a−b| / max|b|.
func relMaxDiff(a, b []float32) float64 {
	var d, s float64
	for i := range b {
		d = max(d, math.Abs(float64(a[i]-b[i])))
		s = max(s, math.Abs(float64(b[i])))
	}
	return d / s
}

func mustFloats(t testing.TB, r *safetensors.Reader, name string) []float32 {
	t.Helper()
	v, err := r.Float32s(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestEncoderAndPromptLogits feeds openai/whisper's own log-mel of each
// clip to the encoder and checks its output (within 1e-3 of its scale),
// then the logits after the start-of-transcript sequence.
func TestEncoderAndPromptLogits(t *testing.T) {
	for _, tc := range []struct{ model, file string }{
		{"small-en", "small-en.hf.safetensors"},
	} {
		m, err := LoadSafetensors(bundle(t, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		ref := referenceTensors(t, tc.model)
		var js struct {
			Clips map[string]map[string]json.RawMessage `json:"clips"`
		}
		referenceJSON(t, tc.model, &js)
		for _, clip := range []string{"jfk", "harvard36"} {
			t.Run(tc.file+"/"+clip, func(t *testing.T) {
				enc, err := m.Encode(mustFloats(t, ref, clip+".mel"))
				if err != nil {
					t.Fatal(err)
				}
				if d := relMaxDiff(enc.Data, mustFloats(t, ref, clip+".encoder")); d > 1e-3 {
					t.Errorf("encoder output differs by %.3g of its scale", d)
				} else {
					t.Logf("encoder: max difference %.3g of its scale", d)
				}
				var kind struct {
					Prompt []int `json:"prompt"`
				}
				if err := json.Unmarshal(js.Clips[clip]["f16"], &kind); err != nil {
					t.Fatal(err)
				}
				logits, err := m.NewDecoder(enc, false).Forward(kind.Prompt)
				if err != nil {
					t.Fatal(err)
				}
				want := mustFloats(t, ref, clip+".prompt_logits")
				var got []float32
				for _, row := range logits {
					got = append(got, row...)
				}
				if d := relMaxDiff(got, want); d > 1e-3 {
					t.Errorf("prompt logits differ by %.3g of their scale", d)
				} else {
					t.Logf("prompt logits: max difference %.3g of their scale", d)
				}
			})
		}
	}
}
