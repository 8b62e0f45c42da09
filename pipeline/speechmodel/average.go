package speechmodel

import (
	"github.com/attend-go/attend/models/safetensors"
)

// CheckModel returns why f, a model file or training checkpoint, does not
// load as an ASR model (its kind, config, vocabulary or a tensor's name or
// shape), or nil. "asr average" vets its inputs and the average with it.
func CheckModel(f *safetensors.File) error {
	_, err := modelFromTensors(f)
	return err
}
