package metrics

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Errors returned by the caption metrics; test for them with errors.Is.
var (
	// ErrNoSamples: there is nothing to score.
	ErrNoSamples = errors.New("metrics: no captions to score")
	// ErrMissingID: an image has a candidate but no references, or
	// references but no candidate.
	ErrMissingID = errors.New("metrics: candidates and references cover different images")
	// ErrNoReferences: an image has an empty list of references.
	ErrNoReferences = errors.New("metrics: image has no reference captions")
	// ErrEmptyReference: a reference caption has no words.
	ErrEmptyReference = errors.New("metrics: reference caption has no words")
)

// A Sample is one image's tokenized candidate caption and reference
// captions, the unit every caption metric scores. Tokens are compared
// exactly: make them with Tokenize (NewSamples does).
type Sample struct {
	ID   string     // names the image in errors; may be empty
	Cand []string   // candidate tokens; may be empty (it then scores 0)
	Refs [][]string // reference tokens: at least one reference, none empty
}

// CaptionScores holds the corpus-level caption metrics as the COCO caption
// evaluation reports them: fractions in [0, 1] for BLEU, METEOR and
// ROUGE-L, and CIDEr-D on its own scale (0 to 10, typically 0.4–1.2 for
// trained models; papers often print it ×100). A goal such as "CIDEr-D ≥
// 0.45" means the CIDErD field as it is here.
//
// The JSON names are the field names in lower case, which decoding
// matches case-insensitively: training checkpoints written before the
// names existed (with "ROUGEL", "CIDErD") still resume with their scores.
type CaptionScores struct {
	BLEU   [4]float64 `json:"bleu"`   // BLEU-1 … BLEU-4 (BLEU)
	METEOR float64    `json:"meteor"` // METEOR
	ROUGEL float64    `json:"rougel"` // ROUGE-L (ROUGEL)
	CIDErD float64    `json:"ciderd"` // CIDEr-D (CIDErD)
}

// String formats the scores on one line, for example
// "BLEU-1 0.6500 BLEU-2 0.4500 BLEU-3 0.3000 BLEU-4 0.2000 METEOR 0.2000 ROUGE-L 0.4700 CIDEr-D 0.5000".
func (s CaptionScores) String() string {
	return fmt.Sprintf("BLEU-1 %.4f BLEU-2 %.4f BLEU-3 %.4f BLEU-4 %.4f METEOR %.4f ROUGE-L %.4f CIDEr-D %.4f",
		s.BLEU[0], s.BLEU[1], s.BLEU[2], s.BLEU[3], s.METEOR, s.ROUGEL, s.CIDErD)
}

// ScoreCaptions tokenizes candidate and reference captions keyed by image
// id with Tokenize (NewSamples) and computes every caption metric over
// the whole set (ScoreSamples). Both maps must hold the same ids; the error names the
// ids that differ and the images without usable references.
func ScoreCaptions(cands map[string]string, refs map[string][]string) (CaptionScores, error) {
	samples, err := NewSamples(cands, refs)
	if err != nil {
		return CaptionScores{}, err
	}
	return ScoreSamples(samples)
}

// ScoreSamples computes BLEU-1…4, METEOR (default options), ROUGE-L and
// CIDEr-D over the samples, as the functions of the same names do.
func ScoreSamples(samples []Sample) (CaptionScores, error) {
	c, err := newCaptionCorpus(samples)
	if err != nil {
		return CaptionScores{}, err
	}
	var s CaptionScores
	s.BLEU = c.bleu()
	s.METEOR, _ = c.meteorWith(meteorDefaults)
	s.ROUGEL, _ = c.rougeL()
	s.CIDErD, _ = c.ciderD()
	return s, nil
}

// NewSamples tokenizes candidate and reference captions keyed by image id
// into samples sorted by id. It fails with ErrNoSamples when both maps are
// empty, ErrMissingID when their ids differ (naming up to five of each
// kind), and ErrNoReferences or ErrEmptyReference for an image without
// usable references.
func NewSamples(cands map[string]string, refs map[string][]string) ([]Sample, error) {
	if len(cands) == 0 && len(refs) == 0 {
		return nil, ErrNoSamples
	}
	var noRefs, noCand []string
	for id := range cands {
		if _, ok := refs[id]; !ok {
			noRefs = append(noRefs, id)
		}
	}
	for id := range refs {
		if _, ok := cands[id]; !ok {
			noCand = append(noCand, id)
		}
	}
	if len(noRefs) > 0 || len(noCand) > 0 {
		var parts []string
		if len(noRefs) > 0 {
			parts = append(parts, fmt.Sprintf("%d candidate(s) without references: %s", len(noRefs), someIDs(noRefs)))
		}
		if len(noCand) > 0 {
			parts = append(parts, fmt.Sprintf("%d image(s) with references but no candidate: %s", len(noCand), someIDs(noCand)))
		}
		return nil, fmt.Errorf("%w: %s", ErrMissingID, strings.Join(parts, "; "))
	}
	ids := make([]string, 0, len(cands))
	for id := range cands {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	samples := make([]Sample, len(ids))
	for i, id := range ids {
		s := Sample{ID: id, Cand: Tokenize(cands[id]), Refs: make([][]string, len(refs[id]))}
		for j, r := range refs[id] {
			s.Refs[j] = Tokenize(r)
			if len(s.Refs[j]) == 0 {
				return nil, fmt.Errorf("%w: image %q, reference %d (%q)", ErrEmptyReference, id, j, r)
			}
		}
		if len(s.Refs) == 0 {
			return nil, fmt.Errorf("%w: image %q", ErrNoReferences, id)
		}
		samples[i] = s
	}
	return samples, nil
}

// someIDs lists up to five of ids, sorted and quoted.
func someIDs(ids []string) string {
	slices.Sort(ids)
	const most = 5
	var b strings.Builder
	for i, id := range ids {
		if i == most {
			fmt.Fprintf(&b, " and %d more", len(ids)-most)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", id)
	}
	return b.String()
}

// ValidateSamples checks what every caption metric needs: at least one
// sample, and for each sample at least one reference, none of them empty.
// The error names the sample by index and ID.
func ValidateSamples(samples []Sample) error {
	if len(samples) == 0 {
		return ErrNoSamples
	}
	for i, s := range samples {
		if len(s.Refs) == 0 {
			return fmt.Errorf("%w: sample %d (id %q)", ErrNoReferences, i, s.ID)
		}
		for j, r := range s.Refs {
			if len(r) == 0 {
				return fmt.Errorf("%w: sample %d (id %q), reference %d", ErrEmptyReference, i, s.ID, j)
			}
		}
	}
	return nil
}
