package asr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/safetensors"
	"gorgonia.org/tensor"
)

// Kind is the model kind stored in ASR checkpoints.
const Kind = "asr"

// Model is a Listen, Attend and Spell recognizer with an optional joint
// CTC head. Its parameters, all float32, with I = Stack·MelBins, Hl =
// ListenerHidden, D = 2·Hl, E = Embed, H = SpellerHidden, A =
// AttentionDim, nf = LocationFilters, K = LocationWidth and V the
// vocabulary (see the package doc for the equations):
//
//	listener.l0.{fwd,bwd}.wx, .wh, .b      (I, 4Hl), (Hl, 4Hl), (4Hl)    first BiLSTM layer
//	listener.l<j>.{fwd,bwd}.wx, .wh, .b    (4Hl, 4Hl), (Hl, 4Hl), (4Hl)  j ≥ 1, over pairs of frames
//	listener.l<j>.{fwd,bwd}.wx, .wh, .b    (D, 4Hl), (Hl, 4Hl), (4Hl)    the top ListenerFlat, residual
//	ctc.w, .b                              (D, V), (V)                   W_c, when CTCWeight > 0
//	speller.embed.table                    (V, E)                        E
//	speller.lstm.wx, .wh, .b               (E+D, 4H), (H, 4H), (4H)      gates [i f o g]
//	speller.out.w, .b                      (H+D, V), (V)                 W_o
//	speller.att.w, .u, .b, .v              (H, A), (D, A), (A), (A)      LocationAware: W, U, b, v
//	speller.att.conv, .loc                 (nf, 1, K), (nf, A)           F, U_f
//	phone_ctc.w, .b                        (D, P), (P)                   W_p, when PhoneCTCWeight > 0
//
// The phone head comes last so that a model with it draws every other
// parameter as the same model without it would (and a model file without
// it is unchanged).
//
// A Model is read-only at inference: any number of goroutines may
// transcribe with it at once, each with its own Workspace.
type Model struct {
	Config   Config
	Vocab    *Vocab
	Params   *models.Params
	Listener *models.PyramidalBiLSTM
	CTC      *models.Linear // nil without a CTC branch
	Speller  *Speller
	PhoneCTC *models.Linear // nil without a phone CTC head
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
	m.Listener = models.NewPyramidalBiLSTMFlat(ps, "listener", cfg.inputWidth(), cfg.ListenerHidden, cfg.ListenerLayers, cfg.ListenerFlat)
	D := 2 * cfg.ListenerHidden
	if cfg.CTCWeight > 0 {
		m.CTC = models.NewLinear(ps, "ctc", D, vocab.Size(), nil)
	}
	att, err := attention.NewLocationAware(ps, "speller.att", cfg.SpellerHidden, D, cfg.AttentionDim,
		&attention.LocationOptions{Filters: cfg.LocationFilters, Width: cfg.LocationWidth})
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	m.Speller, err = NewSpeller(ps, "speller", SpellerConfig{Vocab: vocab.Size(), Embed: cfg.Embed, Hidden: cfg.SpellerHidden}, att)
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	if cfg.PhoneCTCWeight > 0 {
		m.PhoneCTC = models.NewLinear(ps, "phone_ctc", D, PhoneSetSize, nil)
	}
	return m, nil
}

// AddPhoneCTC gives a model without a phone CTC head one, with weight
// λp and on listener layer layer (see Config), its parameters drawn from
// seed: how a trained model is fine-tuned with the auxiliary task. A
// model that has the head keeps its parameters and takes the new weight
// and layer.
func (m *Model) AddPhoneCTC(weight float64, layer int, seed uint64) error {
	cfg := m.Config
	cfg.PhoneCTCWeight, cfg.PhoneCTCLayer = weight, layer
	if err := cfg.Validate(); err != nil {
		return err
	}
	if weight == 0 && m.PhoneCTC != nil {
		return fmt.Errorf("%w: phone_ctc_weight 0 would drop the model's phone CTC head", ErrConfig)
	}
	m.Config = cfg
	if m.PhoneCTC == nil && weight > 0 {
		m.Params.SetRand(rand.New(rand.NewPCG(seed, 0x9a0e)))
		m.PhoneCTC = models.NewLinear(m.Params, "phone_ctc", 2*cfg.ListenerHidden, PhoneSetSize, nil)
	}
	return nil
}

// File returns the model as a checkpoint (kind "asr", config and vocabulary
// in the metadata), ready for safetensors.WriteFile. The file shares no
// memory with the model.
func (m *Model) File() (*safetensors.File, error) {
	return m.Params.NewFile(Kind, m.Config, slices.Clone(m.Vocab.List()))
}

// Load rebuilds a model from a checkpoint, checking its kind, config,
// vocabulary and every tensor's name and shape, and that every value is
// finite (a NaN or an infinity is safetensors.ErrCorrupt). The config is
// checked against the tensors' total size before any parameter is
// allocated (safetensors.ErrMismatch), so a file whose config lies cannot
// make Load allocate more than the file holds.
func Load(f *safetensors.File) (*Model, error) {
	if err := f.CheckKind(Kind); err != nil {
		return nil, err
	}
	cfg, err := decodeConfig(f.DecodeConfig)
	if err != nil {
		return nil, err
	}
	name := f.Source
	if name == "" {
		name = "checkpoint"
	}
	vocab, err := NewVocab(f.Vocab)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	cfg = cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	held := 0
	for _, t := range f.Tensors {
		held += len(t.Data)
		for i, x := range t.Data {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, fmt.Errorf("%s: %w: tensor %q holds %v at %d", name, safetensors.ErrCorrupt, t.Name, x, i)
			}
		}
	}
	if want := cfg.Parameters(vocab.Size()); want != held {
		return nil, fmt.Errorf("%s: %w: the config needs %d parameters, the file holds %d values", name, safetensors.ErrMismatch, want, held)
	}
	m, err := New(cfg, vocab, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
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
