package asr

import (
	"errors"
	"fmt"
)

// ErrConfig marks an invalid model configuration.
var ErrConfig = errors.New("asr: invalid config")

// Config sizes a Model. It is stored, as JSON, in every checkpoint, so a
// file alone rebuilds its model. Start from DefaultConfig: a zero size
// (a zero int field) takes its default, but the rates CTCWeight,
// LabelSmoothing and Dropout are taken as they are, 0 meaning none.
type Config struct {
	// MelBins is the width of an input frame: log-mel bins (80).
	MelBins int `json:"mel_bins"`
	// Stack concatenates this many consecutive frames into one listener
	// input and keeps every Stack-th (3: 10 ms frames → 30 ms steps of
	// 3·MelBins). Stacking is the cheap first reduction of time; the
	// pyramid does the rest.
	Stack int `json:"stack"`
	// ListenerHidden is the BiLSTM state width per direction (256).
	ListenerHidden int `json:"listener_hidden"`
	// ListenerLayers is the number of BiLSTM layers; each one after the
	// first halves time (2: ×2, so with Stack 3 one encoder frame spans
	// 60 ms), except the top ListenerFlat.
	ListenerLayers int `json:"listener_layers"`
	// ListenerFlat is the number of top listener layers that keep time
	// and are residual, y = x + BiLSTM(x) (Wu et al. 2016, GNMT §3.1):
	// depth without a coarser encoder frame. 0 (the default) has none;
	// layer 0 is never flat, so 0 ≤ ListenerFlat < ListenerLayers.
	// Model.AddListenerLayers grows a trained model by flat layers.
	ListenerFlat int `json:"listener_flat,omitempty"`
	// Embed is the width of a character embedding (64).
	Embed int `json:"embed"`
	// SpellerHidden is the speller LSTM's state width (256).
	SpellerHidden int `json:"speller_hidden"`
	// AttentionDim is the width of the additive attention's hidden layer (128).
	AttentionDim int `json:"attention_dim"`
	// LocationFilters and LocationWidth size the location-aware attention's
	// convolution over the previous weights (10 filters, width 31).
	LocationFilters int `json:"location_filters"`
	LocationWidth   int `json:"location_width"`
	// CTCWeight λ ∈ [0, 1) weighs the joint CTC branch on the listener:
	// loss = (1−λ)·CE + λ·CTC (Kim, Hori and Watanabe 2017). 0 has no CTC
	// branch (and no CTC fallback or joint scoring at inference)
	// (DefaultConfig: 0.3).
	CTCWeight float64 `json:"ctc_weight"`
	// PhoneCTCWeight λp ∈ [0, 1) weighs an auxiliary phone CTC head on
	// listener layer PhoneCTCLayer: loss = (1−λ−λp)·CE + λ·CTC +
	// λp·CTC_phone, after Toshniwal et al. (2017), "Multitask learning
	// with low-level auxiliary tasks for encoder-decoder based speech
	// recognition". Its targets are the ARPAbet Phones of each
	// transcript's words; an utterance without them adds no phone loss.
	// 0 (the default) has no head. Decoding may add the head's score of
	// each candidate's pronunciations to joint rescoring
	// (decode.Options.PhoneWeight); Model.PhoneLogProbs exposes its
	// posteriors.
	PhoneCTCWeight float64 `json:"phone_ctc_weight,omitempty"`
	// PhoneCTCLayer is the listener layer (0-based) the phone head reads:
	// 0, the default, is the first layer, at Stack·10 ms per frame.
	PhoneCTCLayer int `json:"phone_ctc_layer,omitempty"`
	// LabelSmoothing ε spreads ε of each target's probability mass over
	// the vocabulary (DefaultConfig: 0.1).
	LabelSmoothing float64 `json:"label_smoothing"`
	// Dropout is the drop probability on the listener's output in training
	// (DefaultConfig: 0.2).
	Dropout float64 `json:"dropout"`
}

// DefaultConfig returns the default model: the sizes noted on Config,
// CTC weight 0.3, label smoothing 0.1 and dropout 0.2.
func DefaultConfig() Config {
	return Config{CTCWeight: 0.3, LabelSmoothing: 0.1, Dropout: 0.2}.Defaults()
}

// Defaults returns c with zero sizes replaced by their defaults. The
// rates are left as they are.
func (c Config) Defaults() Config {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.MelBins, 80)
	def(&c.Stack, 3)
	def(&c.ListenerHidden, 256)
	def(&c.ListenerLayers, 2)
	def(&c.Embed, 64)
	def(&c.SpellerHidden, 256)
	def(&c.AttentionDim, 128)
	def(&c.LocationFilters, 10)
	def(&c.LocationWidth, 31)
	return c
}

// decodeConfig reads a checkpoint's config over DefaultConfig (a field
// the file lacks keeps its default). Checkpoints written before
// DefaultConfig existed stored an explicit 0 rate as the sentinel −1: it
// reads as 0.
func decodeConfig(decode func(any) error) (Config, error) {
	c := DefaultConfig()
	if err := decode(&c); err != nil {
		return c, err
	}
	for _, f := range []*float64{&c.CTCWeight, &c.LabelSmoothing, &c.Dropout} {
		if *f == -1 {
			*f = 0
		}
	}
	return c, nil
}

// Validate reports the first out-of-range field of a config after
// Defaults.
func (c Config) Validate() error {
	for _, f := range []struct {
		name   string
		v, min int
	}{
		{"mel_bins", c.MelBins, 1}, {"stack", c.Stack, 1}, {"listener_hidden", c.ListenerHidden, 1},
		{"listener_layers", c.ListenerLayers, 1}, {"embed", c.Embed, 1}, {"speller_hidden", c.SpellerHidden, 1},
		{"attention_dim", c.AttentionDim, 1}, {"location_filters", c.LocationFilters, 1}, {"location_width", c.LocationWidth, 1},
	} {
		if f.v < f.min {
			return fmt.Errorf("%w: %s = %d, want ≥ %d", ErrConfig, f.name, f.v, f.min)
		}
	}
	if c.LocationWidth%2 == 0 {
		return fmt.Errorf("%w: location_width = %d, want an odd width", ErrConfig, c.LocationWidth)
	}
	if c.ListenerFlat < 0 || c.ListenerFlat >= c.ListenerLayers {
		return fmt.Errorf("%w: listener_flat = %d, want [0, %d): the first of the %d listener layers reads the stacked frames and cannot be flat", ErrConfig, c.ListenerFlat, c.ListenerLayers, c.ListenerLayers)
	}
	if c.Stack > 16 {
		return fmt.Errorf("%w: stack %d; want at most 16 frames", ErrConfig, c.Stack)
	}
	if c.ListenerLayers > 6 {
		return fmt.Errorf("%w: listener_layers %d; want at most 6", ErrConfig, c.ListenerLayers)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"ctc_weight", c.CTCWeight}, {"phone_ctc_weight", c.PhoneCTCWeight}, {"label_smoothing", c.LabelSmoothing}, {"dropout", c.Dropout}} {
		if !(f.v >= 0 && f.v < 1) {
			return fmt.Errorf("%w: %s = %v, want [0, 1)", ErrConfig, f.name, f.v)
		}
	}
	if c.CTCWeight+c.PhoneCTCWeight >= 1 {
		return fmt.Errorf("%w: ctc_weight %v + phone_ctc_weight %v = %v leaves the attention decoder no weight; want a sum below 1", ErrConfig, c.CTCWeight, c.PhoneCTCWeight, c.CTCWeight+c.PhoneCTCWeight)
	}
	if c.PhoneCTCLayer < 0 || c.PhoneCTCLayer >= c.ListenerLayers {
		return fmt.Errorf("%w: phone_ctc_layer = %d, want a listener layer in [0, %d)", ErrConfig, c.PhoneCTCLayer, c.ListenerLayers)
	}
	return nil
}

// Reduction is the listener's total time reduction: input frames per
// encoder frame, Stack·2^(ListenerLayers−1−ListenerFlat).
func (c Config) Reduction() int { return c.Stack << (c.ListenerLayers - 1 - c.ListenerFlat) }

// Listener input width: Stack·MelBins.
func (c Config) inputWidth() int { return c.Stack * c.MelBins }

// Parameters returns the number of trainable scalars of a model of this
// (defaulted, valid) config over a vocabulary of V tokens. With I =
// Stack·MelBins, L = ListenerLayers, F = ListenerFlat, Hl =
// ListenerHidden, D = 2·Hl, E = Embed, H = SpellerHidden, A =
// AttentionDim, nf = LocationFilters and K = LocationWidth:
//
//	listener.l0       2·(I·4Hl + Hl·4Hl + 4Hl)          BiLSTM over the stacked frames
//	listener.l<j>     2·(4Hl·4Hl + Hl·4Hl + 4Hl)        1 ≤ j < L−F, over pairs of frames (4Hl)
//	listener.l<j>     2·(D·4Hl + Hl·4Hl + 4Hl)          L−F ≤ j < L, flat (residual) layers
//	ctc               D·V + V                           when CTCWeight > 0
//	phone_ctc         D·P + P                           when PhoneCTCWeight > 0, P = PhoneSetSize
//	speller.att       H·A + D·A + A + A + nf·K + nf·A   LocationAware
//	speller.embed     V·E
//	speller.lstm      (E+D)·4H + H·4H + 4H
//	speller.out       (H+D)·V + V
func (c Config) Parameters(V int) int {
	I, Hl, E, H, A := c.inputWidth(), c.ListenerHidden, c.Embed, c.SpellerHidden, c.AttentionDim
	D := 2 * Hl
	lstm := func(in, h int) int { return in*4*h + h*4*h + 4*h }
	n := 2 * lstm(I, Hl)
	for range c.ListenerLayers - 1 - c.ListenerFlat {
		n += 2 * lstm(4*Hl, Hl)
	}
	for range c.ListenerFlat {
		n += 2 * lstm(D, Hl)
	}
	if c.CTCWeight > 0 {
		n += D*V + V
	}
	n += H*A + D*A + A + A + c.LocationFilters*c.LocationWidth + c.LocationFilters*A
	n += V * E
	n += lstm(E+D, H)
	n += (H+D)*V + V
	if c.PhoneCTCWeight > 0 {
		n += D*PhoneSetSize + PhoneSetSize
	}
	return n
}
