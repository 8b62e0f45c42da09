package asr_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestSpellerGradientsFD checks the teacher-forced speller graph's parameter
// gradients against central finite differences of its own float64 loss.
// The widths H = D = 256 are the regression case: gorgonia's Slice hashes
// its bounds as bytes, so with gorgonia.Concat the gradient slices [0:256]
// and [256:512] of [h ; ctx] were one node and the context received the
// state's gradient (every attention and LSTM gradient was wrong).
func TestSpellerGradientsFD(t *testing.T) {
	tests := []struct {
		name    string
		H, D, A int
	}{
		{"H=D=256", 256, 256, 8},
		{"H=D=24", 24, 24, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			decoderFD(t, tc.H, tc.D, tc.A)
		})
	}
}

func decoderFD(t *testing.T, H, D, A int) {
	const B, T, S, V, E = 2, 3, 2, 5, 4
	dt := tensor.Float64
	r := rand.New(rand.NewPCG(7, 7))
	ps := models.NewParams(dt, r)
	att, err := attention.NewAdditive(ps, "dec.att", H, D, A)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := asr.NewSpeller(ps, "dec", asr.SpellerConfig{Vocab: V, Embed: E, Hidden: H}, att)
	if err != nil {
		t.Fatal(err)
	}
	mem := make([]float32, B*T*D)
	for i := range mem {
		mem[i] = float32(r.NormFloat64())
	}
	mask := []float32{1, 1, 1, 1, 1, 0}
	decIn := []int{0, 0, 3, 1}   // (S, B)
	targets := []int{3, 1, 4, 2} // (S·B)
	weights := []float32{0.5, 0.5, 0.5, 0.5}

	type inputs struct{ m, k, d, t, w *gorgonia.Node }
	bs := models.NewBuckets(ps, func(g *gorgonia.ExprGraph, bd *models.Binding, _ struct{}) (*gorgonia.Node, inputs, error) {
		x := inputs{
			gorgonia.NewTensor(g, dt, 3, gorgonia.WithShape(B, T, D), gorgonia.WithName("m")),
			gorgonia.NewMatrix(g, dt, gorgonia.WithShape(B, T), gorgonia.WithName("k")),
			gorgonia.NewMatrix(g, dt, gorgonia.WithShape(S, B), gorgonia.WithName("d")),
			gorgonia.NewVector(g, dt, gorgonia.WithShape(S*B), gorgonia.WithName("t")),
			gorgonia.NewVector(g, dt, gorgonia.WithShape(S*B), gorgonia.WithName("w")),
		}
		keys, err := dec.Attention.PrepareNodes(bd, x.m, x.k)
		if err != nil {
			return nil, x, err
		}
		u, err := dec.Unroll(bd, keys, x.d)
		if err != nil {
			return nil, x, err
		}
		l, err := models.CrossEntropy(u.Logits, x.t, x.w, 0)
		return l, x, err
	})
	gr, err := bs.Get(struct{}{})
	if err != nil {
		t.Fatal(err)
	}
	for _, let := range []struct {
		n *gorgonia.Node
		v *tensor.Dense
	}{
		{gr.Inputs.m, models.FloatTensor(dt, mem, B, T, D)},
		{gr.Inputs.k, models.FloatTensor(dt, mask, B, T)},
		{gr.Inputs.d, models.IntTensor(dt, decIn, S, B)},
		{gr.Inputs.t, models.IntTensor(dt, targets, S*B)},
		{gr.Inputs.w, models.FloatTensor(dt, weights, S*B)},
	} {
		if err := gorgonia.Let(let.n, let.v); err != nil {
			t.Fatal(err)
		}
	}
	names := []string{"dec.att.v", "dec.att.w", "dec.att.u", "dec.lstm.wx", "dec.lstm.wh", "dec.lstm.b", "dec.embed.table", "dec.out.w"}
	modeltest.CheckParamGradients[float64](t, ps, gr.Run, names, 1e-5, 6, 3, func(fd, g float64) bool {
		return math.Abs(fd-g)/math.Max(math.Abs(fd)+math.Abs(g), 1e-4) <= 1e-5
	})
}
