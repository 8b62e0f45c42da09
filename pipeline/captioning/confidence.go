package captioning

import (
	"math"

	"github.com/attend-go/attend/vision"
)

// Label is one of the encoder's ImageNet classes with its probability:
// what the encoder itself recognizes in the photo ("daisy 0.62"),
// beside what the decoder says.
type Label struct {
	// Label is the class's first name ("tench" of "tench, Tinca tinca").
	Label string `json:"label"`
	// Prob is the classifier's probability, rounded to 4 decimals.
	Prob Weight `json:"prob"`
}

// TopLabels is how many classes a result lists.
const TopLabels = 3

// topLabels returns the TopLabels most probable classes of probs, the
// encoder's output over vision.ImageNetLabels (nil for nil probs).
func topLabels(probs []float32) []Label {
	if probs == nil {
		return nil
	}
	labels := vision.ImageNetLabels()
	if len(probs) != len(labels) {
		labels = nil // an encoder of other classes: numbered, not named
	}
	top := vision.TopK(probs, labels, TopLabels)
	out := make([]Label, len(top))
	for i, p := range top {
		out[i] = Label{Label: vision.ShortLabel(p.Label), Prob: Weight(p.Prob)}
	}
	return out
}

// confidenceSignals are the measures a caption's confidence is made of.
type confidenceSignals struct {
	// meanTokenProb is the geometric mean of the caption's token
	// probabilities, <eos> included: exp of the mean log-probability.
	meanTokenProb float64
	// minTokenProb is the least probable token's probability.
	minTokenProb float64
	// classMax is the classifier's largest class probability (NaN
	// without class probabilities).
	classMax float64
	// classCertainty is 1 − H(p)/log C, one less the classifier's
	// normalized entropy (NaN without class probabilities).
	classCertainty float64
}

// signals measures a caption (its token log-probabilities) and its
// image (the classifier's probabilities, nil when unknown).
func signals(tokenLogProbs, probs []float32) confidenceSignals {
	s := confidenceSignals{meanTokenProb: 0, minTokenProb: 0, classMax: math.NaN(), classCertainty: math.NaN()}
	if len(tokenLogProbs) > 0 {
		var sum float64
		least := math.Inf(1)
		for _, lp := range tokenLogProbs {
			sum += float64(lp)
			least = min(least, float64(lp))
		}
		s.meanTokenProb = math.Exp(sum / float64(len(tokenLogProbs)))
		s.minTokenProb = math.Exp(least)
	}
	if len(probs) > 1 {
		var h, top float64
		for _, p := range probs {
			if p > 0 {
				h -= float64(p) * math.Log(float64(p))
			}
			top = max(top, float64(p))
		}
		s.classMax = top
		s.classCertainty = min(max(1-h/math.Log(float64(len(probs))), 0), 1)
	}
	return s
}

// confidence is a caption's confidence in [0, 1].
func confidence(tokenLogProbs, probs []float32) float64 {
	return signals(tokenLogProbs, probs).meanTokenProb
}

// LowConfidence is the confidence under which a caption is flagged: the
// photo looks unlike the training photos.
const LowConfidence = 0.3
