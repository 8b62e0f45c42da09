package speech

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"

	"github.com/attend-go/attend/models/safetensors"
)

// A training checkpoint (OutDir/last.safetensors) is an ASR model file
// with the optimizer's moments as extra tensors ("adam.m/<param>",
// "adam.v/<param>") and the loop's position as JSON metadata
// ("attend.train"), so that --resume continues where a killed run left
// off: same epoch plan, same batch, same optimizer state.
const (
	lastName  = "last.safetensors"
	bestName  = "best.safetensors"
	stateKey  = "attend.train"
	logPrefix = "asr train: "
)

// trainState is where a training run stands.
type trainState struct {
	Epoch      int     `json:"epoch"`       // current epoch, from 1
	Batch      int     `json:"batch"`       // batches of the epoch already done
	Step       int     `json:"step"`        // optimizer steps so far
	BestCER    float64 `json:"best_cer"`    // best dev CER so far (1 before any)
	BestWER    float64 `json:"best_wer"`    // its WER
	BestEpoch  int     `json:"best_epoch"`  // the epoch that reached it
	BadEpochs  int     `json:"bad_epochs"`  // epochs since the last improvement
	LRScale    float64 `json:"lr_scale"`    // plateau decay factor so far
	Seconds    float64 `json:"seconds"`     // training time so far
	TrainUtts  int     `json:"train_utts"`  // size of the training set
	TrainHours float64 `json:"train_hours"` // and its audio
}

// saveCheckpoint writes model, optimizer and loop state atomically.
func saveCheckpoint(path string, m *asr.Model, opt *models.Adam, st trainState) error {
	f, err := m.File()
	if err != nil {
		return err
	}
	opt.AppendTensors(f)
	js, err := json.Marshal(st)
	if err != nil {
		return err
	}
	f.Extra = map[string]string{stateKey: string(js)}
	return safetensors.WriteFile(path, f, safetensors.F32)
}

// loadCheckpoint restores a training checkpoint into a fresh model and
// optimizer built from its config.
func loadCheckpoint(path string, adam *models.AdamOptions) (*asr.Model, *models.Adam, trainState, error) {
	var st trainState
	f, err := safetensors.ReadFile(path)
	if err != nil {
		return nil, nil, st, err
	}
	js, ok := f.Extra[stateKey]
	if !ok {
		return nil, nil, st, fmt.Errorf("%s: not a training checkpoint (no %s metadata); use --init to start from a model", path, stateKey)
	}
	if err := json.Unmarshal([]byte(js), &st); err != nil {
		return nil, nil, st, fmt.Errorf("%s: %s metadata: %w", path, stateKey, err)
	}
	model, err := modelFromTensors(f)
	if err != nil {
		return nil, nil, st, err
	}
	opt := models.NewAdam(model.Params, adam)
	if err := opt.LoadTensors(f, st.Step); err != nil {
		return nil, nil, st, fmt.Errorf("%s: %w", path, err)
	}
	return model, opt, st, nil
}

// modelFromTensors loads the model part of a file that may carry extra
// (optimizer) tensors.
func modelFromTensors(f *safetensors.File) (*asr.Model, error) {
	return asr.Load(models.WithoutOptimizer(f))
}

// LoadModel reads an ASR model file: a shipped model, a best.safetensors
// or a training checkpoint.
func LoadModel(path string) (*asr.Model, error) {
	f, err := safetensors.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return modelFromTensors(f)
}

// saveModel writes the model alone (float32) atomically.
func saveModel(path string, m *asr.Model) error {
	f, err := m.File()
	if err != nil {
		return err
	}
	return safetensors.WriteFile(path, f, safetensors.F32)
}

func fileExists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}

// ExportModel writes the model part of an ASR model file or training
// checkpoint to dst, in float16 (half the size; what the embedded default
// ships as) or float32.
func ExportModel(src, dst string, half bool) (*asr.Model, error) {
	m, err := LoadModel(src)
	if err != nil {
		return nil, err
	}
	f, err := m.File()
	if err != nil {
		return nil, err
	}
	dtype := safetensors.F32
	if half {
		dtype = safetensors.F16
	}
	return m, safetensors.WriteFile(dst, f, dtype)
}

// OpenModel loads an ASR model file, or the embedded default model for
// the empty path.
func OpenModel(path string) (*asr.Model, error) {
	if path == "" {
		return asr.Default()
	}
	return LoadModel(path)
}
