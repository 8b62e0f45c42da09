package captioning

import "github.com/attend-go/attend/models/caption"

// ModelConfig sizes a caption decoder (models/caption.Config), named here
// so that commands configure models without importing the model packages.
type ModelConfig = caption.Config

// Attention mechanisms of ModelConfig.
const (
	Soft     = caption.Soft
	Hard     = caption.Hard
	Adaptive = caption.Adaptive
)

// DefaultModelConfig returns the default decoder (caption.DefaultConfig).
func DefaultModelConfig() ModelConfig { return caption.DefaultConfig() }

// DefaultHardConfig returns the default hard-attention settings
// (caption.DefaultHardConfig).
func DefaultHardConfig() caption.HardConfig { return caption.DefaultHardConfig() }

// Searcher is a caption model or an ensemble of them (caption.Searcher).
type Searcher = caption.Searcher

// SearchOptions tunes the caption search (caption.SearchOptions).
type SearchOptions = caption.SearchOptions

// DefaultSearchOptions returns the default caption search
// (caption.DefaultSearchOptions).
func DefaultSearchOptions() caption.SearchOptions { return caption.DefaultSearchOptions() }
