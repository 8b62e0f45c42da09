package whisper

import (
	"os"
	"slices"
	"testing"

	"github.com/attend-go/attend/models/ggml"
	"github.com/attend-go/attend/models/safetensors"
)

// TestGeneratedLayoutMatchesBundle checks the generator's files against
// the bundle's, which whisper.cpp's converter and a transformers export
// wrote: a model of the bundle's dims must have the same ggml tensors
// (order, names, types, shapes), header, mel filters and vocabulary, and
// the same Hugging Face names and shapes. It is what makes the generated
// files stand for the ones users have; the parity tests themselves need
// no bundle.
func TestGeneratedLayoutMatchesBundle(t *testing.T) {
	want, err := ggml.ReadFile(bundle(t, "small-en.ggml-f16.bin"))
	if err != nil {
		t.Fatal(err)
	}
	h := want.Hyper
	d := Dims{NMels: h.NMels, NAudioCtx: h.NAudioCtx, NAudioState: h.NAudioState, NAudioHead: h.NAudioHead,
		NAudioLayer: h.NAudioLayer, NVocab: h.NVocab, NTextCtx: h.NTextCtx, NTextState: h.NTextState,
		NTextHead: h.NTextHead, NTextLayer: h.NTextLayer}
	g := generateModel(d, 1)
	got := g.ggml(t, false)
	if got.Hyper != want.Hyper {
		t.Errorf("hyper-parameters %+v, whisper.cpp's converter %+v", got.Hyper, want.Hyper)
	}
	if got.Filters.NMel != want.Filters.NMel || got.Filters.NFFT != want.Filters.NFFT {
		t.Errorf("filters %d×%d, converter %d×%d", got.Filters.NMel, got.Filters.NFFT, want.Filters.NMel, want.Filters.NFFT)
	} else if d := relMaxDiff(got.Filters.Data, want.Filters.Data); d > 1e-6 {
		t.Errorf("mel filters differ from the converter's by %.3g of their scale", d)
	}
	if !slices.EqualFunc(got.Vocab, want.Vocab, func(a, b []byte) bool { return string(a) == string(b) }) {
		t.Errorf("vocabulary of %d tokens differs from the converter's %d", len(got.Vocab), len(want.Vocab))
	}
	if len(got.Tensors) != len(want.Tensors) {
		t.Fatalf("%d tensors, converter %d", len(got.Tensors), len(want.Tensors))
	}
	for i := range want.Tensors {
		a, b := &got.Tensors[i], &want.Tensors[i]
		if a.Name != b.Name || a.Type != b.Type || !slices.Equal(a.Shape, b.Shape) {
			t.Errorf("tensor %d: %s %v %v, converter %s %v %v", i, a.Name, a.Type, a.Shape, b.Name, b.Type, b.Shape)
		}
	}

	hfPath := bundle(t, "small-en.hf.safetensors")
	fh, err := os.Open(hfPath)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	st, _ := fh.Stat()
	r, err := safetensors.NewReader(fh, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	wantShapes := map[string][]int{}
	for _, info := range r.Tensors() {
		wantShapes[info.Name] = info.Shape
	}
	hf := g.safetensorsFile(true, true)
	if len(hf.Tensors) != len(wantShapes) {
		t.Errorf("%d Hugging Face tensors, the bundle's file %d", len(hf.Tensors), len(wantShapes))
	}
	for _, tn := range hf.Tensors {
		if s, ok := wantShapes[tn.Name]; !ok || !slices.Equal(s, tn.Shape) {
			t.Errorf("Hugging Face tensor %s %v: the bundle's file has %v (present: %v)", tn.Name, tn.Shape, s, ok)
		}
	}
}
