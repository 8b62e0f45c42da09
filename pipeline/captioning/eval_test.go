package captioning

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestEvaluate(t *testing.T) {
	m, err := LoadModel(fixtureModel)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Evaluate(context.Background(), m, EvalOptions{Dataset: fixtureDir, Split: "train", Cache: fixtureCache, Beams: []int{1, 2}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Images != 4 || len(rep.Rows) != 2 {
		t.Fatalf("%d images, %d rows; want 4 and 2", rep.Images, len(rep.Rows))
	}
	for _, r := range rep.Rows {
		// The fixture model says the short caption of every training image.
		if r.Scores.CIDErD < 3 || r.Scores.BLEU[0] < 0.999 {
			t.Errorf("beam %d: %v, want BLEU-1 1 and CIDEr-D ≥ 3 on the training images", r.Beam, r.Scores)
		}
		for _, c := range r.Captions {
			if want := strings.TrimSuffix(c.ID, ".png"); c.Caption.Caption != "a "+strings.ReplaceAll(want, "-", " ") {
				t.Errorf("beam %d: %s: %q", r.Beam, c.ID, c.Caption.Caption)
			}
		}
	}
	if _, err := Evaluate(context.Background(), m, EvalOptions{Dataset: fixtureDir, Split: "train", Cache: fixtureCache, Beams: []int{0}}); err == nil {
		t.Error("beam width 0 accepted")
	}
	_, err = Evaluate(context.Background(), m, EvalOptions{Dataset: fixtureDir, Split: "test"})
	if !errors.Is(err, ErrCache) || !strings.Contains(err.Error(), "caption features -split test") {
		t.Errorf("no cache: %v, want ErrCache with the command that builds it", err)
	}
}
