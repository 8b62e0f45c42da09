package asr

import (
	"fmt"
	"math/rand/v2"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/safetensors"
	"gorgonia.org/tensor"
)

// Kind is the model kind stored in ASR checkpoints.
const Kind = "asr"

// Model is a Listen, Attend and Spell recognizer with an optional joint
// CTC head. Its parameters, all float32:
//
//	listener.l<j>.*   PyramidalBiLSTM (Stack·MelBins → 2·ListenerHidden)
//	ctc.*             Linear (2·ListenerHidden → V), when CTCWeight > 0
//	speller.*         attention.Decoder: embed, lstm, out
//	speller.att.*     LocationAware attention (query SpellerHidden, keys 2·ListenerHidden)
//
// A Model is read-only at inference: any number of goroutines may
// transcribe with it at once, each with its own Workspace.
type Model struct {
	Config   Config
	Vocab    *Vocab
	Params   *models.Params
	Listener *models.PyramidalBiLSTM
	CTC      *models.Linear // nil without a CTC branch
	Speller  *attention.Decoder
}

// New creates a model with freshly initialized parameters drawn from seed.
// Zero sizes of cfg take their defaults (Config.Defaults).
func New(cfg Config, vocab *Vocab, seed uint64) (*Model, error) {
	cfg = cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if vocab == nil {
		vocab = DefaultVocab()
	}
	ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(seed, 0x5eed)))
	m := &Model{Config: cfg, Vocab: vocab, Params: ps}
	m.Listener = models.NewPyramidalBiLSTM(ps, "listener", cfg.inputWidth(), cfg.ListenerHidden, cfg.ListenerLayers)
	D := 2 * cfg.ListenerHidden
	if cfg.CTCWeight > 0 {
		m.CTC = models.NewLinear(ps, "ctc", D, vocab.Size(), nil)
	}
	att, err := attention.NewLocationAware(ps, "speller.att", cfg.SpellerHidden, D, cfg.AttentionDim,
		&attention.LocationOptions{Filters: cfg.LocationFilters, Width: cfg.LocationWidth})
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	m.Speller, err = attention.NewDecoder(ps, "speller", attention.DecoderConfig{Vocab: vocab.Size(), Embed: cfg.Embed, Hidden: cfg.SpellerHidden}, att)
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	return m, nil
}

// File returns the model as a checkpoint (kind "asr", config and vocabulary
// in the metadata), ready for safetensors.WriteFile.
func (m *Model) File() (*safetensors.File, error) {
	return m.Params.NewFile(Kind, m.Config, m.Vocab.List())
}

// Load rebuilds a model from a checkpoint, checking its kind, config,
// vocabulary and every tensor's name and shape.
func Load(f *safetensors.File) (*Model, error) {
	if err := f.CheckKind(Kind); err != nil {
		return nil, err
	}
	cfg, err := decodeConfig(f.DecodeConfig)
	if err != nil {
		return nil, err
	}
	vocab, err := NewVocab(f.Vocab)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Source, err)
	}
	m, err := New(cfg, vocab, 0) // New applies Defaults and validates
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Source, err)
	}
	if err := m.Params.Load(f); err != nil {
		return nil, err
	}
	return m, nil
}

// EncoderLength returns the number of encoder frames for n input frames.
func (m *Model) EncoderLength(n int) int {
	return m.Listener.OutputLength(StackedLength(n, m.Config.Stack))
}

// StackedLength is the number of listener inputs for n frames: ⌈n/stack⌉.
func StackedLength(n, stack int) int { return (n + stack - 1) / stack }

// Stack writes the listener input for frames (n, bins) into dst
// (⌈n/stack⌉, stack·bins): row t concatenates frames stack·t … stack·t +
// stack − 1, zeros past the end. It grows dst when short and returns it.
func Stack(dst, frames []float32, n, bins, stack int) []float32 {
	rows := StackedLength(n, stack)
	w := stack * bins
	if cap(dst) < rows*w {
		dst = make([]float32, rows*w)
	}
	dst = dst[:rows*w]
	for t := range rows {
		row := dst[t*w : (t+1)*w]
		for j := range stack {
			src := stack*t + j
			part := row[j*bins : (j+1)*bins]
			if src < n {
				copy(part, frames[src*bins:(src+1)*bins])
			} else {
				clear(part)
			}
		}
	}
	return dst
}
