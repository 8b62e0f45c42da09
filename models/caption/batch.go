package caption

import (
	"fmt"
	"math"

	"github.com/attend-go/attend/models"
)

// Example is one training pair: an image's annotation vectors and one of
// its captions.
type Example struct {
	Features []float32 // (L, D) row-major: region i is Features[i·D : (i+1)·D]
	Tokens   []int     // the caption's word ids (Vocab.Encode), without Start and End
}

// BatchKey is a training graph's fixed shape: B captions and S decoder
// steps (the longest caption plus End, padded).
type BatchKey struct{ B, S int }

// Batch is a padded batch laid out for a graph of its Key. Steps are
// step-major: entry i·B + b is step i of caption b.
type Batch struct {
	Key      BatchKey
	Features []float32 // (B, L, D)
	Prev     []int     // (S, B): the previous token of each step: Start, then the caption; PadID past its end
	Targets  []int     // (S·B): the caption, then End; PadID past it
	Weights  []float32 // (S·B): 1/N on real targets, 0 on padding
	Steps    []float32 // (B, S): 1 on real steps, 0 on padding
	Tokens   int       // the real targets (words and End)
	// Norm is N, the token count the loss is divided by: Tokens, or the
	// whole batch's when this batch is one process's share of it (Share).
	Norm int
}

// Share makes bt one share of a batch of total target tokens whose
// shares run in separate processes and have their gradients summed
// (data-parallel training): its loss is divided by total instead of its
// own Tokens, so that the shares' gradients add up to the whole batch's.
func (bt *Batch) Share(total int) error {
	if total < bt.Tokens {
		return fmt.Errorf("%w: Share: a batch of %d target tokens cannot be a share of %d", ErrInput, bt.Tokens, total)
	}
	bt.Norm = total
	for i, t := range bt.Targets {
		if t != models.PadID {
			bt.Weights[i] = 1 / float32(total)
		}
	}
	return nil
}

// KeyFor returns the key of exs with S rounded up to a multiple of sStep
// (1 or less: no rounding), so that a few graphs serve every batch.
func KeyFor(exs []Example, sStep int) BatchKey {
	k := BatchKey{B: len(exs)}
	for _, e := range exs {
		k.S = max(k.S, len(e.Tokens)+1)
	}
	if sStep > 1 {
		k.S = (k.S + sStep - 1) / sStep * sStep
	}
	return k
}

// MakeBatch lays out exs as a batch of shape key, which must hold them.
// Every example needs L·D finite feature values and word ids (Unk or a
// word; not Pad, Start or End).
func (m *Model) MakeBatch(key BatchKey, exs []Example) (*Batch, error) {
	B, S := key.B, key.S
	L, D := m.Config.Regions, m.Config.FeatureDim
	if B < 1 || S < 1 || len(exs) != B {
		return nil, fmt.Errorf("%w: MakeBatch: %d examples for key %+v", ErrInput, len(exs), key)
	}
	bt := &Batch{
		Key: key, Features: make([]float32, B*L*D), Prev: make([]int, S*B),
		Targets: make([]int, S*B), Weights: make([]float32, S*B), Steps: make([]float32, B*S),
	}
	for b, e := range exs {
		if err := m.checkFeatures(e.Features); err != nil {
			return nil, fmt.Errorf("MakeBatch: example %d: %w", b, err)
		}
		if len(e.Tokens)+1 > S {
			return nil, fmt.Errorf("%w: MakeBatch: example %d has %d words; key %+v holds %d", ErrInput, b, len(e.Tokens), key, S-1)
		}
		for i, t := range e.Tokens {
			if t < Unk || t >= m.Config.Vocab {
				return nil, fmt.Errorf("%w: MakeBatch: example %d token %d is %d, want a word id %d … %d", ErrInput, b, i, t, Unk, m.Config.Vocab-1)
			}
		}
		copy(bt.Features[b*L*D:], e.Features)
		prev := Start
		for i := range S {
			at := i*B + b
			bt.Prev[at], bt.Targets[at] = models.PadID, models.PadID
			switch {
			case i < len(e.Tokens):
				bt.Prev[at], bt.Targets[at] = prev, e.Tokens[i]
				prev = e.Tokens[i]
			case i == len(e.Tokens):
				bt.Prev[at], bt.Targets[at] = prev, End
			default:
				continue
			}
			bt.Steps[b*S+i] = 1
			bt.Tokens++
		}
	}
	bt.Norm = bt.Tokens
	for i, t := range bt.Targets {
		if t != models.PadID {
			bt.Weights[i] = 1 / float32(bt.Tokens)
		}
	}
	return bt, nil
}

// checkFeatures reports features that are not L·D finite values.
func (m *Model) checkFeatures(f []float32) error {
	L, D := m.Config.Regions, m.Config.FeatureDim
	if len(f) != L*D {
		return fmt.Errorf("%w: %d feature values, want L·D = %d·%d = %d", ErrInput, len(f), L, D, L*D)
	}
	for i, x := range f {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("%w: feature %d (region %d, channel %d) is %v", ErrInput, i, i/D, i%D, x)
		}
	}
	return nil
}
