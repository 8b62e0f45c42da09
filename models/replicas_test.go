package models_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// buildLinearRegression is buildRegression through a Linear layer "w"
// (one of our kernels): gorgonia's own Mul transposes its operands in
// place in its backward pass, shared weights included, so graphs that
// use it on a parameter must not run concurrently (the race detector
// reports buildRegression's).
func buildLinearRegression(g *gorgonia.ExprGraph, b *models.Binding, rows int) (*gorgonia.Node, regression, error) {
	x := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(rows, 3), gorgonia.WithName("x"))
	y := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(rows, 1), gorgonia.WithName("y"))
	pred, err := (&models.Linear{W: &models.Param{Name: "w.w"}, B: &models.Param{Name: "w.b"}, In: 3, Out: 1}).Apply(b, x)
	if err != nil {
		return nil, regression{}, err
	}
	loss, err := meanSquaredError(pred, y)
	return loss, regression{x, y}, err
}

// bindRegression feeds rows random inputs of y = x·[1 −2 3] to gr.
func bindRegression(t *testing.T, gr *models.Graph[regression], rows int, rng *rand.Rand) {
	t.Helper()
	xs, ys := make([]float64, rows*3), make([]float64, rows)
	for r := range rows {
		for c, w := range []float64{1, -2, 3} {
			xs[r*3+c] = rng.NormFloat64()
			ys[r] += xs[r*3+c] * w
		}
	}
	if err := gorgonia.Let(gr.Inputs.x, tensor.New(tensor.WithShape(rows, 3), tensor.WithBacking(xs))); err != nil {
		t.Fatal(err)
	}
	if err := gorgonia.Let(gr.Inputs.y, tensor.New(tensor.WithShape(rows, 1), tensor.WithBacking(ys))); err != nil {
		t.Fatal(err)
	}
}

// TestReplicasRun: running one graph per replica concurrently returns
// their losses in replica order and adds exactly what running them one
// after the other in that order adds; fewer graphs than replicas is
// fine, more is an error.
func TestReplicasRun(t *testing.T) {
	ps := models.NewParams(tensor.Float64, rand.New(rand.NewPCG(1, 1)))
	w := models.NewLinear(ps, "w", 3, 1, nil).W
	rs := models.NewReplicas(ps, 3, func(int) models.BuildFunc[int, regression] { return buildLinearRegression })
	defer rs.Close()
	for _, rows := range [][]int{{4, 3, 3}, {5, 2}} {
		var graphs []*models.Graph[regression]
		rng := rand.New(rand.NewPCG(2, 2))
		for i, n := range rows {
			gr, err := rs.Get(i, n)
			if err != nil {
				t.Fatal(err)
			}
			bindRegression(t, gr, n, rng)
			graphs = append(graphs, gr)
		}
		ps.ZeroGrads()
		losses, err := rs.Run(graphs)
		if err != nil {
			t.Fatal(err)
		}
		got := slices.Clone(w.Grad.Data().([]float64))
		ps.ZeroGrads()
		for i, gr := range graphs {
			loss, err := gr.Run()
			if err != nil {
				t.Fatal(err)
			}
			if loss != losses[i] {
				t.Errorf("rows %v: replica %d's loss %v, %v when run alone", rows, i, losses[i], loss)
			}
		}
		if want := w.Grad.Data().([]float64); !slices.Equal(got, want) {
			t.Errorf("rows %v: gradient %v from Run, %v from the graphs one by one", rows, got, want)
		}
	}
	if rs.N() != 3 || rs.Len() != 5 || rs.Builds() != 5 {
		t.Errorf("N %d, Len %d, Builds %d; want 3 replicas and 5 graphs", rs.N(), rs.Len(), rs.Builds())
	}
	gr, _ := rs.Get(0, 4)
	if _, err := rs.Run([]*models.Graph[regression]{gr, gr, gr, gr}); err == nil || !strings.Contains(err.Error(), "4 graphs for 3 replicas") {
		t.Errorf("four graphs for three replicas: err %v", err)
	}
}

func TestNewReplicasPanicsOnBadCount(t *testing.T) {
	for _, r := range []int{0, models.MaxReplicas + 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewReplicas(%d) did not panic", r)
				}
			}()
			models.NewReplicas(models.NewParams(tensor.Float64, nil), r, func(int) models.BuildFunc[int, regression] { return buildRegression })
		}()
	}
}
