package models_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// regression is the input of a least-squares bucket graph.
type regression struct{ x, y *gorgonia.Node }

// buildRegression makes loss = mean((x·W − y)²) for a batch of key rows.
func buildRegression(g *gorgonia.ExprGraph, b *models.Binding, rows int) (*gorgonia.Node, regression, error) {
	x := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(rows, 3), gorgonia.WithName("x"))
	y := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(rows, 1), gorgonia.WithName("y"))
	pred, err := gorgonia.Mul(x, b.Node("w"))
	if err != nil {
		return nil, regression{}, err
	}
	loss, err := meanSquaredError(pred, y)
	return loss, regression{x, y}, err
}

// meanSquaredError is mean((pred − y)²).
func meanSquaredError(pred, y *gorgonia.Node) (*gorgonia.Node, error) {
	diff, err := gorgonia.Sub(pred, y)
	if err != nil {
		return nil, err
	}
	sq, err := gorgonia.Square(diff)
	if err != nil {
		return nil, err
	}
	return gorgonia.Mean(sq)
}

// trainRegression fits y = x·[1 −2 3] for steps steps with batches of two
// sizes, one bucket graph each, and returns the loss trace.
func trainRegression(t *testing.T, seed uint64, maxGraphs, steps int) ([]float64, *models.Params, int) {
	rng := rand.New(rand.NewPCG(seed, 9))
	ps := models.NewParams(tensor.Float64, rng)
	ps.New("w", models.GlorotUniform, 3, 1)
	ps.New("unused", models.Zeros, 2)
	buckets := models.NewBuckets(ps, buildRegression)
	buckets.MaxGraphs = maxGraphs
	defer buckets.Close()
	opt := models.NewAdam(ps, &models.AdamOptions{LR: 0.05})
	truth := []float64{1, -2, 3}
	var losses []float64
	for step := 0; step < steps; step++ {
		rows := []int{4, 7}[step%2]
		gr, err := buckets.Get(rows)
		if err != nil {
			t.Fatal(err)
		}
		xs, ys := make([]float64, rows*3), make([]float64, rows)
		for r := 0; r < rows; r++ {
			for c := 0; c < 3; c++ {
				xs[r*3+c] = rng.NormFloat64()
				ys[r] += xs[r*3+c] * truth[c]
			}
		}
		if err := gorgonia.Let(gr.Inputs.x, tensor.New(tensor.WithShape(rows, 3), tensor.WithBacking(xs))); err != nil {
			t.Fatal(err)
		}
		if err := gorgonia.Let(gr.Inputs.y, tensor.New(tensor.WithShape(rows, 1), tensor.WithBacking(ys))); err != nil {
			t.Fatal(err)
		}
		loss, err := gr.Run()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := opt.Step(); err != nil {
			t.Fatal(err)
		}
		losses = append(losses, loss)
		if maxGraphs > 0 && buckets.Len() > maxGraphs {
			t.Fatalf("%d graphs compiled, MaxGraphs is %d", buckets.Len(), maxGraphs)
		}
	}
	return losses, ps, buckets.Len()
}

func TestBucketsShareWeightsAndLearn(t *testing.T) {
	losses, ps, n := trainRegression(t, 5, 0, 300)
	if n != 2 {
		t.Errorf("compiled %d graphs, want one per bucket (2)", n)
	}
	if last := losses[len(losses)-1]; !(last < 1e-3*losses[0]) {
		t.Errorf("loss %v → %v: did not learn", losses[0], last)
	}
	w, _ := ps.Get("w")
	for i, want := range []float64{1, -2, 3} {
		if got := w.Value.Data().([]float64)[i]; got < want-0.05 || got > want+0.05 {
			t.Errorf("w[%d] = %v, want ≈ %v", i, got, want)
		}
	}
	again, _, _ := trainRegression(t, 5, 0, 300)
	for i := range losses {
		if losses[i] != again[i] {
			t.Fatalf("step %d: loss %v vs %v: training is not deterministic for a seed", i, losses[i], again[i])
		}
	}
}

func TestBucketsReportBuildErrors(t *testing.T) {
	ps := models.NewParams(tensor.Float64, rand.New(rand.NewPCG(1, 1)))
	ps.New("w", models.Zeros, 3, 1)
	bs := models.NewBuckets(ps, func(g *gorgonia.ExprGraph, b *models.Binding, k int) (*gorgonia.Node, struct{}, error) {
		return nil, struct{}{}, fmt.Errorf("no such bucket %d", k)
	})
	if _, err := bs.Get(3); err == nil {
		t.Fatal("Get returned no error for a failing build")
	}
}

// TestBucketsEvictLeastRecentlyUsed caps the cache at one graph while the
// buckets alternate: every step rebuilds, and training must follow the
// same loss trace as with both graphs kept. Each eviction runs a garbage
// collection, so a few steps suffice: every one after the first evicts.
func TestBucketsEvictLeastRecentlyUsed(t *testing.T) {
	const steps = 12
	kept, _, _ := trainRegression(t, 6, 0, steps)
	evicting, _, n := trainRegression(t, 6, 1, steps)
	if n != 1 {
		t.Errorf("%d graphs left compiled, want 1", n)
	}
	for i := range kept {
		if kept[i] != evicting[i] {
			t.Fatalf("step %d: loss %v with eviction, %v without", i, evicting[i], kept[i])
		}
	}
}
