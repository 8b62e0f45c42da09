package asr_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/modeltest"
)

// TestAddListenerLayers grows a model with CTC and phone heads by flat
// layers and checks that the old parameters keep their values, the new
// ones follow the seed and have the damped output gate, the grown model
// has New's layout (so its file loads), and that it encodes and decodes
// a toy utterance nearly as before.
func TestAddListenerLayers(t *testing.T) {
	base := func() *asr.Model {
		m, err := asr.New(phoneConfig(0.3, 0.2, 1), nil, 5)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	orig := base()
	ex := toyUtterance(rand.New(rand.NewPCG(5, 6)), orig.Vocab, "a dog ate", 8)
	var ws asr.Workspace
	e, err := orig.Encode(&ws, ex.Features, ex.Frames)
	if err != nil {
		t.Fatal(err)
	}
	before := &asr.Encoded{T: e.T, D: e.D, Memory: slices.Clone(e.Memory), CTCLogProbs: slices.Clone(e.CTCLogProbs)}
	tokens, err := orig.Vocab.Encode("a dog ate")
	if err != nil {
		t.Fatal(err)
	}
	forced, err := orig.Align(&ws, before, tokens)
	if err != nil {
		t.Fatal(err)
	}
	wantLP := slices.Clone(forced.LogProbs)
	var damped float64 // max |Δh| after one layer
	for _, n := range []int{1, 2} {
		a, b, c := base(), base(), base()
		for _, g := range []struct {
			m    *asr.Model
			seed uint64
		}{{a, 9}, {b, 9}, {c, 10}} {
			if err := g.m.AddListenerLayers(n, g.seed); err != nil {
				t.Fatal(err)
			}
		}
		if a.Config.ListenerLayers != 2+n || a.Config.ListenerFlat != n || a.Config.Reduction() != orig.Config.Reduction() {
			t.Errorf("+%d: config %+v", n, a.Config)
		}
		top := a.Listener.Layers[len(a.Listener.Layers)-1]
		if !slices.Equal(top.Fwd.Wx.F32(), b.Listener.Layers[len(b.Listener.Layers)-1].Fwd.Wx.F32()) ||
			slices.Equal(top.Fwd.Wx.F32(), c.Listener.Layers[len(c.Listener.Layers)-1].Fwd.Wx.F32()) {
			t.Errorf("+%d: the new layers' initialization does not follow the seed", n)
		}
		H := a.Config.ListenerHidden
		if bias := top.Bwd.B.F32(); bias[2*H] != -3 || bias[3*H-1] != -3 || bias[H] != 1 || bias[3*H] != 0 {
			t.Errorf("+%d: new layer's bias [i f o g] %v, want output gate −3, forget 1", n, bias)
		}
		for _, p := range orig.Params.All() {
			q, _ := a.Params.Get(p.Name)
			if q == nil || !slices.Equal(p.F32(), q.F32()) {
				t.Errorf("+%d: %s changed", n, p.Name)
			}
		}
		fresh, err := asr.New(a.Config, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Params.Names(), fresh.Params.Names()) || a.Params.Count() != a.Config.Parameters(a.Vocab.Size()) {
			t.Errorf("+%d: parameters %v, New's order is %v", n, a.Params.Names(), fresh.Params.Names())
		}
		f, err := a.File()
		if err != nil {
			t.Fatal(err)
		}
		if back, err := asr.Load(f); err != nil || back.Config != a.Config {
			t.Errorf("+%d: reloaded: %v", n, err)
		}

		// The grown model: the same frames, nearly the same encoding, CTC
		// posteriors and speller log-probabilities of the transcript
		// (bounds about twice the ones measured: 5 % and 8 % of max |h|,
		// 0.016 and 0.032 for CTC, 0.010 and 0.009 for the speller).
		g, err := a.Encode(&ws, ex.Features, ex.Frames)
		if err != nil {
			t.Fatal(err)
		}
		if g.T != before.T {
			t.Fatalf("+%d: %d encoder frames, before %d", n, g.T, before.T)
		}
		scale := 0.0
		for _, v := range before.Memory {
			scale = math.Max(scale, math.Abs(float64(v)))
		}
		dMem := modeltest.MaxAbsDiff(g.Memory, before.Memory)
		dCTC := modeltest.MaxAbsDiff(g.CTCLogProbs, before.CTCLogProbs)
		if n == 1 {
			damped = dMem
		}
		fg, err := a.Align(&ws, g, tokens)
		if err != nil {
			t.Fatal(err)
		}
		dLP := modeltest.MaxAbsDiff(fg.LogProbs, wantLP)
		t.Logf("+%d: max |Δh| = %.3g of max |h| = %.3g (%.1f%%); max |Δ log p_ctc| = %.3g; max |Δ log p_att| = %.3g", n, dMem, scale, 100*dMem/scale, dCTC, dLP)
		if dMem > 0.1*float64(n)*scale || dCTC > 0.035*float64(n) || dLP > 0.025 {
			t.Errorf("+%d: max |Δh| = %.3g (max |h| %.3g), max |Δ log p_ctc| = %.3g, max |Δ log p_att| = %.3g: the grown model drifted", n, dMem, scale, dCTC, dLP)
		}
	}

	// The damping is what keeps it close: with a new model's output-gate
	// bias (0) the branch is several times larger (measured: 15×).
	undamped := base()
	if err := undamped.AddListenerLayers(1, 9); err != nil {
		t.Fatal(err)
	}
	for _, d := range undamped.Listener.Layers[2:] {
		H := undamped.Config.ListenerHidden
		clear(d.Fwd.B.F32()[2*H : 3*H])
		clear(d.Bwd.B.F32()[2*H : 3*H])
	}
	g, err := undamped.Encode(&ws, ex.Features, ex.Frames)
	if err != nil {
		t.Fatal(err)
	}
	if d := modeltest.MaxAbsDiff(g.Memory, before.Memory); d < 5*damped {
		t.Errorf("output-gate bias 0: max |Δh| = %.3g, with −3 %.3g; want the damping to matter", d, damped)
	}
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "adding 0 listener layers"}, {5, "listener_layers 7"}} {
		if err := base().AddListenerLayers(tc.n, 1); !errors.Is(err, asr.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("AddListenerLayers(%d): error %v, want ErrConfig with %q", tc.n, err, tc.want)
		}
	}
}
