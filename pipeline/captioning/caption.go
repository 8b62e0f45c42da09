package captioning

import (
	"encoding/json"
	"math"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/vision"
)

// Caption is the one JSON shape of a caption. Every place that writes a
// caption as JSON embeds it:
//
//	caption -json, Result.MarshalJSON   ResultJSON:  {"path", Caption with Details}
//	a batch's record and json file      BatchRecord: {Caption without Details, "cached", "overlay", "overlay_error"}
//	caption eval -captions (each image) Captioned:   {"id", Caption without Details, "references"}
//	POST /v1/captions                   server.CaptionAnswer: {"model", Caption with Details, "width", "height", "beam", "seconds"}
//
// Result.Brief and Result.Detailed build it from a Result. Without
// Details (a nil pointer) the detail fields are left out of the JSON
// altogether, as a batch record shows a caption; decoding a caption that
// has them allocates Details.
type Caption struct {
	// Caption is the sentence: the words joined by spaces.
	Caption string `json:"caption"`
	// Words are the caption's words, never null ([] for none).
	Words []string `json:"words"`
	// LogProb is the caption's total log probability under the model,
	// log P(words | image), <eos> included when Finished.
	LogProb float64 `json:"log_prob"`
	// Score is what the beam ranked by: LogProb under the length
	// penalty (caption.SearchOptions).
	Score float64 `json:"score"`
	// Finished reports that the search ended the caption with <eos>
	// rather than at the length limit.
	Finished bool `json:"finished"`
	// Confidence in [0, 1] says how far to trust the caption; it drops on
	// photos unlike the training photos (Result.Confidence).
	Confidence Weight `json:"confidence"`
	// Familiarity, when a memory reranked the caption, is the cosine
	// between the photo's key and the nearest training photo's
	// (Result.Familiarity); absent otherwise.
	Familiarity *Weight `json:"familiarity,omitempty"`
	// Contrast, when the image was encoded (not read from the feature
	// cache), is how much the colours of the encoder's input vary
	// (Result.Contrast); absent otherwise.
	Contrast *Weight `json:"contrast,omitempty"`
	// LowConfidence reports Confidence below LowConfidence, Familiarity
	// below LowFamiliarity (the photo looks unlike the training photos)
	// or Contrast below LowContrast (the picture is nearly one colour):
	// the caption is likely wrong.
	LowConfidence bool `json:"low_confidence"`
	// Note says why LowConfidence is set (Result.Note); absent when it
	// is not.
	Note string `json:"note,omitempty"`
	// Labels are the encoder's most probable ImageNet classes, never null
	// ([] when the features came from the feature cache).
	Labels []Label `json:"labels"`

	*Details
}

// Details is what a caption shows beside its words when it is shown
// alone (caption -json, the server): its tokens, where its attention
// went and the beam's other hypotheses.
type Details struct {
	// Tokens are the vocabulary indices of Words, never null.
	Tokens []int `json:"tokens"`
	// Fit is how the photo became the encoder's square input: "Squash"
	// (the grid covers all of it) or "CenterCrop" (its central square).
	Fit vision.Fit `json:"fit"`
	// GridH and GridW shape the attention maps: GridH rows of GridW cells
	// tile the square the encoder saw.
	GridH int `json:"grid_h"`
	GridW int `json:"grid_w"`
	// Attention is per word GridH rows of GridW weights α (row y, column
	// x), rounded to 4 decimals; each word's weights sum to 1.
	Attention [][][]float32 `json:"attention"`
	// Beta is per word the gate β, how much the image context counted
	// (Show, Attend and Tell §4.2.1), rounded to 4 decimals; null where the
	// model gave none.
	Beta []Weight `json:"beta"`
	// Sentinel is per word adaptive attention's sentinel weight β (Lu
	// et al. 2017), rounded to 4 decimals: the share of the word's
	// context that came from the decoder's own memory rather than the
	// image, so 1 − sentinel is how much the word looked (function words
	// look little). Absent for models without a sentinel (soft and hard
	// attention).
	Sentinel []Weight `json:"sentinel,omitempty"`
	// Alternatives are the beam's hypotheses, best first (the first is
	// the caption itself), never null.
	Alternatives []Alternative `json:"alternatives"`
}

// Alternative is one hypothesis of the beam.
type Alternative struct {
	Caption  string  `json:"caption"`
	LogProb  float64 `json:"log_prob"`
	Score    float64 `json:"score"`
	Finished bool    `json:"finished"`
	// Consensus is the candidate's CIDEr-D against the captions of the
	// nearest training images when a memory reranked the beam (which
	// then ordered the alternatives by it plus a share of Score); absent
	// otherwise.
	Consensus *float64 `json:"consensus,omitempty"`
}

// Weight is a weight as a caption's JSON shows it: rounded to 4
// decimals, NaN (no value) as null.
type Weight float32

// MarshalJSON writes w rounded to 4 decimals, or null for NaN and the
// infinities.
func (w Weight) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(w)) || math.IsInf(float64(w), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(Round4(float32(w)))
}

// UnmarshalJSON reads what MarshalJSON writes: null as NaN.
func (w *Weight) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*w = Weight(math.NaN())
		return nil
	}
	var f float32
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*w = Weight(f)
	return nil
}

// Round4 rounds v to 4 decimals, as the JSON of a caption shows weights.
func Round4(v float32) float32 { return float32(math.Round(float64(v)*1e4) / 1e4) }

// Brief returns r's caption without Details: a batch record's shape.
func (r *Result) Brief() Caption {
	words := r.Words
	if words == nil {
		words = []string{} // a caption of no words still lists them
	}
	labels := r.Labels
	if labels == nil {
		labels = []Label{}
	}
	c := Caption{Caption: r.Caption, Words: words, LogProb: r.LogProb, Score: r.Score, Finished: r.Finished,
		Confidence: Weight(r.Confidence), LowConfidence: r.Low(), Note: r.Note(), Labels: labels}
	if r.Familiarity != nil {
		f := Weight(*r.Familiarity)
		c.Familiarity = &f
	}
	if r.Contrast != nil {
		k := Weight(*r.Contrast)
		c.Contrast = &k
	}
	return c
}

// briefCaption returns the caption of a search's hypothesis h without
// Details (an evaluation's row: from cached features, without labels).
func briefCaption(h *caption.Hypothesis) Caption {
	r := Result{Caption: joinWords(h.Words), Words: h.Words, LogProb: h.LogProb, Score: h.Score, Finished: h.Finished,
		Confidence: confidence(h.TokenLogProbs)}
	return r.Brief()
}

// Detailed returns r's caption with its Details: attention laid out per
// word as GridH rows of GridW weights, weights and gates rounded to 4
// decimals, a gate per word (null past the end of r.Beta) and, for a
// model with a sentinel, a sentinel weight per word.
func (r *Result) Detailed() Caption {
	c := r.Brief()
	d := &Details{
		Tokens: r.Tokens, Fit: r.Fit, GridH: r.GridH, GridW: r.GridW,
		Attention: r.AttentionGrids(), Beta: make([]Weight, len(c.Words)), Alternatives: r.Alternatives,
	}
	if d.Tokens == nil {
		d.Tokens = []int{}
	}
	for i := range d.Beta {
		d.Beta[i] = Weight(math.NaN())
		if i < len(r.Beta) {
			d.Beta[i] = Weight(r.Beta[i])
		}
	}
	if r.Sentinel != nil {
		d.Sentinel = make([]Weight, len(c.Words))
		for i := range d.Sentinel {
			d.Sentinel[i] = Weight(math.NaN())
			if i < len(r.Sentinel) {
				d.Sentinel[i] = Weight(r.Sentinel[i])
			}
		}
	}
	if d.Alternatives == nil {
		d.Alternatives = []Alternative{}
	}
	c.Details = d
	return c
}
