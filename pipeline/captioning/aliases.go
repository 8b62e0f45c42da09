package captioning

import "github.com/attend-go/attend/models/caption"

// ModelConfig sizes a caption decoder (models/caption.Config), named here
// so that commands configure models without importing the model packages.
type ModelConfig = caption.Config

// Attention mechanisms and the sentinels that ask for a true zero where
// a zero ModelConfig field means its default.
const (
	Soft      = caption.Soft
	Hard      = caption.Hard
	NoDropout = caption.NoDropout
	NoPenalty = caption.NoPenalty
)
