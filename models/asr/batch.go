package asr

import (
	"fmt"
	"slices"

	"github.com/attend-go/attend/models"
)

// Example is one training utterance: normalized log-mel frames (Frames,
// MelBins) and its target tokens, without EOS.
type Example struct {
	Frames   int
	Features []float32
	Tokens   []int
	// Phones are the phone CTC head's targets (ids of Phones, no blank);
	// nil when the transcript has no phones (a word not in the
	// pronouncing dictionary), which adds no phone loss.
	Phones []int
}

// BatchKey is a training graph's fixed shape: B utterances, T stacked
// input frames (the listener's input length, padded) and S speller steps
// (the longest target plus EOS, padded).
type BatchKey struct{ B, T, S int }

// Batch is a padded batch laid out for a graph of its Key.
type Batch struct {
	Key     BatchKey
	X       []float32 // (B, T, Stack·MelBins) stacked frames, zero past each length
	Lengths []int     // (B) stacked frames per utterance
	Mask    []float32 // (B, T') 1 on real encoder frames, T' = Listener.OutputLength(T)
	DecIn   []int     // (S, B) previous token per step: EOS (start), then the targets; PadID past the end
	Targets []int     // (S·B) step-major targets, EOS after the last character; PadID past it
	Weights []float32 // (S·B) (1−λ)/N on real targets, N the batch's target tokens
	// CTC head (unused without one): targets (B, S) padded with 1,
	// their lengths (B), and per-utterance weights λ/N_ctc, 0 for
	// utterances too short to align their target.
	CTCTargets []int
	CTCLengths []int
	CTCWeights []float32
	// Phone CTC head (unused without one), laid out like the CTC head's:
	// targets (B, S) padded with 1, lengths (B) and weights λp/N_phone,
	// 0 for utterances without phones, with more phones than S or too
	// short to align them.
	PhoneTargets []int
	PhoneLengths []int
	PhoneWeights []float32
	// Tokens is N, the real target tokens (characters and EOS).
	Tokens int
}

// KeyFor returns the smallest key of a bucket grid that holds exs: T
// rounded up to a multiple of tStep stacked frames, S to a multiple of
// sStep steps.
func (m *Model) KeyFor(exs []Example, tStep, sStep int) BatchKey {
	k := BatchKey{B: len(exs)}
	for _, e := range exs {
		k.T = max(k.T, StackedLength(e.Frames, m.Config.Stack))
		k.S = max(k.S, len(e.Tokens)+1)
	}
	k.T = (k.T + tStep - 1) / tStep * tStep
	k.S = (k.S + sStep - 1) / sStep * sStep
	return k
}

// MakeBatch lays out exs as a batch of shape key (which must hold them).
func (m *Model) MakeBatch(key BatchKey, exs []Example) (*Batch, error) {
	bts, err := m.MakeBatches([]BatchKey{key}, [][]Example{exs})
	if err != nil {
		return nil, err
	}
	return bts[0], nil
}

// MakeBatches lays out parts[i] as a batch of shape keys[i], the
// sub-batches of one batch that models.Replicas runs concurrently: every
// loss weight is normalized by the counts of the whole batch (N, N_ctc,
// N_phone over all parts), so the sum of the sub-batches' losses and
// gradients is the loss and gradient of the whole batch as one graph
// would compute it. Each Batch's Tokens is its own part's N. Whether an
// utterance's phones fit depends on its part's key (at most S phones), as
// in MakeBatch.
func (m *Model) MakeBatches(keys []BatchKey, parts [][]Example) ([]*Batch, error) {
	if len(keys) != len(parts) {
		return nil, fmt.Errorf("asr: MakeBatches: %d keys for %d parts", len(keys), len(parts))
	}
	bts := make([]*Batch, len(parts))
	var tokens, ctcTokens, phoneTokens int
	for i, exs := range parts {
		bt, ctc, phones, err := m.layOut(keys[i], exs)
		if err != nil {
			return nil, err
		}
		bts[i] = bt
		tokens, ctcTokens, phoneTokens = tokens+bt.Tokens, ctcTokens+ctc, phoneTokens+phones
	}
	cfg := m.Config
	lambda, lambdaP := float32(cfg.CTCWeight), float32(cfg.PhoneCTCWeight)
	for _, bt := range bts {
		for i, t := range bt.Targets {
			if t != models.PadID {
				bt.Weights[i] = (1 - lambda - lambdaP) / float32(tokens)
			}
		}
		for b := range bt.PhoneWeights {
			if bt.PhoneWeights[b] > 0 {
				bt.PhoneWeights[b] = lambdaP / float32(phoneTokens)
			}
		}
		for b := range bt.CTCWeights {
			if bt.CTCWeights[b] > 0 {
				bt.CTCWeights[b] = lambda / float32(ctcTokens)
			}
		}
	}
	return bts, nil
}

// layOut fills a batch of shape key with exs, its weights 1 on every real
// target and every utterance the CTC heads can align (MakeBatches
// normalizes them), and returns it with its CTC and phone target counts.
func (m *Model) layOut(key BatchKey, exs []Example) (bt *Batch, ctcTokens, phoneTokens int, err error) {
	cfg := m.Config
	B, T, S := key.B, key.T, key.S
	if len(exs) != B {
		return nil, 0, 0, fmt.Errorf("asr: MakeBatch: %d examples for a batch of %d", len(exs), B)
	}
	W := cfg.inputWidth()
	Te := m.Listener.OutputLength(T)
	bt = &Batch{
		Key: key, X: make([]float32, B*T*W), Lengths: make([]int, B), Mask: make([]float32, B*Te),
		DecIn: make([]int, S*B), Targets: make([]int, S*B), Weights: make([]float32, S*B),
		CTCTargets: make([]int, B*S), CTCLengths: make([]int, B), CTCWeights: make([]float32, B),
		PhoneTargets: make([]int, B*S), PhoneLengths: make([]int, B), PhoneWeights: make([]float32, B),
	}
	var stacked []float32
	for b, e := range exs {
		if len(e.Features) != e.Frames*cfg.MelBins {
			return nil, 0, 0, fmt.Errorf("asr: MakeBatch: example %d has %d values for %d frames of %d bins", b, len(e.Features), e.Frames, cfg.MelBins)
		}
		n := StackedLength(e.Frames, cfg.Stack)
		if n > T || len(e.Tokens)+1 > S {
			return nil, 0, 0, fmt.Errorf("asr: MakeBatch: example %d (%d stacked frames, %d tokens) does not fit key %+v", b, n, len(e.Tokens), key)
		}
		stacked = Stack(stacked, e.Features, e.Frames, cfg.MelBins, cfg.Stack)
		copy(bt.X[b*T*W:], stacked)
		bt.Lengths[b] = n
		te := m.Listener.OutputLength(n)
		for t := range te {
			bt.Mask[b*Te+t] = 1
		}
		prev := EOS
		for i := range S {
			bt.DecIn[i*B+b], bt.Targets[i*B+b] = models.PadID, models.PadID
			switch {
			case i < len(e.Tokens):
				bt.DecIn[i*B+b], bt.Targets[i*B+b] = prev, e.Tokens[i]
				prev = e.Tokens[i]
				bt.Tokens++
			case i == len(e.Tokens):
				bt.DecIn[i*B+b], bt.Targets[i*B+b] = prev, EOS
				bt.Tokens++
			}
		}
		for i := range S {
			bt.CTCTargets[b*S+i] = 1
			if i < len(e.Tokens) {
				bt.CTCTargets[b*S+i] = e.Tokens[i]
			}
		}
		bt.CTCLengths[b] = len(e.Tokens)
		if models.CTCFeasible(te, e.Tokens) {
			bt.CTCWeights[b] = 1
			ctcTokens += len(e.Tokens)
		}
		for i := range S {
			bt.PhoneTargets[b*S+i] = 1
		}
		if len(e.Phones) > 0 && len(e.Phones) <= S && models.CTCFeasible(m.phoneLength(n), e.Phones) {
			copy(bt.PhoneTargets[b*S:], e.Phones)
			bt.PhoneLengths[b] = len(e.Phones)
			bt.PhoneWeights[b] = 1
			phoneTokens += len(e.Phones)
		}
	}
	return bt, ctcTokens, phoneTokens, nil
}

// SplitExamples deals exs out to r parts of similar work: sorted from the
// longest (frames, then target tokens), the j-th goes to part j mod r, so
// the parts' sizes differ by at most one (the first parts get the extra
// utterances, which are the shortest) and their longest utterances, which
// set their padded shapes, by little. Each part keeps the order of exs.
// r is capped at len(exs).
func SplitExamples(exs []Example, r int) [][]Example {
	r = max(1, min(r, len(exs)))
	order := make([]int, len(exs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if d := exs[b].Frames - exs[a].Frames; d != 0 {
			return d
		}
		return len(exs[b].Tokens) - len(exs[a].Tokens)
	})
	part := make([]int, len(exs))
	for j, i := range order {
		part[i] = j % r
	}
	parts := make([][]Example, r)
	for i, e := range exs {
		parts[part[i]] = append(parts[part[i]], e)
	}
	return parts
}

// phoneLength returns the frames of the phone head's listener layer for
// n stacked input frames: layer j halves time once per pyramidal layer
// 1 … j.
func (m *Model) phoneLength(n int) int {
	return m.Listener.Lower(m.Config.PhoneCTCLayer + 1).OutputLength(n)
}
