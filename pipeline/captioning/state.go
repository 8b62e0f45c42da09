package captioning

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/models/safetensors"
	"github.com/attend-go/attend/pipeline/internal/modelfile"
	"github.com/attend-go/attend/pipeline/metrics"
	"github.com/attend-go/attend/pipeline/trainloop"
)

// A training checkpoint (OutDir/last.safetensors) is a caption model file
// with the optimizer's moments as extra tensors ("adam.m/<param>",
// "adam.v/<param>") and the loop's position as JSON metadata
// ("attend.train"), so that Resume continues where a killed run left off:
// same epoch plan, same batch, same optimizer state, same hard-attention
// baseline. Every model file this package writes also records the
// features it was trained on ("attend.features": the cache's grid,
// encoder SHA-256 and preprocessing), for people and for Captioner.
const (
	lastName    = trainloop.LastName
	bestName    = trainloop.BestName
	stateKey    = trainloop.StateKey
	featuresKey = "attend.features"
	trainName   = "captioning: train" // prefixes Train's errors
)

// trainState is where a training run stands: the loop's state (its best
// value is the selection metric, −1 before any evaluation) and the
// caption trainer's own. Its JSON, the checkpoint's "attend.train", has
// the names it always had.
type trainState struct {
	trainloop.State
	Best     metrics.CaptionScores `json:"best"`     // dev scores of the best model so far
	Baseline float64               `json:"baseline"` // hard attention's reward baseline r̄
	History  []evalRecord          `json:"history"`  // every dev evaluation
	// Objective is what the run minimizes, objectiveXent or objectiveSCST:
	// their batches differ, so a run resumes only with its own (empty in
	// checkpoints older than the field: not checked).
	Objective string `json:"objective,omitempty"`
}

// The training objectives a checkpoint can record.
const (
	objectiveXent = "cross-entropy"
	objectiveSCST = "scst"
)

// objectiveOf names the objective that o trains with.
func objectiveOf(o TrainOptions) string {
	if o.SCST {
		return objectiveSCST
	}
	return objectiveXent
}

// evalRecord is one dev evaluation, kept in the checkpoint so a resumed
// run's summary shows the whole curve.
type evalRecord struct {
	Epoch  int                   `json:"epoch"`
	Step   int                   `json:"step"`
	Loss   float64               `json:"loss"` // mean training cross-entropy since the previous evaluation
	Scores metrics.CaptionScores `json:"scores"`
}

// modelFile returns m's file with the features note.
func modelFile(m *caption.Model, features string) (*safetensors.File, error) {
	f, err := m.File()
	if err != nil {
		return nil, err
	}
	if features != "" {
		f.Extra = map[string]string{featuresKey: features}
	}
	return f, nil
}

// loadCheckpoint restores a training checkpoint into a fresh model and
// optimizer built from its config (trainloop.LoadCheckpoint).
func loadCheckpoint(path string, adam *models.AdamOptions) (*caption.Model, *models.Adam, trainState, error) {
	var st trainState
	model, opt, err := trainloop.LoadCheckpoint(path, &st, caption.Load, func(m *caption.Model) *models.Params { return m.Params }, adam, func() int { return st.Step })
	if err != nil {
		return nil, nil, st, fmt.Errorf("captioning: %w", err)
	}
	return model, opt, st, nil
}

// modelFromTensors loads the model part of a file that may carry
// optimizer tensors.
func modelFromTensors(f *safetensors.File) (*caption.Model, error) {
	m, err := caption.Load(models.WithoutOptimizer(f))
	if err != nil {
		return nil, fmt.Errorf("captioning: %w", err)
	}
	return m, nil
}

// LoadModel reads a caption model file: a shipped model, a
// best.safetensors or a training checkpoint.
func LoadModel(path string) (*caption.Model, error) {
	f, err := readModelFile(path)
	if err != nil {
		return nil, err
	}
	return modelFromTensors(f)
}

// readModelFile reads a caption model file, checking its kind.
func readModelFile(path string) (*safetensors.File, error) {
	f, err := modelfile.Read(path, caption.Kind)
	if err != nil {
		return nil, fmt.Errorf("captioning: %w", err)
	}
	return f, nil
}

// OpenModel loads a caption model file, or the embedded default model for
// the empty path.
func OpenModel(path string) (*caption.Model, error) {
	if path == "" {
		m, err := caption.Default()
		if err != nil {
			return nil, fmt.Errorf("captioning: default model: %w", err)
		}
		return m, nil
	}
	return LoadModel(path)
}

// ExportModel writes the model part of a caption model file or training
// checkpoint to dst, in float16 (half the size; what the embedded default
// ships as) or float32, keeping its features note.
func ExportModel(src, dst string, half bool) (*caption.Model, error) {
	f, err := safetensors.ReadFile(src)
	if err != nil {
		return nil, fmt.Errorf("captioning: %w", err)
	}
	m, err := modelFromTensors(f)
	if err != nil {
		return nil, err
	}
	out, err := modelFile(m, f.Extra[featuresKey])
	if err != nil {
		return nil, err
	}
	dtype := safetensors.F32
	if half {
		dtype = safetensors.F16
	}
	if err := safetensors.WriteFile(dst, out, dtype); err != nil {
		return nil, fmt.Errorf("captioning: %w", err)
	}
	return m, nil
}

// ErrEncoderFile marks a model file that is a TensorFlow Lite model, such
// as the image encoder, given where a caption model was expected.
var ErrEncoderFile = modelfile.ErrEncoderFile
