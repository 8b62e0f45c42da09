package speechtrain

import (
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
	trainName = "speechtrain" // prefixes Train's errors
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
