package whisper

import "testing"

func TestReleasedName(t *testing.T) {
	large := Dims{NMels: 80, NAudioCtx: 1500, NAudioState: 1280, NAudioHead: 20, NAudioLayer: 32,
		NVocab: 51865, NTextCtx: 448, NTextState: 1280, NTextHead: 20, NTextLayer: 32}
	v3 := large
	v3.NMels, v3.NVocab = 128, 51866
	turbo := v3
	turbo.NTextLayer = 4
	tinyML := tinyDims
	tinyML.NVocab = 51865
	for _, tc := range []struct {
		d     Dims
		name  string
		heads int // how many alignment heads openai/whisper lists
	}{
		{tinyDims, "tiny.en", 8},
		{tinyML, "tiny", 6},
		{baseDims, "base.en", 5},
		{large, "large-v2", 23},
		{v3, "large-v3", 10},
		{turbo, "large-v3-turbo", 6},
		{Dims{NMels: 80, NAudioCtx: 1500, NAudioState: 64, NAudioHead: 4, NAudioLayer: 2, NVocab: 51864, NTextCtx: 448, NTextState: 64, NTextHead: 4, NTextLayer: 2}, "", 4},
	} {
		name, ok := tc.d.ReleasedName()
		if name != tc.name || ok != (tc.name != "") {
			t.Errorf("%+v: ReleasedName %q, %v; want %q", tc.d, name, ok, tc.name)
		}
		if h := AlignmentHeadsFor(tc.d); len(h) != tc.heads {
			t.Errorf("%q: %d alignment heads, want %d", tc.name, len(h), tc.heads)
		}
	}
}
