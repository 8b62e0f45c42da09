package trainloop

import (
	"encoding/json"
	"fmt"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/safetensors"
)

// LoadCheckpoint reads the training checkpoint at path (LastName, as Run
// writes it): it decodes the StateKey metadata into state (the trainer's
// CheckpointState type), builds the model with load from the file less
// the optimizer's tensors (models.WithoutOptimizer), and restores Adam's
// moments for the model's parameters (params) at the step that step reads
// from the decoded state. A model file without the metadata is an error: it can
// only start a new run (Setup.Init). Errors are prefixed "trainloop:" and
// name the file; load's pass unchanged.
func LoadCheckpoint[M any](path string, state any, load func(*safetensors.File) (M, error), params func(M) *models.Params,
	adam *models.AdamOptions, step func() int) (model M, opt *models.Adam, err error) {
	f, err := safetensors.ReadFile(path)
	if err != nil {
		return model, nil, fmt.Errorf("trainloop: %w", err)
	}
	js, ok := f.Extra[StateKey]
	if !ok {
		return model, nil, fmt.Errorf("trainloop: %s: not a training checkpoint (no %s metadata): a model file can only initialize a new run (Init)", path, StateKey)
	}
	if err := json.Unmarshal([]byte(js), state); err != nil {
		return model, nil, fmt.Errorf("trainloop: %s: %s metadata: %w", path, StateKey, err)
	}
	if model, err = load(models.WithoutOptimizer(f)); err != nil {
		return model, nil, err
	}
	opt = models.NewAdam(params(model), adam)
	if err := opt.LoadTensors(f, step()); err != nil {
		return model, nil, fmt.Errorf("trainloop: %s: %w", path, err)
	}
	return model, opt, nil
}
