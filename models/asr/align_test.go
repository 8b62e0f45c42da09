package asr_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// graphForward runs the training graph's forward pass (listener, then the
// teacher-forced speller, as BuildFunc wires them, without dropout) over a
// padded batch and returns each step's attention weights (S × (B, T')) and
// the logits (S·B, V).
func graphForward(t *testing.T, m *asr.Model, bt *asr.Batch) (weights [][]float32, logits []float32) {
	t.Helper()
	dt := tensor.Float32
	k := bt.Key
	Te := len(bt.Mask) / k.B
	g := gorgonia.NewGraph()
	b := m.Params.Bind(g)
	x := gorgonia.NodeFromAny(g, models.FloatTensor(dt, bt.X, k.B, k.T, len(bt.X)/(k.B*k.T)), gorgonia.WithName("x"))
	lengths := gorgonia.NodeFromAny(g, models.IntTensor(dt, bt.Lengths, k.B), gorgonia.WithName("lengths"))
	mask := gorgonia.NodeFromAny(g, models.FloatTensor(dt, bt.Mask, k.B, Te), gorgonia.WithName("mask"))
	decIn := gorgonia.NodeFromAny(g, models.IntTensor(dt, bt.DecIn, k.S, k.B), gorgonia.WithName("dec_in"))
	mem, _, err := m.Listener.Apply(b, x, lengths)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := m.Speller.Attention.PrepareNodes(b, mem, mask)
	if err != nil {
		t.Fatal(err)
	}
	u, err := m.Speller.Unroll(b, keys, decIn)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]gorgonia.Value, len(u.Weights))
	for i, w := range u.Weights {
		gorgonia.Read(w, &vals[i])
	}
	var lv gorgonia.Value
	gorgonia.Read(u.Logits, &lv)
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	for _, v := range vals {
		weights = append(weights, append([]float32(nil), v.Data().([]float32)...))
	}
	return weights, append([]float32(nil), lv.Data().([]float32)...)
}

func logSoftmax(x []float32) []float64 {
	mx := math.Inf(-1)
	for _, v := range x {
		mx = math.Max(mx, float64(v))
	}
	s := 0.0
	for _, v := range x {
		s += math.Exp(float64(v) - mx)
	}
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v) - mx - math.Log(s)
	}
	return out
}

// TestAlignMatchesGraph forces two transcripts of different lengths
// through the eager speller, one utterance at a time, and compares every
// step's attention weights and log-probabilities with the training
// graph's forward pass over both utterances in one padded batch.
func TestAlignMatchesGraph(t *testing.T) {
	flat := tinyConfig(0.3)
	flat.ListenerLayers, flat.ListenerFlat = 3, 1
	for _, tc := range []struct {
		name string
		cfg  asr.Config
	}{{"attention only", tinyConfig(0)}, {"joint CTC", tinyConfig(0.3)}, {"flat residual listener layer", flat}} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := asr.New(tc.cfg, nil, 7)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			texts := []string{"a dog ate", "cat"}
			var exs []asr.Example
			for _, s := range texts {
				exs = append(exs, toyUtterance(rng, m.Vocab, s, 8))
			}
			bt, err := m.MakeBatch(m.KeyFor(exs, 4, 4), exs) // padded in time and steps
			if err != nil {
				t.Fatal(err)
			}
			weights, logits := graphForward(t, m, bt)
			B, V, Tp := bt.Key.B, m.Vocab.Size(), len(bt.Mask)/bt.Key.B
			var ws asr.Workspace
			worst := 0.0
			for b, ex := range exs {
				e, err := m.Encode(&ws, ex.Features, ex.Frames)
				if err != nil {
					t.Fatal(err)
				}
				f, err := m.Align(&ws, e, ex.Tokens)
				if err != nil {
					t.Fatal(err)
				}
				if len(f.Alignment) != len(ex.Tokens) || len(f.LogProbs) != len(ex.Tokens) {
					t.Fatalf("%q: %d alignment rows and %d log-probabilities for %d tokens", texts[b], len(f.Alignment), len(f.LogProbs), len(ex.Tokens))
				}
				for i := 0; i <= len(ex.Tokens); i++ {
					lp := logSoftmax(logits[(i*B+b)*V : (i*B+b+1)*V])
					var d float64
					if i == len(ex.Tokens) {
						d = math.Abs(lp[asr.EOS] - float64(f.EndLogProb))
					} else {
						d = math.Abs(lp[ex.Tokens[i]] - float64(f.LogProbs[i]))
						g := weights[i][b*Tp : (b+1)*Tp]
						for j := range Tp {
							want := float32(0) // padding
							if j < e.T {
								want = f.Alignment[i][j]
							}
							d = math.Max(d, math.Abs(float64(g[j]-want)))
						}
					}
					worst = math.Max(worst, d)
					if d > 1e-5 {
						t.Errorf("%q step %d: eager and graph differ by %.3g", texts[b], i, d)
					}
				}
			}
			t.Logf("worst |eager − graph| = %.2g", worst)
		})
	}
}

// encodedToy encodes a toy utterance of text with an untrained model
// (no CTC head) drawn from seed.
func encodedToy(t *testing.T, seed uint64, text string) (*asr.Model, *asr.Workspace, *asr.Encoded) {
	t.Helper()
	m, err := asr.New(tinyConfig(0), nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	ex := toyUtterance(rand.New(rand.NewPCG(seed, 6)), m.Vocab, text, 8)
	ws := &asr.Workspace{}
	e, err := m.Encode(ws, ex.Features, ex.Frames)
	if err != nil {
		t.Fatal(err)
	}
	return m, ws, e
}

// TestAlignReproducesGreedy forces the greedy transcript of an untrained
// model back through Align: teacher forcing with the model's own choices
// is the same computation, so the alignments must be identical, and each
// forced token, the argmax of its step, is at least as likely as uniform.
func TestAlignReproducesGreedy(t *testing.T) {
	m, ws, e := encodedToy(t, 11, "go dog")
	r, err := decode.Decode(m, ws, e, &decode.Options{LengthPenalty: 1, Beam: 1, EOSThreshold: -1, NoFallback: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Tokens) == 0 {
		t.Fatal("greedy search returned nothing to force")
	}
	f, err := m.Align(ws, e, r.Tokens)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Tokens {
		for j, w := range r.Alignment[i] {
			if f.Alignment[i][j] != w {
				t.Fatalf("token %d frame %d: forced weight %v, greedy %v", i, j, f.Alignment[i][j], w)
			}
		}
		if f.LogProbs[i] > 0 || f.LogProbs[i] < -float32(math.Log(float64(m.Vocab.Size()))) {
			t.Errorf("token %d: log-probability %v of the greedy choice is below uniform", i, f.LogProbs[i])
		}
	}
	if ll := f.LogLikelihood(); ll > 0 || math.IsNaN(ll) {
		t.Errorf("log-likelihood %v", ll)
	}
}

func TestAlignRejectsBadTokens(t *testing.T) {
	m, ws, e := encodedToy(t, 1, "cat")
	for _, tc := range []struct {
		name   string
		tokens []int
		err    error
	}{
		{"EOS inside", []int{3, asr.EOS, 3}, asr.ErrTokens},
		{"negative", []int{-1}, asr.ErrTokens},
		{"past the vocabulary", []int{m.Vocab.Size()}, asr.ErrTokens},
		{"empty", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := m.Align(ws, e, tc.tokens)
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if err == nil && (len(f.Alignment) != 0 || f.EndLogProb > 0) {
				t.Errorf("empty transcript: %+v", f)
			}
		})
	}
}
