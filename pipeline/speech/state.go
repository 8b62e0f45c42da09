package speech

import (
	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/safetensors"
	"github.com/attend-go/attend/pipeline/internal/modelfile"
	"github.com/attend-go/attend/pipeline/trainloop"
)

// A training checkpoint (OutDir/last.safetensors) is an ASR model file
// with the optimizer's moments as extra tensors ("adam.m/<param>",
// "adam.v/<param>") and the loop's position as JSON metadata
// ("attend.train", trainCheckpoint), so that --resume continues where a
// killed run left off: same epoch plan, same batch, same optimizer state.
const (
	lastName  = trainloop.LastName
	bestName  = trainloop.BestName
	trainName = "speech: train" // prefixes Train's errors
)

// trainState is where a training run stands: the loop's state (its best
// value is the dev CER, 1 before any evaluation) and the speech trainer's
// own.
type trainState struct {
	trainloop.State
	BestWER    float64 // WER of the best model
	TrainUtts  int     // size of the training set
	TrainHours float64 // and its audio
}

func newTrainState() trainState {
	return trainState{State: trainloop.NewState(1), BestWER: 1}
}

// trainCheckpoint is trainState as checkpoints store it, under the names
// it has had since the first release (not trainloop.State's), so that
// every checkpoint resumes.
type trainCheckpoint struct {
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

func (st *trainState) checkpoint() trainCheckpoint {
	return trainCheckpoint{
		Epoch: st.Epoch, Batch: st.Batch, Step: st.Step,
		BestCER: st.BestValue, BestWER: st.BestWER, BestEpoch: st.BestEpoch, BadEpochs: st.BadEvals,
		LRScale: st.LRScale, Seconds: st.Seconds, TrainUtts: st.TrainUtts, TrainHours: st.TrainHours,
	}
}

func (c trainCheckpoint) state() trainState {
	return trainState{
		State: trainloop.State{
			Epoch: c.Epoch, Batch: c.Batch, Step: c.Step,
			BestValue: c.BestCER, BestEpoch: c.BestEpoch, BadEvals: c.BadEpochs,
			LRScale: c.LRScale, Seconds: c.Seconds,
		},
		BestWER: c.BestWER, TrainUtts: c.TrainUtts, TrainHours: c.TrainHours,
	}
}

// modelFromTensors loads the model part of a file that may carry extra
// (optimizer) tensors.
func modelFromTensors(f *safetensors.File) (*asr.Model, error) {
	return asr.Load(models.WithoutOptimizer(f))
}

// LoadModel reads an ASR model file: a shipped model, a best.safetensors
// or a training checkpoint.
func LoadModel(path string) (*asr.Model, error) {
	f, err := modelfile.Read(path, asr.Kind)
	if err != nil {
		return nil, err
	}
	return modelFromTensors(f)
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

// ErrLanguageModelFile marks a model file that is a language model (ARPA
// text or gzip), given where a speech model was expected.
var ErrLanguageModelFile = modelfile.ErrLanguageModelFile
