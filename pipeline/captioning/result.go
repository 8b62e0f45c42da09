package captioning

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"io"
	"strings"

	"github.com/attend-go/attend/vision"
)

// Result is one image's description in memory: what the search found,
// at full precision, with the image it was found in, for an attention
// figure (package overlay's FromResult). Its JSON is a Caption (Brief,
// Detailed; MarshalJSON writes ResultJSON).
type Result struct {
	// Path names the image as given ("-": standard input; "" for an
	// image.Image given to CaptionImage).
	Path    string
	Caption string
	Words   []string
	Tokens  []int
	// GridH and GridW shape the attention maps: weight y·GridW + x is the
	// grid cell (x, y) of the encoder's input (see Fit).
	GridH, GridW int
	// Fit is how the image became the encoder's square input.
	Fit vision.Fit
	// Attention holds per word the L = GridH·GridW attention weights α
	// with which the decoder said it.
	Attention [][]float32
	// Beta holds per word the gate β: how much the image context counted.
	Beta []float32
	// Sentinel holds per word adaptive attention's sentinel weight β
	// (Lu et al. 2017): the share of the word's context read from the
	// decoder's own memory instead of the image (1 − it: how much the
	// word looked). nil for soft and hard attention.
	Sentinel []float32
	LogProb  float64
	Score    float64
	Finished bool
	// TokenLogProbs holds log p(word | the words before, image) per word,
	// then <eos>'s when Finished (caption.Hypothesis.TokenLogProbs).
	TokenLogProbs []float32
	// Labels are the encoder's TopLabels most probable ImageNet classes,
	// from the pass that gave the features; nil when the features came
	// from the feature cache, which keeps no class probabilities.
	Labels []Label
	// Confidence in [0, 1] says how far to trust the caption; it is low
	// on photos unlike the training photos (see confidence.go).
	Confidence float64
	// Familiarity, with a memory, is the cosine between the photo's key
	// and the nearest training photo's (Memory.Nearness): how like the
	// training photos the photo is, which tells photos unlike them apart
	// better than Confidence does (confidence.go). nil without a memory.
	Familiarity *float64
	// Contrast is how much the colours of the encoder's input vary
	// (vision.Tensor.Contrast, in [0, 0.5]): under LowContrast the
	// picture is nearly one colour. nil when the features came from the
	// feature cache.
	Contrast *float64
	// Alternatives are the beam's hypotheses, best first (the first is
	// the caption itself).
	Alternatives []Alternative
	// Cached reports that the features came from the feature cache.
	Cached bool
	// Image is the decoded image, upright, when it was decoded (always,
	// unless the cache held its features and Input.KeepImage was false):
	// what a figure is drawn over.
	Image image.Image
}

// ResultJSON is the JSON object of a Result ("caption -json"): its path
// and its Caption with Details. Result.MarshalJSON writes it.
type ResultJSON struct {
	Path string `json:"path"`
	Caption
}

// JSON returns r's JSON object.
func (r *Result) JSON() ResultJSON { return ResultJSON{Path: r.Path, Caption: r.Detailed()} }

// MarshalJSON writes r as ResultJSON, without escaping HTML ("<unk>"
// stays as it is).
func (r *Result) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r.JSON()); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// AttentionGrids returns per word its attention as GridH rows of GridW
// weights, rounded to 4 decimals.
func (r *Result) AttentionGrids() [][][]float32 {
	grids := make([][][]float32, len(r.Attention))
	for i, a := range r.Attention {
		grid := make([][]float32, r.GridH)
		for y := range grid {
			grid[y] = make([]float32, r.GridW)
			for x := range grid[y] {
				grid[y][x] = Round4(a[y*r.GridW+x])
			}
		}
		grids[i] = grid
	}
	return grids
}

// LowConfidenceNote is what a caption of low confidence is flagged with.
const LowConfidenceNote = "low confidence: this photo looks unlike the training photos"

// UniformNote is what a caption of a picture of nearly one colour
// (Contrast under LowContrast) is flagged with.
const UniformNote = "low confidence: the picture is nearly one colour, with nothing in it to describe"

// Note returns why r's caption is flagged: UniformNote for a picture of
// nearly one colour, LowConfidenceNote for another one Low reports, ""
// for a caption not flagged.
func (r *Result) Note() string {
	switch {
	case r.uniform():
		return UniformNote
	case r.Low():
		return LowConfidenceNote
	}
	return ""
}

// uniform reports a picture of nearly one colour.
func (r *Result) uniform() bool { return r.Contrast != nil && *r.Contrast < LowContrast }

// Notes returns what is said beside r's caption in text: the encoder's
// labels with their probabilities (when known), the confidence and the
// familiarity (when known), with the Note when the caption is flagged, as
//
//	labels: daisy 0.62, pot 0.11, bee 0.05	confidence 0.21, familiarity 0.18 (low confidence: this photo looks unlike the training photos)
func (r *Result) Notes() string {
	var b strings.Builder
	if len(r.Labels) > 0 {
		b.WriteString("labels: ")
		for i, l := range r.Labels {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %.2f", l.Label, l.Prob)
		}
		b.WriteByte('\t')
	}
	fmt.Fprintf(&b, "confidence %.2f", r.Confidence)
	if r.Familiarity != nil {
		fmt.Fprintf(&b, ", familiarity %.2f", *r.Familiarity)
	}
	if note := r.Note(); note != "" {
		b.WriteString(" (" + note + ")")
	}
	return b.String()
}

// Low reports a caption to flag: Confidence under LowConfidence, a
// Familiarity under LowFamiliarity or a Contrast under LowContrast.
func (r *Result) Low() bool {
	return r.Confidence < LowConfidence || r.Familiarity != nil && *r.Familiarity < LowFamiliarity || r.uniform()
}

// Formats are the formats of WriteResult.
var Formats = []string{"txt", "json"}

// WriteResult writes r in format: "txt" one line, preceded by prefix (as
// "PATH\t" when there are several images), of its caption, a tab and
// its Notes; "json" one line of ResultJSON.
func WriteResult(w io.Writer, r *Result, format, prefix string) error {
	switch format {
	case "txt":
		_, err := fmt.Fprintf(w, "%s%s\t%s\n", prefix, r.Caption, r.Notes())
		return err
	case "json":
		b, err := r.MarshalJSON()
		if err != nil {
			return fmt.Errorf("captioning: %w", err)
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	return fmt.Errorf("captioning: unknown format %q (want txt or json)", format)
}
