package speechmodel

import (
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
)

// The commands configure models through these names, so that cmd/ depends
// on pipeline alone (DESIGN.md's layering).
type (
	// ModelConfig sizes a new ASR model (see asr.Config).
	ModelConfig = asr.Config
	// SearchOptions tunes beam search (see decode.Options).
	SearchOptions = decode.Options
	// LASModel is the Listen-Attend-Spell network (see asr.Model);
	// NewLAS makes it a Model.
	LASModel = asr.Model
)

// DefaultModelConfig returns the default model (asr.DefaultConfig).
func DefaultModelConfig() ModelConfig { return asr.DefaultConfig() }

// DefaultSearchOptions returns the default search (decode.DefaultOptions).
func DefaultSearchOptions() SearchOptions { return decode.DefaultOptions() }
