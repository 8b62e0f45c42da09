package caption

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

// Kind is the model kind stored in caption checkpoints (attend.kind).
const Kind = "caption"

// Model is a Show, Attend and Tell caption decoder. Its parameters, all
// float32, with E = Embed, H = Hidden, D = FeatureDim, A = AttentionDim,
// V = Vocab:
//
//	embed.table         (V, E)       E, the word embedding
//	init.h.w, .b        (D, H), (H)  f_init,h: h₀ = tanh(ā·W + b)
//	init.c.w, .b        (D, H), (H)  f_init,c: c₀ = tanh(ā·W + b)
//	att.w, .u, .b, .v   (H, A), (D, A), (A), (A)  additive attention (soft, hard or adaptive)
//	att.sentinel.key    (H, A)       adaptive only: U_s, the sentinel's key
//	att.sentinel.value  (H, D)       adaptive only: P_s, the sentinel's value
//	sentinel.w, .b      (E+H, H), (H)  adaptive only: the sentinel gate g = σ([E·y; h]·W + b)
//	gate.w, .b          (H), (1)     f_β: β = σ(h·w + b); absent with NoGate
//	lstm.wx, .wh, .b    (E+D, 4H), (H, 4H), (4H)  gates [i f o g]
//	out.h.w, .b         (H, E), (E)  L_h (with the deep output's bias)
//	out.z.w             (D, E)       L_z
//	out.o.w, .b         (E, V), (V)  L_o
//
// A Model is read-only at inference: any number of goroutines may caption
// with it at once, each with its own Workspace. Training (Trainer) changes
// its parameters.
type Model struct {
	Config Config
	Vocab  *Vocab
	Params *models.Params

	Embedding    *models.Embedding
	InitH, InitC *models.Linear
	Attention    attention.Mechanism // *attention.Additive, *attention.Hard or *attention.Adaptive
	Gate         *attention.Gate     // nil with NoGate
	Sentinel     *models.Linear      // the sentinel gate's pre-activation (Adaptive only)
	LSTM         *models.LSTM
	OutH, OutZ   *models.Linear // L_h (with bias), L_z (without)
	Output       *models.Linear // L_o

	// sampler feeds hard attention's training samples; a Trainer points
	// it at its own generator.
	sampler *switchSource
	// pack, set by PackForInference, holds the weights of the LSTM and
	// the output layers packed for the eager step's products; nil
	// without.
	pack *inferencePack
}

// inferencePack is a model's weights packed for the eager step.
type inferencePack struct {
	lstm             *models.LSTMPack
	outH, outZ, outp *models.LinearPack
	// lstmHead is the LSTM's pack for steps whose context products come
	// from the image's (contextProducts): Wx's embedding rows and Wh.
	lstmHead *models.LSTMPack
}

// PackForInference packs the weights of the decoder LSTM and of the deep
// output layer (L_h, L_z, L_o) for the eager searches (Step, Greedy,
// Beam), whose products for a beam's few rows then run about 3× faster:
// a beam-3 caption takes about a third of the time.
// It is for a model that only captions: the weights must not change
// afterwards (training never calls it; call it again after they do).
// Graph training and the forward of a graph do not read the pack.
func (m *Model) PackForInference() {
	m.pack = &inferencePack{lstm: m.LSTM.Pack(), outH: m.OutH.Pack(), outZ: m.OutZ.Pack(), outp: m.Output.Pack(),
		lstmHead: m.LSTM.PackHead(m.Config.Embed)}
}

// switchSource is a rand.Source whose underlying source can be replaced:
// hard attention takes its generator when the model is built, and the
// Trainer supplies the randomness later.
type switchSource struct{ src rand.Source }

func (s *switchSource) Uint64() uint64 { return s.src.Uint64() }

// New creates a model with parameters drawn from seed. Start cfg from
// DefaultConfig: zero sizes take their defaults (Config.Defaults), but
// zero training weights are zeros; cfg.Vocab 0 takes vocab's size.
func New(cfg Config, vocab *Vocab, seed uint64) (*Model, error) {
	if vocab == nil {
		return nil, fmt.Errorf("%w: New needs a vocabulary (BuildVocab, NewVocab)", ErrVocab)
	}
	if cfg.Vocab == 0 {
		cfg.Vocab = vocab.Size()
	}
	cfg = cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Vocab != vocab.Size() {
		return nil, fmt.Errorf("%w: vocab = %d, but the vocabulary has %d tokens", ErrConfig, cfg.Vocab, vocab.Size())
	}
	return build(cfg, vocab, seed, tensor.Float32)
}

// build creates the parameters of a valid config in a store of dtype
// (float64 serves gradient checks).
func build(cfg Config, vocab *Vocab, seed uint64, dtype tensor.Dtype) (*Model, error) {
	E, H, D, A, V := cfg.Embed, cfg.Hidden, cfg.FeatureDim, cfg.AttentionDim, cfg.Vocab
	ps := models.NewParams(dtype, rand.New(rand.NewPCG(seed, 0xca9)))
	m := &Model{Config: cfg, Vocab: vocab, Params: ps, sampler: &switchSource{src: rand.NewPCG(seed, 0x5a3)}}
	m.Embedding = models.NewEmbedding(ps, "embed", V, E)
	m.InitH = models.NewLinear(ps, "init.h", D, H, nil)
	m.InitC = models.NewLinear(ps, "init.c", D, H, nil)
	var err error
	switch cfg.Attention {
	case Hard:
		// Eager steps read the expectation; Step replaces it with the
		// argmax region when HardConfig.Inference asks for that.
		m.Attention, err = attention.NewHard(ps, "att", H, D, A, &attention.HardOptions{Inference: attention.Expectation, Rand: rand.New(m.sampler)})
	case Adaptive:
		// The sentinel has the LSTM's width (its memory cell's).
		m.Attention, err = attention.NewAdaptive(ps, "att", H, H, D, A)
	default:
		m.Attention, err = attention.NewAdditive(ps, "att", H, D, A)
	}
	if err != nil {
		return nil, fmt.Errorf("caption: %w", err)
	}
	if !cfg.NoGate {
		if m.Gate, err = attention.NewGate(ps, "gate", H); err != nil {
			return nil, fmt.Errorf("caption: %w", err)
		}
	}
	if cfg.Attention == Adaptive {
		m.Sentinel = models.NewLinear(ps, "sentinel", E+H, H, nil)
	}
	m.LSTM = models.NewLSTM(ps, "lstm", E+D, H)
	m.OutH = models.NewLinear(ps, "out.h", H, E, nil)
	m.OutZ = models.NewLinear(ps, "out.z", D, E, &models.LinearOptions{NoBias: true})
	m.Output = models.NewLinear(ps, "out.o", E, V, nil)
	return m, nil
}

// File returns the model as a checkpoint (kind "caption", the config and
// the vocabulary in the metadata), ready for safetensors.WriteFile: F32 to
// resume training exactly, F16 to ship at half the size. The file shares
// no memory with the model.
func (m *Model) File() (*safetensors.File, error) {
	return m.Params.NewFile(Kind, m.Config, slices.Clone(m.Vocab.List()))
}

// Load rebuilds a model from a checkpoint, checking its kind, config,
// vocabulary and every tensor's name and shape, and that every value is
// finite (a NaN or an infinity is ErrCorrupt). The config is checked
// against the tensors' total size before any parameter is allocated, so a
// file whose config lies cannot make Load allocate more than the file
// holds.
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
	if cfg.Vocab != vocab.Size() {
		return nil, fmt.Errorf("%s: %w: vocab = %d, but attend.vocab lists %d tokens", name, ErrConfig, cfg.Vocab, vocab.Size())
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
	if want := cfg.Parameters(); want != held {
		return nil, fmt.Errorf("%s: %w: the config needs %d parameters, the file holds %d values", name, safetensors.ErrMismatch, want, held)
	}
	m, err := build(cfg, vocab, 0, tensor.Float32)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := m.Params.Load(f); err != nil {
		return nil, err
	}
	return m, nil
}
