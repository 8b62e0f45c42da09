package whisper

import (
	"fmt"
	"math"
	"testing"

	"github.com/attend-go/attend/models/ggml"
)

// TestForwardRowsAndProbs checks the two passes that leave out rows of
// logits against Forward on the same tokens: ForwardRows' kept rows are
// Forward's rows (the same float32 products, within 1e-5 of the row's
// scale), ForwardProbs' probabilities the softmax of Forward's rows over
// the first n tokens (within 1e-6 relative: its log-sum-exp goes block by
// block), and both leave the cache as Forward does (the next step's
// logits are bit for bit the same). Generated models (bundle shape) in
// f32 (kept in float32: useHalfAVX2 off while it loads, as in purego
// builds), f16 and q8_0, whose token embeddings take each of
// targetProbs' paths.
func TestForwardRowsAndProbs(t *testing.T) {
	prompt := []int{50360, 400, 401, 402, 403, 404, 405, 406, 407, 408, 50257, 50362, 500, 501, 502, 503, 504, 505, 506, 507, 508}
	const n = 50256 // word timing's: the tokens before <|endoftext|>
	for _, tc := range []struct {
		name string
		m    func(t *testing.T) *Model
	}{
		{"f32", func(t *testing.T) *Model {
			defer func(v bool) { useHalfAVX2 = v }(useHalfAVX2)
			useHalfAVX2 = false
			m, err := fromGGML(generateModel(bundleShape, 9095).ggml(t, true), nil, "generated f32")
			if err != nil {
				t.Fatal(err)
			}
			return m
		}},
		{"f16", func(t *testing.T) *Model { return generatedFile(t, bundleShape, 9095, ggml.F16) }},
		{"q8_0", func(t *testing.T) *Model { return generatedFile(t, bundleShape, 9095, ggml.Q8_0) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.m(t)
			if emb := m.tokEmb; tc.name == "f32" && emb.f32 == nil {
				t.Fatalf("the token embedding is %d halves, %d quantized bytes, not float32", len(emb.half), len(emb.q))
			}
			audio, err := m.Encode(randomMel(m.Dims(), 12))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(audio.Release)
			full, rows, probs := m.NewDecoder(audio, nil), m.NewDecoder(audio, nil), m.NewDecoder(audio, nil)
			defer releaseDecoders([]TextDecoder{full, rows, probs})
			want, err := full.Forward(prompt)
			if err != nil {
				t.Fatal(err)
			}
			want = copyRows(want)

			keep := []int{10, len(prompt) - 1}
			got, err := rows.(RowsForwarder).ForwardRows(prompt, keep)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(keep) {
				t.Fatalf("ForwardRows gave %d rows for %d kept", len(got), len(keep))
			}
			for j, i := range keep {
				if d := maxAbsDiff(got[j], want[i]); d > 1e-5*maxAbs(want[i]) {
					t.Errorf("kept row %d (token %d): %v from Forward's", j, i, d)
				}
			}

			next := make([]int, len(prompt))
			for i := range next {
				next[i] = -1
				if i%3 != 0 {
					next[i] = (977 * (i + 1)) % n
				}
			}
			p, err := probs.(ProbsForwarder).ForwardProbs(prompt, next, n)
			if err != nil {
				t.Fatal(err)
			}
			for i, tok := range next {
				if tok < 0 {
					if p[i] != 0 {
						t.Errorf("row %d has no next token but probability %v", i, p[i])
					}
					continue
				}
				w := math.Exp(float64(want[i][tok]) - logSumExp(want[i][:n]))
				if math.Abs(p[i]-w) > 1e-6*w {
					t.Errorf("row %d: probability of %d is %v, Forward's softmax gives %v", i, tok, p[i], w)
				}
			}

			for name, d := range map[string]TextDecoder{"ForwardRows": rows, "ForwardProbs": probs} {
				if d.Len() != full.Len() {
					t.Errorf("after %s the cache holds %d tokens, after Forward %d", name, d.Len(), full.Len())
				}
			}
			step, err := full.Forward([]int{600})
			if err != nil {
				t.Fatal(err)
			}
			for name, d := range map[string]TextDecoder{"ForwardRows": rows, "ForwardProbs": probs} {
				s, err := d.Forward([]int{600})
				if err != nil {
					t.Fatal(err)
				}
				if diff := maxAbsDiff(s[0], step[0]); diff != 0 {
					t.Errorf("the step after %s differs from the one after Forward by %v", name, diff)
				}
			}
		})
	}
}

// TestForwardRowsErrors: rows to keep that do not ascend within the
// tokens, and next tokens outside the probabilities' range, are errors
// that leave the cache as it was.
func TestForwardRowsErrors(t *testing.T) {
	m := generatedFile(t, bundleShape, 9095, ggml.F16)
	audio, err := m.Encode(randomMel(m.Dims(), 12))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(audio.Release)
	d := m.NewDecoder(audio, nil)
	defer releaseDecoders([]TextDecoder{d})
	tokens := []int{50257, 50362, 400}
	for _, keep := range [][]int{{1, 1}, {2, 0}, {-1}, {3}} {
		if _, err := d.(RowsForwarder).ForwardRows(tokens, keep); err == nil {
			t.Errorf("keep %v: no error", keep)
		}
	}
	for _, tc := range []struct {
		next []int
		n    int
	}{{[]int{1, 2}, 100}, {[]int{1, 2, 100}, 100}, {[]int{1, 2, 3}, 0}, {[]int{1, 2, 3}, m.Dims().NVocab + 1}} {
		if _, err := d.(ProbsForwarder).ForwardProbs(tokens, tc.next, tc.n); err == nil {
			t.Errorf("next %v over %d tokens: no error", tc.next, tc.n)
		}
	}
	if d.Len() != 0 {
		t.Errorf("failed passes left %d tokens in the cache", d.Len())
	}
}

func copyRows(rows [][]float32) [][]float32 {
	out := make([][]float32, len(rows))
	for i, r := range rows {
		out[i] = append([]float32(nil), r...)
	}
	return out
}

func maxAbsDiff(a, b []float32) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("rows of %d and %d", len(a), len(b)))
	}
	d := 0.0
	for i := range a {
		d = math.Max(d, math.Abs(float64(a[i])-float64(b[i])))
	}
	return d
}

func maxAbs(a []float32) float64 {
	m := 0.0
	for _, v := range a {
		m = math.Max(m, math.Abs(float64(v)))
	}
	return m
}
