package lm

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Key is a language-model training graph's shape: B sentences of S
// steps (the longest sentence plus asr.EOS, padded).
type Key struct{ B, S int }

// Inputs are the graph's inputs: inputs (B, S) (asr.EOS then the
// characters), lengths (B), targets (B·S) batch-major (the characters then
// asr.EOS, PadID past the end) and weights (B·S) 1/N on real targets.
type Inputs struct{ Inputs, Lengths, Targets, Weights *gorgonia.Node }

// BuildFunc returns the graph builder for models.NewBuckets: the mean
// cross-entropy per character (nats) of teacher-forced sentences.
func (lm *Char) BuildFunc() models.BuildFunc[Key, Inputs] {
	return func(g *gorgonia.ExprGraph, b *models.Binding, k Key) (*gorgonia.Node, Inputs, error) {
		dt := tensor.Float32
		in := Inputs{
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

// Batch lays out sentences (token ids without asr.EOS) for a key; it
// returns the number of predicted tokens N.
func Batch(k Key, sentences [][]int) (inputs, lengths, targets []int, weights []float32, n int, err error) {
	if len(sentences) != k.B {
		return nil, nil, nil, nil, 0, fmt.Errorf("lm: Batch: %d sentences for a batch of %d", len(sentences), k.B)
	}
	inputs, lengths = make([]int, k.B*k.S), make([]int, k.B)
	targets, weights = make([]int, k.B*k.S), make([]float32, k.B*k.S)
	for b, s := range sentences {
		if len(s)+1 > k.S {
			return nil, nil, nil, nil, 0, fmt.Errorf("lm: Batch: sentence %d has %d tokens, key %+v", b, len(s), k)
		}
		lengths[b] = len(s) + 1
		for i := range k.S {
			j := b*k.S + i
			inputs[j], targets[j] = asr.EOS, models.PadID
			switch {
			case i < len(s):
				targets[j] = s[i]
			case i == len(s):
				targets[j] = asr.EOS
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

// Bind feeds a batch laid out by Batch.
func (in Inputs) Bind(k Key, inputs, lengths, targets []int, weights []float32) error {
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
