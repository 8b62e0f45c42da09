package models_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestEmbeddingGradients(t *testing.T) {
	cases := []struct {
		name  string
		shape []int
		ids   []int
	}{
		{"vector", []int{4}, []int{2, 0, 4, 1}},
		{"repeats and padding", []int{2, 3}, []int{1, 1, models.PadID, 3, 1, models.PadID}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 3))
			inputs := []*tensor.Dense{ints(tensor.Float64, c.shape, c.ids...), modeltest.Random(r, 1, 5, 3)}
			checkGrad(t, models.NewEmbeddingKernel, inputs)
		})
	}
}

func TestEmbeddingEagerMatchesGraph(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 4))
	ps := models.NewParams(tensor.Float32, r)
	e := models.NewEmbedding(ps, "embed", 6, 4)
	ids := []int{5, 0, models.PadID, 5, 2, 1}
	got := runGraph(t, ps, []*tensor.Dense{ints(tensor.Float32, []int{2, 3}, ids...)}, func(b *models.Binding, in gorgonia.Nodes) (*gorgonia.Node, error) {
		return e.Apply(b, in[0])
	})
	want, err := e.Lookup(nil, ids)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Shape().Eq(tensor.Shape{2, 3, 4}) {
		t.Fatalf("shape %v, want (2, 3, 4)", got.Shape())
	}
	if d := modeltest.MaxAbsDiff(got.Data().([]float32), want); d > 1e-5 {
		t.Errorf("eager and graph differ by %g", d)
	}
	for j, v := range want[8:12] {
		if v != 0 {
			t.Errorf("padding embedding[%d] = %v, want 0", j, v)
		}
	}
}

func TestEmbeddingRejectsBadIDs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 5))
	ps := models.NewParams(tensor.Float32, r)
	e := models.NewEmbedding(ps, "embed", 6, 4)
	cases := []struct {
		name string
		ids  []float32
	}{
		{"too large", []float32{1, 6}},
		{"negative", []float32{-2, 1}},
		{"fractional", []float32{1.5, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ids := tensor.New(tensor.WithShape(2), tensor.WithBacking(c.ids))
			_, err := tryGraph(ps, []*tensor.Dense{ids}, func(b *models.Binding, in gorgonia.Nodes) (*gorgonia.Node, error) {
				return e.Apply(b, in[0])
			})
			// gorgonia's tape machine wraps errors without Unwrap, so the
			// graph path can only be checked by message.
			if err == nil || !strings.Contains(err.Error(), models.ErrBadIndex.Error()) {
				t.Errorf("graph: error %v, want ErrBadIndex", err)
			}
			if _, err := modeltest.Eager(models.NewEmbeddingKernel(), []*tensor.Dense{ids, ps.All()[0].Value}); !isBadIndex(err) {
				t.Errorf("kernel: error %v, want ErrBadIndex", err)
			}
		})
	}
	if _, err := e.Lookup(nil, []int{0, 6}); !isBadIndex(err) {
		t.Errorf("Lookup: error %v, want ErrBadIndex", err)
	}
}
