package trainloop

import (
	"os"
	"path/filepath"

	"github.com/attend-go/attend/models/safetensors"
)

// ModelCheck returns why a model file or training checkpoint does not load
// as a model of one task (speechmodel.CheckModel, captioning.CheckModel), or
// nil.
type ModelCheck = func(*safetensors.File) error

// Averaged describes a file AverageFiles wrote.
type Averaged struct {
	ID     string // its model id (safetensors.ModelID)
	Params int    // weights
	Bytes  int    // file size
}

// AverageFiles writes to out the element-wise mean of the weights of the
// model files or checkpoints of one run at paths (safetensors.Averager:
// optimizer state and differing metadata dropped), as float32 or, with
// half, float16, atomically. The files are read one at a time, so only
// one is in memory at once; check vets the first (so a model of another
// task fails before the others are read) and the average before it is
// written.
func AverageFiles(out string, paths []string, half bool, check ModelCheck) (*Averaged, error) {
	var a safetensors.Averager
	for i, path := range paths {
		f, err := safetensors.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			if err := check(f); err != nil {
				return nil, err
			}
		}
		if err := a.Add(f); err != nil {
			return nil, err
		}
	}
	avg, err := a.File()
	if err != nil {
		return nil, err
	}
	avg.Source = out
	if err := check(avg); err != nil {
		return nil, &averageError{err}
	}
	dtype := safetensors.F32
	if half {
		dtype = safetensors.F16
	}
	if err := safetensors.WriteFile(out, avg, dtype); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	res := &Averaged{ID: safetensors.ModelID(filepath.Base(out), data), Bytes: len(data)}
	for _, t := range avg.Tensors {
		res.Params += len(t.Data)
	}
	return res, nil
}

// averageError is an average that does not load as a model.
type averageError struct{ err error }

func (e *averageError) Error() string { return "the average does not load: " + e.err.Error() }
func (e *averageError) Unwrap() error { return e.err }
