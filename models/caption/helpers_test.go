package caption_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/caption"
)

// toyWords is the vocabulary of the toy tasks.
var toyWords = strings.Fields("a dog cat runs sits on grass the red ball man rides bike in water")

func toyVocab(t testing.TB) *caption.Vocab {
	t.Helper()
	v, err := caption.NewVocab(append([]string{"<pad>", "<start>", "<end>", "<unk>"}, toyWords...))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// tinyConfig is a model small enough to train in seconds.
func tinyConfig(attention string) caption.Config {
	c := caption.Config{
		Regions: 6, FeatureDim: 8, Embed: 12, Hidden: 24, AttentionDim: 10,
		Attention: attention, DoublyStochastic: 1,
	}
	if attention == caption.Hard {
		c.Hard = caption.DefaultHardConfig()
	}
	return c
}

// randomFeatures returns L·D annotation values in [0, 2), sparse like
// ReLU6 maps.
func randomFeatures(rng *rand.Rand, L, D int) []float32 {
	f := make([]float32, L*D)
	for i := range f {
		if rng.IntN(3) > 0 {
			f[i] = float32(2 * rng.Float64())
		}
	}
	return f
}

// randomExamples makes n examples with captions of 1–maxWords words.
func randomExamples(rng *rand.Rand, n, L, D, maxWords, V int) []caption.Example {
	exs := make([]caption.Example, n)
	for i := range exs {
		words := 1 + rng.IntN(maxWords)
		tokens := make([]int, words)
		for j := range tokens {
			tokens[j] = caption.Unk + rng.IntN(V-caption.Unk)
		}
		exs[i] = caption.Example{Features: randomFeatures(rng, L, D), Tokens: tokens}
	}
	return exs
}

func mustNew(t testing.TB, cfg caption.Config, seed uint64) *caption.Model {
	t.Helper()
	m, err := caption.New(cfg, toyVocab(t), seed)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
