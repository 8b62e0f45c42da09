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

// Confidence: how far to trust a caption, in [0, 1], made to drop on
// photos unlike the training photos, where the decoder still says a
// fluent Flickr8k sentence ("a man wearing a blue shirt is sitting on
// the grass" for a cat) but says it with less conviction. It is the geometric mean of the
// caption's token probabilities, <eos> included,
//
//	confidence = exp( (1/n) Σ_t log p(y_t | y_<t, image) ),
//
// the decoder's length-normalized likelihood (what the beam ranks by,
// as a probability). Measured on Flickr8k's 1,000 dev photos against 70
// pictures from outside it (TestConfidenceSeparates, docs/caption.md),
// it told them apart better than the least token probability or the
// encoder's classifier (its top probability, one less its normalized
// entropy), which mistakes a clear object photo — an espresso, a cat —
// for a familiar one; blends with the classifier were within the
// measurement's noise, and the decoder's figure alone is the same
// whether the features came from the encoder or a feature cache.

// confidence is a caption's Confidence from its token log-probabilities
// (0 for none).
func confidence(tokenLogProbs []float32) float64 {
	if len(tokenLogProbs) == 0 {
		return 0
	}
	var sum float64
	for _, lp := range tokenLogProbs {
		sum += float64(lp)
	}
	return math.Exp(sum / float64(len(tokenLogProbs)))
}

// LowConfidence is the confidence under which a caption is flagged
// (LowConfidenceNote). With the default model and search (beam 30,
// reranked) it flags 3.4 % of Flickr8k's dev photos and 30 % of the
// outside pictures measured (TestConfidenceSeparates); it was chosen for
// the previous default (MobileNetV2), where it flagged 6 % and 36 %.
const LowConfidence = 0.35

// LowFamiliarity is the familiarity (Result.Familiarity) under which a
// caption is flagged as well. The nearest training photo tells Flickr8k's
// dev photos from the 70 outside pictures far better than the confidence
// (AUROC 0.95 against 0.79, TestConfidenceSeparates with the default
// search): 0.35, the familiarity of the least familiar 1 % of dev photos,
// flags half the outside pictures alone, and with the confidence's flag
// 4.4 % of dev photos and 70 % of the outside pictures (with LowContrast's
// too: 4.4 % and 73 %).
const LowFamiliarity = 0.35

// LowContrast is the contrast (Result.Contrast: vision.Tensor.Contrast of
// the encoder's input) under which a caption is flagged with UniformNote:
// the picture is nearly one colour, so there is nothing in it to
// describe, and a caption of it ("a dog swims through the water", of a
// red square) is made up. None of Flickr8k's 7,000 training and dev
// photos is under 0.04 (the least: a skier on a snowfield); blank and
// transparent pictures are at 0, and of the 70 outside pictures of
// TestConfidenceSeparates five plain backgrounds and textures are under
// 0.02.
const LowContrast = 0.02
