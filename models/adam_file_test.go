package models_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/safetensors"
	"gorgonia.org/tensor"
)

// TestAdamTensorsRoundTrip saves an optimizer's moments into a file's
// tensors and restores them into a fresh optimizer; WithoutOptimizer
// leaves the model's tensors alone; a missing moment is ErrMismatch.
func TestAdamTensorsRoundTrip(t *testing.T) {
	ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(1, 2)))
	w := ps.New("w", models.Const(3), 4)
	ps.New("b", models.Const(1), 2)
	opt := models.NewAdam(ps, nil)
	g := w.Grad.Data().([]float32)
	for i := range g {
		g[i] = float32(i + 1)
	}
	if _, err := opt.Step(); err != nil {
		t.Fatal(err)
	}
	f := &safetensors.File{Kind: "test", Tensors: []safetensors.Tensor{{Name: "w", Shape: []int{4}, Data: make([]float32, 4)}}}
	opt.AppendTensors(f)
	if len(f.Tensors) != 1+2*2 {
		t.Fatalf("%d tensors, want the model's one and two moments per parameter", len(f.Tensors))
	}
	fresh := models.NewAdam(ps, nil)
	if err := fresh.LoadTensors(f, opt.Steps()); err != nil {
		t.Fatal(err)
	}
	_, m0, v0 := opt.State()
	step, m1, v1 := fresh.State()
	if step != 1 || !slices.Equal(m1[0].F32, m0[0].F32) || !slices.Equal(v1[0].F32, v0[0].F32) || m1[0].F32[3] == 0 {
		t.Errorf("restored step %d, m %v v %v; want 1, %v, %v", step, m1[0].F32, v1[0].F32, m0[0].F32, v0[0].F32)
	}
	if own := models.WithoutOptimizer(f); len(own.Tensors) != 1 || own.Tensors[0].Name != "w" || own.Kind != "test" {
		t.Errorf("WithoutOptimizer kept %d tensors (%+v), want w alone", len(own.Tensors), own.Tensors)
	}
	f.Tensors = f.Tensors[:len(f.Tensors)-1] // drop adam.v/b
	if err := models.NewAdam(ps, nil).LoadTensors(f, 1); !errors.Is(err, safetensors.ErrMismatch) {
		t.Errorf("missing moment: err %v, want ErrMismatch", err)
	}
}
