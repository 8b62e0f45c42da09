package asr

import (
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/safetensors"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// LMKind is the model kind of character language model files.
const LMKind = "asr-lm"

// LMConfig sizes a CharLM; zero fields mean the defaults noted.
type LMConfig struct {
	Embed  int `json:"embed"`  // character embedding width (32)
	Hidden int `json:"hidden"` // LSTM state width (256)
}

func (c LMConfig) defaults() LMConfig {
	if c.Embed <= 0 {
		c.Embed = 32
	}
	if c.Hidden <= 0 {
		c.Hidden = 256
	}
	return c
}

// CharLM is a character-level LSTM language model over the recognizer's
// vocabulary (EOS starts and ends a sentence):
//
//	h_i = LSTM(E·y_{i−1}, h_{i−1}),  p(y_i | y_<i) = softmax(W·h_i + b)
//
// It implements LanguageModel for shallow fusion in Decode.
type CharLM struct {
	Config LMConfig
	Vocab  *Vocab
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

// NewLM creates a language model with fresh parameters from seed.
func NewLM(cfg LMConfig, vocab *Vocab, seed uint64) *CharLM {
	cfg = cfg.defaults()
	if vocab == nil {
		vocab = DefaultVocab()
	}
	ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(seed, 0x1a)))
	V := vocab.Size()
	lm := &CharLM{Config: cfg, Vocab: vocab, Params: ps,
		Embed: models.NewEmbedding(ps, "lm.embed", V, cfg.Embed),
		Cell:  models.NewLSTM(ps, "lm.lstm", cfg.Embed, cfg.Hidden),
		Out:   models.NewLinear(ps, "lm.out", cfg.Hidden, V, nil),
	}
	lm.ws.New = func() any { return &lmWork{} }
	return lm
}

// File returns the language model as a model file.
func (lm *CharLM) File() (*safetensors.File, error) {
	return lm.Params.NewFile(LMKind, lm.Config, lm.Vocab.List())
}

// LoadLM rebuilds a language model from its file.
func LoadLM(f *safetensors.File) (*CharLM, error) {
	if err := f.CheckKind(LMKind); err != nil {
		return nil, err
	}
	var cfg LMConfig
	if err := f.DecodeConfig(&cfg); err != nil {
		return nil, err
	}
	vocab, err := NewVocab(f.Vocab)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Source, err)
	}
	lm := NewLM(cfg, vocab, 0)
	if err := lm.Params.Load(f); err != nil {
		return nil, err
	}
	return lm, nil
}

// LMKey is a language-model training graph's shape: B sentences of S
// steps (the longest sentence plus EOS, padded).
type LMKey struct{ B, S int }

// LMInputs are the graph's inputs: inputs (B, S) (EOS then the
// characters), lengths (B), targets (B·S) batch-major (the characters then
// EOS, PadID past the end) and weights (B·S) 1/N on real targets.
type LMInputs struct{ Inputs, Lengths, Targets, Weights *gorgonia.Node }

// BuildFunc returns the graph builder for models.NewBuckets: the mean
// cross-entropy per character (nats) of teacher-forced sentences.
func (lm *CharLM) BuildFunc() models.BuildFunc[LMKey, LMInputs] {
	return func(g *gorgonia.ExprGraph, b *models.Binding, k LMKey) (*gorgonia.Node, LMInputs, error) {
		dt := tensor.Float32
		in := LMInputs{
			Inputs:  gorgonia.NewMatrix(g, dt, gorgonia.WithShape(k.B, k.S), gorgonia.WithName("lm_in")),
			Lengths: gorgonia.NewVector(g, dt, gorgonia.WithShape(k.B), gorgonia.WithName("lm_lengths")),
			Targets: gorgonia.NewVector(g, dt, gorgonia.WithShape(k.B*k.S), gorgonia.WithName("lm_targets")),
			Weights: gorgonia.NewVector(g, dt, gorgonia.WithShape(k.B*k.S), gorgonia.WithName("lm_weights")),
		}
		x, err := lm.Embed.Apply(b, in.Inputs) // (B, S, E)
		if err != nil {
			return nil, in, err
		}
		h, err := lm.Cell.Apply(b, x, in.Lengths) // (B, S, H)
		if err != nil {
			return nil, in, err
		}
		logits, err := lm.Out.Apply(b, h) // (B, S, V)
		if err != nil {
			return nil, in, err
		}
		flat, err := gorgonia.Reshape(logits, tensor.Shape{k.B * k.S, lm.Vocab.Size()})
		if err != nil {
			return nil, in, err
		}
		loss, err := models.CrossEntropy(flat, in.Targets, in.Weights, 0)
		return loss, in, err
	}
}

// LMBatch lays out sentences (token ids without EOS) for a key; it
// returns the number of predicted tokens N.
func LMBatch(k LMKey, sentences [][]int) (inputs, lengths, targets []int, weights []float32, n int, err error) {
	if len(sentences) != k.B {
		return nil, nil, nil, nil, 0, fmt.Errorf("asr: LMBatch: %d sentences for a batch of %d", len(sentences), k.B)
	}
	inputs, lengths = make([]int, k.B*k.S), make([]int, k.B)
	targets, weights = make([]int, k.B*k.S), make([]float32, k.B*k.S)
	for b, s := range sentences {
		if len(s)+1 > k.S {
			return nil, nil, nil, nil, 0, fmt.Errorf("asr: LMBatch: sentence %d has %d tokens, key %+v", b, len(s), k)
		}
		lengths[b] = len(s) + 1
		for i := range k.S {
			j := b*k.S + i
			inputs[j], targets[j] = EOS, models.PadID
			switch {
			case i < len(s):
				targets[j] = s[i]
			case i == len(s):
				targets[j] = EOS
			}
			if i > 0 && i <= len(s) {
				inputs[j] = s[i-1]
			}
			if targets[j] != models.PadID {
				n++
			}
		}
	}
	for j, t := range targets {
		if t != models.PadID {
			weights[j] = 1 / float32(n)
		}
	}
	return inputs, lengths, targets, weights, n, nil
}

// Bind feeds a batch laid out by LMBatch.
func (in LMInputs) Bind(k LMKey, inputs, lengths, targets []int, weights []float32) error {
	dt := tensor.Float32
	for _, f := range []struct {
		n *gorgonia.Node
		v *tensor.Dense
	}{
		{in.Inputs, models.IntTensor(dt, inputs, k.B, k.S)},
		{in.Lengths, models.IntTensor(dt, lengths, k.B)},
		{in.Targets, models.IntTensor(dt, targets, k.B*k.S)},
		{in.Weights, models.FloatTensor(dt, weights, k.B*k.S)},
	} {
		if err := gorgonia.Let(f.n, f.v); err != nil {
			return err
		}
	}
	return nil
}

// lmState is an immutable LSTM state [h | c].
type lmState []float32

// Start implements LanguageModel: the state after EOS.
func (lm *CharLM) Start() (any, []float32) {
	return lm.Next(lmState(make([]float32, 2*lm.Config.Hidden)), EOS)
}

// Next implements LanguageModel.
func (lm *CharLM) Next(state any, tok int) (any, []float32) {
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
