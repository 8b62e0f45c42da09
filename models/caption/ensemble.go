package caption

import (
	"fmt"
	"math"
	"slices"
)

// Ensemble captions with several models at once: at every step of the
// search the next word's distribution is the mean of the members',
//
//	p(y_t | y_<t, a) = 1/n Σ_i p_i(y_t | y_<t, a),
//
// each member keeping its own LSTM state and attention over the same
// annotations (the ensembles of Sutskever et al. 2014 and Vinyals et al.
// 2015, "Show and Tell" §4.3). The members must share the vocabulary and
// the grid (L, D); they may differ in everything else. The attention
// weights and gates a hypothesis reports are the members' means.
type Ensemble struct {
	Models []*Model
}

// NewEnsemble returns the ensemble of models, checking that they share
// the vocabulary and the grid.
func NewEnsemble(models ...*Model) (*Ensemble, error) {
	if len(models) == 0 {
		return nil, fmt.Errorf("%w: an ensemble needs at least one model", ErrInput)
	}
	first := models[0]
	for i, m := range models[1:] {
		switch {
		case m.Config.Regions != first.Config.Regions || m.Config.FeatureDim != first.Config.FeatureDim:
			return nil, fmt.Errorf("%w: ensemble: model %d reads %d regions of %d features, model 1 %d of %d",
				ErrInput, i+2, m.Config.Regions, m.Config.FeatureDim, first.Config.Regions, first.Config.FeatureDim)
		case !slices.Equal(m.Vocab.List(), first.Vocab.List()):
			return nil, fmt.Errorf("%w: ensemble: model %d's vocabulary (%d words) is not model 1's (%d words): members must be trained on the same vocabulary",
				ErrVocab, i+2, m.Vocab.Size(), first.Vocab.Size())
		}
	}
	return &Ensemble{Models: models}, nil
}

// Beam captions one image ((L, D) annotations) with beam search of width
// k over the ensemble's mean distribution; see Model.Beam. ws may be nil.
func (en *Ensemble) Beam(ws *Workspace, features []float32, k int, opts *SearchOptions) ([]Hypothesis, error) {
	o, err := opts.forBeam(k)
	if err != nil {
		return nil, err
	}
	if ws == nil {
		ws = &Workspace{}
	}
	if len(ws.members) < len(en.Models) {
		ws.members = make([]Workspace, len(en.Models))
	}
	st := &ensembleStepper{members: make([]*modelStepper, len(en.Models))}
	for i, m := range en.Models {
		if st.members[i], err = m.stepper(&ws.members[i], features, k); err != nil {
			return nil, fmt.Errorf("ensemble model %d: %w", i+1, err)
		}
	}
	first := en.Models[0]
	return beam(st, first.Vocab, first.Config.Regions, k, &o)
}

// Greedy captions each image with the ensemble's most likely next word
// at every step: beam search of width 1, an image at a time.
func (en *Ensemble) Greedy(ws *Workspace, images [][]float32, opts *SearchOptions) ([]Hypothesis, error) {
	out := make([]Hypothesis, len(images))
	for i, f := range images {
		hyps, err := en.Beam(ws, f, 1, opts)
		if err != nil {
			return nil, fmt.Errorf("image %d: %w", i, err)
		}
		out[i] = hyps[0]
	}
	return out, nil
}

// ensembleStepper steps every member and mixes their distributions.
type ensembleStepper struct {
	members                       []*modelStepper
	logp, weights, beta, sentinel []float32
}

func (s *ensembleStepper) step(tokens []int) ([]float32, error) {
	n := len(s.members)
	rows := make([][]float32, n)
	for i, m := range s.members {
		lp, err := m.step(tokens)
		if err != nil {
			return nil, fmt.Errorf("ensemble model %d: %w", i+1, err)
		}
		rows[i] = lp
	}
	s.logp = grow(s.logp, len(rows[0]))
	meanProbs(s.logp, rows)
	s.weights = meanOf(s.weights, s.members, func(st *State) []float32 { return st.Attention.Weights })
	s.beta = meanOf(s.beta, s.members, func(st *State) []float32 { return st.Beta })
	s.sentinel = nil
	if s.members[0].next.Attention.Sentinel != nil {
		s.sentinel = meanOf(s.sentinel, s.members, func(st *State) []float32 { return st.Attention.Sentinel })
	}
	return s.logp, nil
}

func (s *ensembleStepper) looked() (weights, beta, sentinel []float32) {
	return s.weights, s.beta, s.sentinel
}

func (s *ensembleStepper) gather(rows []int) error {
	for i, m := range s.members {
		if err := m.gather(rows); err != nil {
			return fmt.Errorf("ensemble model %d: %w", i+1, err)
		}
	}
	return nil
}

// meanProbs sets dst[j] = log(1/n Σ_i exp(logps[i][j])), computed from
// the largest term so that no exponential overflows or vanishes whole.
func meanProbs(dst []float32, logps [][]float32) {
	logn := math.Log(float64(len(logps)))
	for j := range dst {
		top := math.Inf(-1)
		for _, lp := range logps {
			top = math.Max(top, float64(lp[j]))
		}
		if math.IsInf(top, -1) {
			dst[j] = float32(top)
			continue
		}
		sum := 0.0
		for _, lp := range logps {
			sum += math.Exp(float64(lp[j]) - top)
		}
		dst[j] = float32(top + math.Log(sum) - logn)
	}
}

// meanOf returns in dst the mean over the members of field of the state
// after their last step, the first member's giving the length; a member
// without it (a sentinel) counts as 0.
func meanOf(dst []float32, members []*modelStepper, field func(*State) []float32) []float32 {
	dst = append(dst[:0], field(members[0].next)...)
	for _, m := range members[1:] {
		x := field(m.next)
		for j := range min(len(dst), len(x)) {
			dst[j] += x[j]
		}
	}
	for j := range dst {
		dst[j] /= float32(len(members))
	}
	return dst
}

// Searcher captions images from their annotations: a *Model or an
// *Ensemble.
type Searcher interface {
	// Beam captions one image with beam search of width k.
	Beam(ws *Workspace, features []float32, k int, opts *SearchOptions) ([]Hypothesis, error)
	// Greedy captions images with greedy search.
	Greedy(ws *Workspace, images [][]float32, opts *SearchOptions) ([]Hypothesis, error)
	// Grid returns the regions L and the features D of each that the
	// annotations must have.
	Grid() (L, D int)
}

// Grid returns the model's regions L and features per region D.
func (m *Model) Grid() (L, D int) { return m.Config.Regions, m.Config.FeatureDim }

// Grid returns the members' regions L and features per region D.
func (en *Ensemble) Grid() (L, D int) { return en.Models[0].Grid() }
