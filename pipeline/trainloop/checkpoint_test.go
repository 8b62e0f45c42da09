package trainloop

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/safetensors"
	"gorgonia.org/tensor"
)

// TestLoadCheckpoint resumes what Run wrote: the state decodes, Adam's
// moments load for the model's parameters, and a model file without the
// loop's state (best.safetensors) is refused.
func TestLoadCheckpoint(t *testing.T) {
	dir := t.TempDir()
	task := newFake(3, 2, 1)
	st := NewState(1)
	o := fakeOptions(dir)
	o.Epochs = 2
	if _, err := Run(context.Background(), o, &st, models.NewAdam(task.params, &models.AdamOptions{LR: 1e-3}), task); err != nil {
		t.Fatal(err)
	}
	load := func(f *safetensors.File) (*models.Params, error) {
		ps := models.NewParams(tensor.Float32, nil)
		ps.New("w", models.Zeros, 2)
		return ps, nil
	}
	params := func(ps *models.Params) *models.Params { return ps }
	var got State
	ps, opt, err := LoadCheckpoint(filepath.Join(dir, LastName), &got, load, params, &models.AdamOptions{LR: 1e-3}, func() int { return got.Step })
	if err != nil {
		t.Fatal(err)
	}
	if ps == nil || opt == nil || got.Step != st.Step || got.Epoch != st.Epoch {
		t.Errorf("loaded state %+v (model %v, optimizer %v), want %+v", got, ps != nil, opt != nil, st)
	}
	_, _, err = LoadCheckpoint(filepath.Join(dir, BestName), &got, load, params, &models.AdamOptions{}, func() int { return 0 })
	if err == nil || !strings.HasPrefix(err.Error(), "trainloop: ") || !strings.Contains(err.Error(), "not a training checkpoint") {
		t.Errorf("a model file as checkpoint: error %v, want trainloop: … not a training checkpoint", err)
	}
}
