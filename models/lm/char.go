package lm

import (
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/safetensors"
	"gorgonia.org/tensor"
)

// CharKind is the model kind of character language model files.
const CharKind = "asr-lm"

// CharConfig sizes a Char; zero fields mean the defaults noted.
type CharConfig struct {
	Embed  int `json:"embed"`  // character embedding width (32)
	Hidden int `json:"hidden"` // LSTM state width (256)
}

func (c CharConfig) defaults() CharConfig {
	if c.Embed <= 0 {
		c.Embed = 32
	}
	if c.Hidden <= 0 {
		c.Hidden = 256
	}
	return c
}

// Char is a character-level LSTM language model over the recognizer's
// vocabulary (asr.EOS starts and ends a sentence):
//
//	h_i = LSTM(E·y_{i−1}, h_{i−1}),  p(y_i | y_<i) = softmax(W·h_i + b)
//
// It implements decode.LanguageModel for shallow fusion in the
// attention beam search.
type Char struct {
	Config CharConfig
	Vocab  *asr.Vocab
	Params *models.Params
	Embed  *models.Embedding
	Cell   *models.LSTM
	Out    *models.Linear
	ws     sync.Pool // *lmWork
}

type lmWork struct {
	lstm models.LSTMWorkspace
	x    []float32
}

// NewChar creates a language model with fresh parameters from seed.
func NewChar(cfg CharConfig, vocab *asr.Vocab, seed uint64) *Char {
	cfg = cfg.defaults()
	if vocab == nil {
		vocab = asr.DefaultVocab()
	}
	ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(seed, 0x1a)))
	V := vocab.Size()
	lm := &Char{Config: cfg, Vocab: vocab, Params: ps,
		Embed: models.NewEmbedding(ps, "lm.embed", V, cfg.Embed),
		Cell:  models.NewLSTM(ps, "lm.lstm", cfg.Embed, cfg.Hidden),
		Out:   models.NewLinear(ps, "lm.out", cfg.Hidden, V, nil),
	}
	lm.ws.New = func() any { return &lmWork{} }
	return lm
}

// File returns the language model as a model file.
func (lm *Char) File() (*safetensors.File, error) {
	return lm.Params.NewFile(CharKind, lm.Config, lm.Vocab.List())
}

// LoadChar rebuilds a language model from its file.
func LoadChar(f *safetensors.File) (*Char, error) {
	if err := f.CheckKind(CharKind); err != nil {
		return nil, err
	}
	var cfg CharConfig
	if err := f.DecodeConfig(&cfg); err != nil {
		return nil, err
	}
	vocab, err := asr.NewVocab(f.Vocab)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Source, err)
	}
	lm := NewChar(cfg, vocab, 0)
	if err := lm.Params.Load(f); err != nil {
		return nil, err
	}
	return lm, nil
}

// lmState is an immutable LSTM state [h | c].
type lmState []float32

// Start implements decode.LanguageModel: the state after asr.EOS.
func (lm *Char) Start() (any, []float32) {
	return lm.Next(lmState(make([]float32, 2*lm.Config.Hidden)), asr.EOS)
}

// Next implements decode.LanguageModel.
func (lm *Char) Next(state any, tok int) (any, []float32) {
	prev := state.(lmState)
	w := lm.ws.Get().(*lmWork)
	defer lm.ws.Put(w)
	var err error
	if w.x, err = lm.Embed.Lookup(w.x, []int{tok}); err != nil {
		panic(err) // tok comes from the same vocabulary
	}
	next := make(lmState, len(prev))
	lm.Cell.Step(&w.lstm, next, w.x, prev, 1)
	logp := lm.Out.Forward(nil, next[:lm.Config.Hidden], 1)
	models.LogSoftmax(logp, logp, len(logp))
	return next, logp
}
