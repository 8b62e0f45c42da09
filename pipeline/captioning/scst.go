package captioning

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline/captiondata"
	"github.com/attend-go/attend/pipeline/metrics"
)

// Self-critical sequence training (TrainOptions.SCST) fine-tunes a
// cross-entropy model on CIDEr-D itself (Rennie et al. 2017, in the
// variant of Luo 2020, arXiv:2003.09971). An epoch visits every training
// image once, in an order shuffled by Seed and epoch; a batch holds
// BatchSize/K images (at least one), K = SCSTSamples. For each image the
// eager decoder, without dropout, samples K captions (caption.Model.Sample,
// at most MaxWords words); each caption's reward r is its
// CIDEr-D against the image's reference captions, with document
// frequencies from the training split's references (never dev); its
// baseline is the mean reward of the image's K − 1 other captions:
//
//	A_j = r_j − (1/(K−1))·Σ_{i≠j} r_i
//
// Samples may say <unk>, which matches no reference word: were it kept
// out, the policy gradient would never push it down, and each negative
// advantage would raise its probability with every word not sampled
// (after 500 steps without it, 72 of 200 dev captions said <unk> when
// search allowed it).
//
// The K·(BatchSize/K) sampled captions then run through the training graph
// (dropout as in cross-entropy training) as a batch whose token weights
// are A_j/N instead of 1/N, N the batch's sampled tokens (words, and <end>
// for captions that ended; a caption cut at MaxWords has no <end> to
// learn), so the cross-entropy becomes the policy-gradient surrogate
//
//	L = −(1/N)·Σ_j A_j·Σ_t log p(y_jt | y_j,<t, a)
//
// normalized per token as Luo's code does (and as the cross-entropy is),
// so that Adam sees gradients of the usual scale. Label smoothing would
// bias this gradient and the doubly stochastic penalty is no part of the
// reward, so both are turned off (and logged). The sampler's generator is
// seeded by Seed, epoch and batch, so a resumed run draws the same
// captions; only soft attention is supported.

// errSCST marks options that self-critical training cannot run with.
var errSCST = errors.New("captioning: train: SCST")

// checkSCST reports SCST options that cannot work, before any data is
// read; K must have its default.
func (o *TrainOptions) checkSCST() error {
	switch {
	case !o.SCST:
		return nil
	case o.Accumulate > 1:
		return fmt.Errorf("%w: gradient accumulation (Accumulate %d) covers cross-entropy training only", errSCST, o.Accumulate)
	case o.SCSTSamples < 2:
		return fmt.Errorf("%w: %d samples per image, want at least 2 (each sample's baseline is the others' mean reward)", errSCST, o.SCSTSamples)
	case o.Init == "" && !o.Resume:
		return fmt.Errorf("%w fine-tunes a trained model: give Init (or Resume an SCST run)", errSCST)
	case o.Config.Attention == caption.Hard:
		return fmt.Errorf("%w: hard attention is not supported, only soft and adaptive", errSCST)
	}
	return nil
}

// prepareSCST turns off what the SCST loss cannot have (label smoothing,
// the attention penalty), logging it, and rejects hard attention (its
// sampled regions would need a second policy gradient).
func prepareSCST(m *caption.Model, logf func(string, ...any)) error {
	if a := m.Config.Attention; a != caption.Soft && a != caption.Adaptive {
		return fmt.Errorf("%w: the model has %s attention; only soft and adaptive attention are supported", errSCST, a)
	}
	var off []string
	if eps := m.Config.LabelSmoothing; eps != 0 {
		off = append(off, fmt.Sprintf("label smoothing (ε = %g)", eps))
	}
	if lam := m.Config.DoublyStochastic; lam != 0 {
		off = append(off, fmt.Sprintf("the doubly stochastic penalty (λ = %g)", lam))
	}
	if len(off) > 0 {
		logf("scst: turned off %s: the loss is the policy gradient alone", strings.Join(off, " and "))
	}
	m.Config.LabelSmoothing, m.Config.DoublyStochastic = 0, 0
	return nil
}

// scstImage is a training image of self-critical training.
type scstImage struct {
	record int        // its record in the feature cache
	refs   [][]string // its tokenized, non-empty reference captions
}

// batchResult is what one training batch did, SCST or cross-entropy.
type batchResult struct {
	tokens int     // target tokens trained on (N)
	loss   float64 // the cross-entropy, or SCST's surrogate −(1/N)·Σ A·log p
	reward float64 // SCST: the samples' mean CIDEr-D
}

// scstTrainer runs the batches of self-critical training.
type scstTrainer struct {
	model   *caption.Model
	trainer *caption.Trainer
	buckets *models.Buckets[caption.BatchKey, *caption.Inputs]
	cache   *captiondata.Cache
	scorer  *metrics.CIDErDScorer
	images  []scstImage
	k       int // samples per image
	per     int // images per batch
	round   int // StepRound
	seed    uint64
	sample  caption.SearchOptions
	plan    []int // the epoch's image order
	ws      caption.Workspace
	feats   [][]float32
	exs     []caption.Example
	rewards []float64
	adv     []float64
}

// newSCSTTrainer prepares self-critical training on the images: their
// references and the CIDEr-D scorer of their document frequencies.
func newSCSTTrainer(o *TrainOptions, m *caption.Model, tr *caption.Trainer, b *models.Buckets[caption.BatchKey, *caption.Inputs],
	cache *captiondata.Cache, images []captiondata.Image) (*scstTrainer, error) {
	s := &scstTrainer{
		model: m, trainer: tr, buckets: b, cache: cache, k: o.SCSTSamples, per: max(1, o.BatchSize/o.SCSTSamples),
		round: o.StepRound, seed: o.Seed, sample: caption.SearchOptions{MaxLength: o.MaxWords, LengthPenalty: 1},
	}
	var refSets [][][]string
	for _, im := range images {
		rec, ok := cache.Lookup(im.ID)
		if !ok { // openCache checked every image
			return nil, fmt.Errorf("%w: %s: no image %s", ErrCache, cache.Path(), im.ID)
		}
		var refs [][]string
		for _, c := range im.Captions {
			if words := captiondata.Tokenize(c); len(words) > 0 {
				refs = append(refs, words)
			}
		}
		if len(refs) > 0 {
			s.images = append(s.images, scstImage{record: rec, refs: refs})
			refSets = append(refSets, refs)
		}
	}
	if len(s.images) < s.per {
		return nil, fmt.Errorf("%w: %d training images with captions, fewer than one batch of %d", errSCST, len(s.images), s.per)
	}
	var err error
	if s.scorer, err = metrics.NewCIDErD(refSets); err != nil {
		return nil, fmt.Errorf("%w: %w", errSCST, err)
	}
	return s, nil
}

// planEpoch shuffles the images for an epoch (by Seed and epoch alone, so
// a resumed run replays it) and returns its number of batches; the last
// partial batch is dropped.
func (s *scstTrainer) planEpoch(epoch int) int {
	rng := rand.New(rand.NewPCG(s.seed, uint64(epoch)))
	s.plan = rng.Perm(len(s.images))
	return len(s.plan) / s.per
}

// step samples, scores and trains on batch bi of the epoch planned: it
// runs the graph, which adds the gradients; the caller steps the
// optimizer.
func (s *scstTrainer) step(epoch, bi int) (batchResult, error) {
	images := s.plan[bi*s.per : (bi+1)*s.per]
	for len(s.feats) < len(images) {
		s.feats = append(s.feats, nil)
	}
	for i, ix := range images {
		f, err := s.cache.Features(s.images[ix].record, s.feats[i])
		if err != nil {
			return batchResult{}, err
		}
		s.feats[i] = f
	}
	feats := s.feats[:len(images)]
	e, err := s.model.Encode(feats, s.k)
	if err != nil {
		return batchResult{}, err
	}
	rng := rand.New(rand.NewPCG(s.seed^0x5c57, uint64(epoch)<<32|uint64(bi)))
	samples, err := s.model.Sample(&s.ws, e, rng, &s.sample)
	if err != nil {
		return batchResult{}, err
	}
	s.rewards = s.rewards[:0]
	s.exs = s.exs[:0]
	var out batchResult
	for j, smp := range samples {
		im := &s.images[images[j/s.k]]
		r, err := s.scorer.Score(s.model.Vocab.Words(smp.Tokens), im.refs)
		if err != nil {
			return batchResult{}, fmt.Errorf("%w: %w", errSCST, err)
		}
		s.rewards = append(s.rewards, r)
		out.reward += r
		s.exs = append(s.exs, caption.Example{Features: feats[j/s.k], Tokens: smp.Tokens})
	}
	out.reward /= float64(len(samples))
	s.adv = leaveOneOut(s.adv, s.rewards, s.k)
	key := caption.KeyFor(s.exs, s.round)
	bt, err := s.model.MakeBatch(key, s.exs)
	if err != nil {
		return batchResult{}, err
	}
	scstWeights(bt, samples, s.adv)
	gr, err := s.buckets.Get(key)
	if err != nil {
		return batchResult{}, err
	}
	loss, err := s.trainer.Run(gr, bt)
	if err != nil {
		return batchResult{}, err
	}
	out.tokens, out.loss = bt.Tokens, loss.CrossEntropy
	return out, nil
}

// leaveOneOut writes into dst (reused) the advantage of each reward of
// consecutive groups of k (k ≥ 2): the reward less the mean of the
// group's other k − 1.
func leaveOneOut(dst, rewards []float64, k int) []float64 {
	dst = dst[:0]
	for g := 0; g+k <= len(rewards); g += k {
		var sum float64
		for _, r := range rewards[g : g+k] {
			sum += r
		}
		for _, r := range rewards[g : g+k] {
			dst = append(dst, r-(sum-r)/float64(k-1))
		}
	}
	return dst
}

// scstWeights turns bt, a batch of the sampled captions laid out by
// MakeBatch, into the SCST batch: a caption that did not end loses the
// <end> target MakeBatch gave it, N counts the tokens left, and every
// token of caption b weighs adv[b]/N.
func scstWeights(bt *caption.Batch, samples []caption.Sampled, adv []float64) {
	B, S := bt.Key.B, bt.Key.S
	for b, smp := range samples {
		if end := len(smp.Tokens); !smp.Finished && end < S {
			bt.Targets[end*B+b] = models.PadID
			bt.Steps[b*S+end] = 0
			bt.Tokens--
		}
	}
	for i, t := range bt.Targets {
		bt.Weights[i] = 0
		if t != models.PadID {
			bt.Weights[i] = float32(adv[i%B] / float64(bt.Tokens))
		}
	}
}
