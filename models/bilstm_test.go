package models_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestBiLSTMGradients(t *testing.T) {
	for i, c := range seqCases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 13))
			checkGrad(t, models.NewBiLSTMKernel, seqInputs(r, c.T, 3, 2, 2, c.lengths))
		})
	}
}

// TestBiLSTMFeatureGradients checks the kernel of a BiLSTM whose input
// needs no gradient (a first layer over features): the weights' gradients
// are still right, without ∂L/∂x.
func TestBiLSTMFeatureGradients(t *testing.T) {
	for i, c := range seqCases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 13))
			checkGrad(t, models.NewBiLSTMFeatureKernel, seqInputs(r, c.T, 3, 2, 2, c.lengths))
		})
	}
}

// TestBiLSTMMatchesSeparateSequences checks the padding semantics: each
// sequence of a padded batch gets exactly what it gets alone, the backward
// direction starting at its own last frame, and padded frames are zero.
func TestBiLSTMMatchesSeparateSequences(t *testing.T) {
	const I, H = 3, 4
	for i, c := range seqCases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 14))
			ps := models.NewParams(tensor.Float32, r)
			l := models.NewBiLSTM(ps, "enc", I, H)
			randomizeParams(ps, r)
			B := len(c.lengths)
			x := toF32(modeltest.Random(r, 1, B, c.T, I))
			var ws models.LSTMWorkspace
			got, err := l.Forward(&ws, nil, x.Data().([]float32), B, c.T, c.lengths)
			if err != nil {
				t.Fatal(err)
			}
			fwd := unrollSteps(l.Fwd, x.Data().([]float32), c.T, c.lengths, false)
			bwd := unrollSteps(l.Bwd, x.Data().([]float32), c.T, c.lengths, true)
			want := make([]float32, 0, len(got))
			for f := range B * c.T {
				want = append(append(want, fwd[f*H:(f+1)*H]...), bwd[f*H:(f+1)*H]...)
			}
			if d := modeltest.MaxAbsDiff(got, want); d > 1e-6 {
				t.Errorf("batched and separate sequences differ by %g", d)
			}
			graph := runGraph(t, ps, []*tensor.Dense{x, ints(tensor.Float32, []int{B}, c.lengths...)}, func(b *models.Binding, in gorgonia.Nodes) (*gorgonia.Node, error) {
				return l.Apply(b, in[0], in[1])
			})
			if !graph.Shape().Eq(tensor.Shape{B, c.T, 2 * H}) {
				t.Fatalf("graph shape %v, want (%d, %d, %d)", graph.Shape(), B, c.T, 2*H)
			}
			if d := modeltest.MaxAbsDiff(graph.Data().([]float32), got); d > 1e-5 {
				t.Errorf("eager and graph differ by %g", d)
			}
		})
	}
}

// Padded frames' contents must not matter.
func TestBiLSTMIgnoresPadding(t *testing.T) {
	const B, T, I, H = 2, 4, 2, 3
	r := rand.New(rand.NewPCG(3, 15))
	ps := models.NewParams(tensor.Float32, r)
	l := models.NewBiLSTM(ps, "enc", I, H)
	lengths := []int{2, 4}
	x := toF32(modeltest.Random(r, 1, B, T, I)).Data().([]float32)
	var ws models.LSTMWorkspace
	clean, err := l.Forward(&ws, nil, x, B, T, lengths)
	if err != nil {
		t.Fatal(err)
	}
	clean = slices.Clone(clean)
	for i := 2 * I; i < T*I; i++ { // sequence 0, frames 2 and 3
		x[i] = 1e3
	}
	noisy, err := l.Forward(&ws, nil, x, B, T, lengths)
	if err != nil {
		t.Fatal(err)
	}
	if d := modeltest.MaxAbsDiff(clean, noisy); d != 0 {
		t.Errorf("padding changed the output by %g", d)
	}
}

func ExampleBiLSTM_Forward() {
	r := rand.New(rand.NewPCG(1, 2))
	ps := models.NewParams(tensor.Float32, r)
	enc := models.NewBiLSTM(ps, "listener.l0", 2, 3)
	x := make([]float32, 2*4*2) // batch 2, 4 frames of 2 features
	for i := range x {
		x[i] = float32(i%5) / 5
	}
	var ws models.LSTMWorkspace
	y, err := enc.Forward(&ws, nil, x, 2, 4, []int{4, 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("output values:", len(y), "= 2 × 4 × (3+3)")
	fmt.Println("padded frame of sequence 1:", y[(1*4+3)*6:(1*4+4)*6])
	// Output:
	// output values: 48 = 2 × 4 × (3+3)
	// padded frame of sequence 1: [0 0 0 0 0 0]
}
