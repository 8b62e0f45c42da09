package speechlm

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/attend-go/attend/models/lm/ngram"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// WordLMOptions configures TrainWordLM. Start from DefaultWordLMOptions:
// Order 0 means 4, but a zero DevFraction holds out nothing.
type WordLMOptions struct {
	// Text lists the training text: plain-text files (one sentence per
	// line) or speech manifests, whose transcripts are used (see
	// ReadLMText). Required.
	Text []string
	// Out is the ARPA file written, gzip-compressed when it ends in .gz.
	Out string
	// Order is n, 2 … 5 (0 means 4).
	Order int
	// Prune lists KenLM-style count thresholds per order from unigrams
	// on: n-grams of order k ≥ 2 whose adjusted count is ≤ Prune[k-1]
	// are dropped; Prune[0] must be 0, and the orders past the end of
	// the list repeat its last threshold. Nil prunes nothing.
	Prune []int
	// MaxVocab keeps the most frequent words, the others become <unk>
	// (0: all).
	MaxVocab int
	// Dev is held-out text (files as Text) to report perplexity on; when
	// empty, DevFraction of the training sentences is held out instead.
	Dev []string
	// DevFraction (DefaultWordLMOptions: 0.02; 0 holds out nothing).
	DevFraction float64
	// Mix, when set, is a second model (ARPA, plain or gzip, or a CMU
	// Sphinx binary trie model such as pocketsphinx's en-us.lm.bin) that
	// the trained model is linearly interpolated with (ngram.Mix):
	// MixWeight is the trained model's share, in (0, 1), and MixPrune the
	// relative-entropy threshold below which Mix's n-grams are left out
	// (0 keeps all).
	Mix       string
	MixWeight float64
	MixPrune  float64
	Seed      uint64
	Log       io.Writer
}

// DefaultWordLMOptions returns the default options: order 4, 2% of the
// sentences held out when Dev is empty.
func DefaultWordLMOptions() WordLMOptions {
	return WordLMOptions{Order: 4, DevFraction: 0.02}
}

// WordLMResult reports TrainWordLM.
type WordLMResult struct {
	Model          string
	Order          int
	Words          int   // vocabulary size, <s>, </s> and <unk> included
	NGrams         []int // per order
	TrainSentences int
	// Dev is the perplexity on the held-out sentences (nil without).
	Dev *LMScore
}

// CheckPrune validates KenLM-style pruning thresholds for an order-n
// model and returns the TrainOptions.MinCount they mean.
func CheckPrune(prune []int, order int) ([]int, error) {
	if len(prune) == 0 {
		return nil, nil
	}
	if len(prune) > order {
		return nil, fmt.Errorf("%d pruning thresholds for an order-%d model", len(prune), order)
	}
	if prune[0] != 0 {
		return nil, errors.New("the first pruning threshold (unigrams) must be 0: unigrams are never pruned")
	}
	min := make([]int, len(prune))
	for k, t := range prune {
		if t < 0 {
			return nil, fmt.Errorf("pruning threshold %d for order %d is negative", t, k+1)
		}
		if k > 0 {
			min[k] = t + 1
		}
	}
	return min, nil
}

// TrainWordLM trains a word n-gram model (interpolated modified
// Kneser-Ney, package ngram) on normalized text, writes it as ARPA and
// reports its perplexity on held-out text.
func TrainWordLM(o WordLMOptions) (*WordLMResult, error) {
	if len(o.Text) == 0 || o.Out == "" {
		return nil, errors.New("speechlm: TrainWordLM: need text files and an output file")
	}
	if o.Order == 0 {
		o.Order = 4
	}
	minCount, err := CheckPrune(o.Prune, o.Order)
	if err != nil {
		return nil, err
	}
	logf := func(format string, args ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, time.Now().Format("15:04:05 ")+format+"\n", args...)
		}
	}
	var train, dev [][]string
	for _, path := range o.Text {
		s, err := ReadLMText(path)
		if err != nil {
			return nil, err
		}
		train = append(train, s...)
	}
	for _, path := range o.Dev {
		s, err := ReadLMText(path)
		if err != nil {
			return nil, err
		}
		dev = append(dev, s...)
	}
	if len(o.Dev) == 0 && o.DevFraction > 0 && len(train) >= 2 {
		rng := rand.New(rand.NewPCG(o.Seed, 13))
		rng.Shuffle(len(train), func(i, j int) { train[i], train[j] = train[j], train[i] })
		n := min(max(1, int(o.DevFraction*float64(len(train)))), len(train)-1)
		dev, train = train[:n], train[n:]
	}
	logf("word language model: order %d, %d training sentences, %d held out", o.Order, len(train), len(dev))
	start := time.Now()
	m, err := ngram.Train(train, &ngram.TrainOptions{Order: o.Order, MinCount: minCount, MaxVocab: o.MaxVocab})
	if err != nil {
		return nil, fmt.Errorf("speechlm: TrainWordLM: %w", err)
	}
	logf("trained in %v: %d words, n-grams %v", time.Since(start).Round(time.Millisecond), len(m.Words()), nGrams(m))
	if o.Mix != "" {
		if m, err = mixWordLM(m, o, logf); err != nil {
			return nil, err
		}
	}
	r := &WordLMResult{Model: o.Out, Order: m.Order(), Words: len(m.Words()), TrainSentences: len(train), NGrams: nGrams(m)}
	if err := m.Save(o.Out); err != nil {
		return nil, err
	}
	if len(dev) > 0 {
		r.Dev = newLMScore(m.Perplexity(dev))
	}
	return r, nil
}

// MixError is TrainWordLM's error when the model to mix in
// (WordLMOptions.Mix) does not load, so that a command line can name its
// flag. Its text is "Mix: " and Err's.
type MixError struct{ Err error }

func (e *MixError) Error() string { return "Mix: " + e.Err.Error() }
func (e *MixError) Unwrap() error { return e.Err }

// mixWordLM interpolates the trained model m with the model o.Mix.
func mixWordLM(m *ngram.Model, o WordLMOptions, logf func(string, ...any)) (*ngram.Model, error) {
	start := time.Now()
	other, err := speechmodel.LoadWordLM(o.Mix)
	if err != nil {
		return nil, fmt.Errorf("speechlm: TrainWordLM: %w", &MixError{err})
	}
	logf("read %s in %v: %d words, n-grams %v", o.Mix, time.Since(start).Round(time.Millisecond), len(other.Words()), nGrams(other))
	mixed, err := ngram.Mix(m, other, ngram.MixOptions{Weight: o.MixWeight, Prune: o.MixPrune})
	if err != nil {
		return nil, fmt.Errorf("speechlm: TrainWordLM: %w", err)
	}
	logf("interpolated (weight %g of the trained model, pruning %g) in %v: %d words, n-grams %v",
		o.MixWeight, o.MixPrune, time.Since(start).Round(time.Millisecond), len(mixed.Words()), nGrams(mixed))
	return mixed, nil
}

// nGrams lists m's number of n-grams per order.
func nGrams(m *ngram.Model) []int {
	n := make([]int, m.Order())
	for k := range n {
		n[k] = m.NGrams(k + 1)
	}
	return n
}

// LMPerplexity loads the ARPA model at lmPath (lower-casing its words if
// lower) and scores the sentences of texts, read as ReadLMText does.
func LMPerplexity(lmPath string, texts []string, lower bool) (*LMScore, error) {
	var opts ngram.LoadOptions
	if lower {
		opts.MapWord = toLower
	}
	m, err := ngram.Load(lmPath, &opts)
	if err != nil {
		return nil, err
	}
	var sents [][]string
	for _, path := range texts {
		s, err := ReadLMText(path)
		if err != nil {
			return nil, err
		}
		sents = append(sents, s...)
	}
	return newLMScore(m.Perplexity(sents)), nil
}
