package whisper

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/attend-go/attend/models/ggml"
)

// TestForwardBatch steps five clones of one decoder together
// (forwardEach, as beam search does) and one by one: every row's logits
// must be bit for bit its decoder's own Forward's (every product is the
// one-row kernel's), with one goroutine and with several (shares of the
// token embedding), step after step (the caches stay equal). The model
// is generated (bundle shape, a seed of its own) in f16 and quantized as
// whisper.cpp's quantizer does, and a tiny-shaped one in f16.
func TestForwardBatch(t *testing.T) {
	for _, tc := range []struct {
		dims  Dims
		typ   ggml.Type
		procs int
	}{
		{bundleShape, ggml.F16, 1}, {bundleShape, ggml.F16, 3}, {bundleShape, ggml.Q5_0, 1},
		{bundleShape, ggml.Q8_0, 2}, {bundleShape, ggml.Q4_1, 1}, {tinyDims, ggml.F16, 2},
	} {
		t.Run(fmt.Sprintf("width %d %v GOMAXPROCS=%d", tc.dims.NTextState, tc.typ, tc.procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(tc.procs))
			start := promptedDecoder(t, generatedFile(t, tc.dims, 9091, tc.typ))
			const beams = 5
			together, alone := make([]TextDecoder, beams), make([]TextDecoder, beams)
			for k := range beams {
				together[k], alone[k] = start.Clone(), start.Clone()
			}
			if batchOf(together) == nil {
				t.Fatal("five clones of one decoder do not step as a batch")
			}
			for step := range 4 {
				tokens := make([]int, beams)
				for k := range tokens {
					tokens[k] = 300 + 97*k + 13*step
				}
				got, err := forwardEach(together, tokens)
				if err != nil {
					t.Fatal(err)
				}
				for k, d := range alone {
					want, err := d.Forward(tokens[k : k+1])
					if err != nil {
						t.Fatal(err)
					}
					for i, v := range want[0] {
						if got[k][i] != v {
							t.Fatalf("step %d, sequence %d: logit %d is %v batched, %v alone", step, k, i, got[k][i], v)
						}
					}
					if together[k].Len() != d.Len() {
						t.Errorf("step %d, sequence %d: length %d batched, %d alone", step, k, together[k].Len(), d.Len())
					}
				}
			}
		})
	}
}

// generatedFile returns a random model of d and seed in typ (F16, or
// quantized by ggml.QuantizeFile), loaded from its ggml form.
func generatedFile(t *testing.T, d Dims, seed uint64, typ ggml.Type) *Model {
	t.Helper()
	f := generateModel(d, seed).ggml(t, false)
	if typ != ggml.F16 {
		var err error
		if f, err = ggml.QuantizeFile(f, typ); err != nil {
			t.Fatal(err)
		}
	}
	m, err := fromGGML(f, nil, fmt.Sprintf("generated %v", typ))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// promptedDecoder returns a decoder of m over a random window that has
// taken the start of transcript and <|notimestamps|>; the window's
// memory goes back when the test ends.
func promptedDecoder(t *testing.T, m *Model) TextDecoder {
	t.Helper()
	audio, err := m.Encode(randomMel(m.Dims(), 11))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(audio.Release)
	d := m.NewDecoder(audio, nil)
	if _, err := d.Forward([]int{50257, 50362}); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestBatchOf checks which decoders step as one batch: distinct decoders
// of one model over the same audio, none recording; anything else steps
// one by one (and so still works: forwardEach falls back).
func TestBatchOf(t *testing.T) {
	m := generatedFile(t, bundleShape, 9093, ggml.Q8_0)
	a1, err := m.Encode(randomMel(m.Dims(), 1))
	if err != nil {
		t.Fatal(err)
	}
	a2, err := m.Encode(randomMel(m.Dims(), 2))
	if err != nil {
		t.Fatal(err)
	}
	d1 := m.NewDecoder(a1, nil)
	for _, tc := range []struct {
		name  string
		decs  []TextDecoder
		batch bool
	}{
		{"clones", []TextDecoder{d1, d1.Clone(), d1.Clone()}, true},
		{"one", []TextDecoder{d1}, false},
		{"the same decoder twice", []TextDecoder{d1, d1}, false},
		{"other audio", []TextDecoder{d1, m.NewDecoder(a2, nil)}, false},
		{"recording", []TextDecoder{m.NewDecoder(a1, [][2]int{{0, 0}}), d1}, false},
		{"another network's decoder", []TextDecoder{d1, &fakeDecoder{}}, false},
	} {
		if got := batchOf(tc.decs) != nil; got != tc.batch {
			t.Errorf("%s: batch %v, want %v", tc.name, got, tc.batch)
		}
	}
	if _, err := forwardEach([]TextDecoder{d1, d1.Clone()}, []int{1, m.Dims().NVocab}); err == nil {
		t.Error("a token outside the vocabulary: no error")
	} else {
		t.Logf("a token outside the vocabulary: %v", err)
	}
}

// TestRearrangeReusesCaches checks that beam search's rearrangement
// copies a continued source into the cache of a source nobody continues
// (no new decoder per step) and that the copy then decodes bit for bit as
// a Clone of its source would.
func TestRearrangeReusesCaches(t *testing.T) {
	start := promptedDecoder(t, generatedFile(t, bundleShape, 9092, ggml.F16))
	decs := []TextDecoder{start.Clone(), start.Clone(), start.Clone()}
	for k, d := range decs {
		if _, err := d.Forward([]int{400 + k, 500 + k}); err != nil {
			t.Fatal(err)
		}
	}
	want := decs[0].Clone()
	out := rearrange(decs, []int{0, 0, 2})
	if out[0] != decs[0] || out[1] != decs[1] || out[2] != decs[2] {
		t.Fatalf("rearrange did not reuse the unused source's decoder: %p %p %p from %p %p %p", out[0], out[1], out[2], decs[0], decs[1], decs[2])
	}
	if out[1].Len() != want.Len() {
		t.Fatalf("the copy holds %d tokens, its source %d", out[1].Len(), want.Len())
	}
	got, err := out[1].Forward([]int{777})
	if err != nil {
		t.Fatal(err)
	}
	exp, err := want.Forward([]int{777})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range exp[0] {
		if got[0][i] != v {
			t.Fatalf("logit %d: %v from the reused cache, %v from a clone", i, got[0][i], v)
		}
	}
}

// TestStepsAnyThreadCount checks that a decoder's logits do not depend on
// GOMAXPROCS: the one-row products split the token embedding's rows, and
// the cross-attention its heads, among goroutines, each row and head
// computed as on one.
func TestStepsAnyThreadCount(t *testing.T) {
	for _, typ := range []ggml.Type{ggml.F16, ggml.Q8_0, ggml.Q5_0} {
		t.Run(typ.String(), func(t *testing.T) {
			m := generatedFile(t, bundleShape, 9094, typ)
			audio, err := m.Encode(randomMel(m.Dims(), 12))
			if err != nil {
				t.Fatal(err)
			}
			defer audio.Release()
			decode := func(procs int) [][]float32 {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				d := m.NewDecoder(audio, nil)
				var out [][]float32
				for _, tokens := range [][]int{{50257, 50362}, {400}, {1200}, {77}} {
					rows, err := d.Forward(tokens)
					if err != nil {
						t.Fatal(err)
					}
					for _, r := range rows {
						out = append(out, append([]float32(nil), r...))
					}
				}
				return out
			}
			want := decode(1)
			for _, procs := range []int{2, 3} {
				got := decode(procs)
				for i := range want {
					if !slices.Equal(got[i], want[i]) {
						t.Fatalf("GOMAXPROCS=%d: row %d of the logits differs from one thread's", procs, i)
					}
				}
			}
		})
	}
}
