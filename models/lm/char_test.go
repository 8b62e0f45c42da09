package lm_test

import (
	"math"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/lm"
)

// lmLoss runs one training-graph pass and returns the mean loss.
func lmLoss(t *testing.T, c *lm.Char, bs *models.Buckets[lm.Key, lm.Inputs], sents [][]int, S int) float64 {
	t.Helper()
	k := lm.Key{B: len(sents), S: S}
	in, lens, tg, w, _, err := lm.Batch(k, sents)
	if err != nil {
		t.Fatal(err)
	}
	gr, err := bs.Get(k)
	if err != nil {
		t.Fatal(err)
	}
	if err := gr.Inputs.Bind(k, in, lens, tg, w); err != nil {
		t.Fatal(err)
	}
	loss, err := gr.Run()
	if err != nil {
		t.Fatal(err)
	}
	return loss
}

// TestCharLM checks that the eager face (Start/Next) gives the graph's
// loss, and that training makes a tiny corpus predictable.
func TestCharLM(t *testing.T) {
	v := asr.DefaultVocab()
	c := lm.NewChar(lm.CharConfig{Embed: 8, Hidden: 16}, v, 3)
	var sents [][]int
	for _, s := range []string{"abc abc", "abd", "cab", "a b c d"} {
		ids, err := v.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		sents = append(sents, ids)
	}
	bs := models.NewBuckets(c.Params, c.BuildFunc())
	defer bs.Close()
	graphLoss := lmLoss(t, c, bs, sents, 8)
	c.Params.ZeroGrads()
	eager, n := 0.0, 0
	for _, s := range sents {
		st, logp := c.Start()
		for _, tok := range append(append([]int(nil), s...), asr.EOS) {
			eager -= float64(logp[tok])
			n++
			st, logp = c.Next(st, tok)
		}
	}
	eager /= float64(n)
	if math.Abs(eager-graphLoss) > 1e-4 {
		t.Fatalf("eager loss %v, graph loss %v", eager, graphLoss)
	}
	opt := models.NewAdam(c.Params, &models.AdamOptions{LR: 0.02})
	var loss float64
	for range 200 {
		loss = lmLoss(t, c, bs, sents, 8)
		if _, err := opt.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if !(loss < 0.5*graphLoss) {
		t.Errorf("loss %v → %v: the LM did not learn", graphLoss, loss)
	}
	// Round trip through a file.
	f, err := c.File()
	if err != nil {
		t.Fatal(err)
	}
	back, err := lm.LoadChar(f)
	if err != nil {
		t.Fatal(err)
	}
	_, a := c.Start()
	_, b := back.Start()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("reloaded LM differs at %d: %v vs %v", i, a[i], b[i])
		}
	}
}
