package caption

import (
	"errors"
	"fmt"
	"math"

	"github.com/attend-go/attend/attention"
)

// Sentinel errors; every error the package returns for bad input wraps
// one of them.
var (
	// ErrConfig marks an invalid model configuration.
	ErrConfig = errors.New("caption: invalid config")
	// ErrVocab marks an invalid vocabulary.
	ErrVocab = errors.New("caption: invalid vocabulary")
	// ErrInput marks features, tokens, batches or options that do not fit
	// the model.
	ErrInput = errors.New("caption: invalid input")
)

// The attention mechanisms a Config may name.
const (
	Soft = "soft" // deterministic soft attention (Xu et al. 2015, §4.2)
	Hard = "hard" // stochastic hard attention trained by REINFORCE (§4.1)
	// Adaptive is soft attention with a visual sentinel (Lu et al. 2017):
	// per word the decoder decides how much to read the image at all.
	Adaptive = "adaptive"
)

// The inference modes of hard attention (HardConfig.Inference), the
// attention package's: in JSON "expectation" and "argmax".
const (
	// Expectation reads Σ_i α_i·a_i, the context soft attention would
	// read: deterministic, and what Xu et al. use at test time. It is the
	// zero value.
	Expectation = attention.Expectation
	// Argmax reads the single most likely region a_argmax α.
	Argmax = attention.Argmax
)

// maxDim bounds every width and maxVocab the vocabulary: a configuration
// read from a file cannot make New allocate without bound.
const (
	maxDim   = 1 << 16
	maxVocab = 1 << 20
)

// Config sizes a Model. It is stored, as JSON, in every checkpoint, so a
// file alone rebuilds its model. Start from DefaultConfig: a zero size (a
// zero int field) takes the default noted, but the training weights
// (Dropout, DoublyStochastic, LabelSmoothing, Hard's Entropy and
// ExpectationMix) are taken as they are, 0 meaning none.
type Config struct {
	// Regions L is the number of annotation vectors per image, the cells
	// of the encoder's feature grid (49: MobileNetV2's final 7×7 map;
	// 196 for its 14×14 block-13 map). No parameter depends on it; inputs
	// are checked against it.
	Regions int `json:"regions"`
	// FeatureDim D is the width of an annotation vector (1280; 576 for
	// the 14×14 map).
	FeatureDim int `json:"feature_dim"`
	// Embed is the width m of a word embedding and of the deep output
	// layer (256).
	Embed int `json:"embed"`
	// Hidden is the LSTM state width n (512).
	Hidden int `json:"hidden"`
	// AttentionDim is the width of the additive attention's hidden layer (256).
	AttentionDim int `json:"attention_dim"`
	// Vocab is the number of output tokens, the special tokens included.
	// 0 means the size of the Vocab given to New; otherwise it must match.
	Vocab int `json:"vocab"`
	// Attention is Soft (the default), Hard or Adaptive.
	Attention string `json:"attention"`
	// NoGate turns off the gating scalar β = σ(f_β(h_{t−1})) that scales
	// the context (Xu et al. §4.2.1; "selector" in the authors' code). The
	// gate is on by default: it sharpens the attention maps. Adaptive
	// attention needs NoGate: its sentinel weight does the gate's work.
	NoGate bool `json:"no_gate"`
	// Dropout is the drop probability on h_t before the deep output layer
	// and on the deep output itself, in training (DefaultConfig: 0.5, as
	// in the authors' code).
	Dropout float64 `json:"dropout"`
	// DoublyStochastic λ weighs the doubly stochastic penalty
	// λ·Σ_i (1 − Σ_t α_ti)² (Xu et al. eq. 14) against the caption's
	// negative log-likelihood (DefaultConfig: 1).
	DoublyStochastic float64 `json:"doubly_stochastic"`
	// LabelSmoothing ε ∈ [0, 1) spreads ε of each target's probability
	// over the vocabulary (0: none).
	LabelSmoothing float64 `json:"label_smoothing"`
	// Hard configures hard attention (start from DefaultHardConfig); it
	// must be zero for soft attention.
	Hard HardConfig `json:"hard"`
}

// HardConfig configures hard attention (Config.Attention = Hard).
type HardConfig struct {
	// Entropy λ_e weighs the entropy bonus on the attention weights of
	// sampled steps, which keeps them from collapsing early
	// (DefaultHardConfig: 0.01).
	Entropy float64 `json:"entropy"`
	// BaselineDecay is the moving-average decay of the reward baseline:
	// b ← decay·b + (1 − decay)·R̄ after each batch, in (0, 1) (0 means
	// 0.9).
	BaselineDecay float64 `json:"baseline_decay"`
	// ExpectationMix is the probability that a caption of a training
	// batch reads the expected context Σ α_i a_i at every step instead of
	// sampled regions (DefaultHardConfig: 0.5, Xu et al. §4.1: it lowers
	// the estimator's variance; 0 samples every caption, 1 trains like
	// soft attention).
	ExpectationMix float64 `json:"expectation_mix"`
	// Inference is what eager decoding reads: Expectation (the zero
	// value, deterministic, as in Xu et al.) or Argmax. Steps read it
	// from the Model's Config, so it may be changed on a loaded model.
	Inference attention.HardMode `json:"inference"`
}

// DefaultConfig returns the default model: soft attention with the
// sizes noted on Config, dropout 0.5 and doubly stochastic penalty 1.
func DefaultConfig() Config {
	return Config{Dropout: 0.5, DoublyStochastic: 1}.Defaults()
}

// DefaultHardConfig returns the default hard-attention settings: entropy
// bonus 0.01, baseline decay 0.9, expectation mix 0.5, Expectation
// inference.
func DefaultHardConfig() HardConfig {
	return HardConfig{Entropy: 0.01, BaselineDecay: 0.9, ExpectationMix: 0.5, Inference: Expectation}
}

// Defaults returns c with zero sizes replaced by their defaults, Soft
// for no Attention and, for hard attention, baseline decay 0.9 for 0.
// The training weights are left as they are.
func (c Config) Defaults() Config {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.Regions, 49)
	def(&c.FeatureDim, 1280)
	def(&c.Embed, 256)
	def(&c.Hidden, 512)
	def(&c.AttentionDim, 256)
	if c.Attention == "" {
		c.Attention = Soft
	}
	if c.Attention == Hard && c.Hard.BaselineDecay == 0 {
		c.Hard.BaselineDecay = 0.9
	}
	return c
}

// decodeConfig reads a checkpoint's config over DefaultConfig (a field
// the file lacks keeps its default). Checkpoints written before
// DefaultConfig existed stored an explicit 0 weight as the sentinel −1:
// it reads as 0.
func decodeConfig(decode func(any) error) (Config, error) {
	c := DefaultConfig()
	if err := decode(&c); err != nil {
		return c, err
	}
	for _, f := range []*float64{&c.Dropout, &c.DoublyStochastic, &c.Hard.Entropy, &c.Hard.ExpectationMix} {
		if *f == -1 {
			*f = 0
		}
	}
	return c, nil
}

// Validate reports the first invalid field of a config after Defaults,
// naming it by its JSON key.
func (c Config) Validate() error {
	for _, f := range []struct {
		name string
		v    int
	}{
		{"regions", c.Regions}, {"feature_dim", c.FeatureDim}, {"embed", c.Embed},
		{"hidden", c.Hidden}, {"attention_dim", c.AttentionDim},
	} {
		if f.v < 1 || f.v > maxDim {
			return fmt.Errorf("%w: %s = %d, want 1 … %d", ErrConfig, f.name, f.v, maxDim)
		}
	}
	if c.Vocab < len(specials)+1 || c.Vocab > maxVocab {
		return fmt.Errorf("%w: vocab = %d, want %d (the special tokens and at least one word) … %d", ErrConfig, c.Vocab, len(specials)+1, maxVocab)
	}
	for _, f := range []struct {
		name   string
		v      float64
		lo, hi float64
		hiOpen bool
	}{
		{"dropout", c.Dropout, 0, 1, true},
		{"doubly_stochastic", c.DoublyStochastic, 0, math.MaxFloat64, false},
		{"label_smoothing", c.LabelSmoothing, 0, 1, true},
		{"hard.entropy", c.Hard.Entropy, 0, math.MaxFloat64, false},
		{"hard.baseline_decay", c.Hard.BaselineDecay, 0, 1, true}, // 0 only for soft attention
		{"hard.expectation_mix", c.Hard.ExpectationMix, 0, 1, false},
	} {
		if !(f.v >= f.lo && (f.v < f.hi || !f.hiOpen && f.v <= f.hi)) {
			want := fmt.Sprintf("[%g, %g]", f.lo, f.hi)
			switch {
			case f.hi == math.MaxFloat64:
				want = fmt.Sprintf("a finite number ≥ %g", f.lo)
			case f.hiOpen:
				want = fmt.Sprintf("[%g, %g)", f.lo, f.hi)
			}
			return fmt.Errorf("%w: %s = %v, want %s", ErrConfig, f.name, f.v, want)
		}
	}
	switch c.Attention {
	case Soft:
		if c.Hard != (HardConfig{}) {
			return fmt.Errorf("%w: hard = %+v is set, but attention is %q; hard options need attention %q", ErrConfig, c.Hard, Soft, Hard)
		}
	case Hard:
		if c.Hard.BaselineDecay == 0 {
			return fmt.Errorf("%w: hard.baseline_decay = 0, want (0, 1)", ErrConfig)
		}
		if c.Hard.Inference != Expectation && c.Hard.Inference != Argmax {
			name := c.Hard.Inference.String()
			if b, err := c.Hard.Inference.MarshalText(); err == nil {
				name = string(b)
			}
			return fmt.Errorf("%w: hard.inference = %q, want \"expectation\" or \"argmax\"", ErrConfig, name)
		}
	case Adaptive:
		if c.Hard != (HardConfig{}) {
			return fmt.Errorf("%w: hard = %+v is set, but attention is %q; hard options need attention %q", ErrConfig, c.Hard, Adaptive, Hard)
		}
		if !c.NoGate {
			return fmt.Errorf("%w: attention %q with the gate β: the sentinel weight does the gate's work; set no_gate", ErrConfig, Adaptive)
		}
	default:
		return fmt.Errorf("%w: attention = %q, want %q, %q or %q", ErrConfig, c.Attention, Soft, Hard, Adaptive)
	}
	return nil
}

// Parameters returns the number of trainable scalars of a model of this
// (defaulted, valid) config.
func (c Config) Parameters() int {
	E, H, D, A, V := c.Embed, c.Hidden, c.FeatureDim, c.AttentionDim, c.Vocab
	n := V * E                   // embedding
	n += 2 * (D*H + H)           // init.h, init.c
	n += H*A + D*A + A + A       // attention w, u, b, v
	n += (E+D)*4*H + H*4*H + 4*H // LSTM
	n += H*E + E + D*E           // deep output L_h (with bias), L_z
	n += E*V + V                 // L_o
	if !c.NoGate {
		n += H + 1
	}
	if c.Attention == Adaptive {
		n += (E+H)*H + H // the sentinel's gate
		n += H*A + H*D   // its key U_s and value P_s
	}
	return n
}
