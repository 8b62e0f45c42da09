package whisper

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// probsLogits returns log p, so that log_softmax gives back log p.
func probsLogits(p ...float64) []float32 {
	x := make([]float32, len(p))
	for i, v := range p {
		x[i] = float32(math.Log(v))
	}
	return x
}

func TestGreedyDecoder(t *testing.T) {
	g := &GreedyDecoder{EOT: 3}
	sum := []float32{0, -1}
	logits := [][]float32{{1, 3, 3, 0}, {5, 0, 0, 0}}
	next, src, done := g.Update([][]int{{9}, {9, 3}}, logits, sum)
	// Row 0: the first of the two maxima; row 1 has ended: EOT again, no
	// log-probability added.
	if !slices.Equal(next[0], []int{9, 1}) || !slices.Equal(next[1], []int{9, 3, 3}) || !slices.Equal(src, []int{0, 1}) || done {
		t.Fatalf("Update = %v %v %v", next, src, done)
	}
	want := float32(3 - math.Log(math.Exp(1)+2*math.Exp(3)+1))
	if math.Abs(float64(sum[0]-want)) > 1e-6 || sum[1] != -1 {
		t.Errorf("sum log-probabilities %v, want [%v -1]", sum, want)
	}
	cands, scores := g.Finalize(next, sum)
	if !slices.Equal(cands[0], []int{9, 1, 3}) || scores[1] != -1 {
		t.Errorf("Finalize = %v %v", cands, scores)
	}
	_, _, done = g.Update([][]int{{3}, {3}}, logits, sum)
	if !done {
		t.Error("all sequences ended but not completed")
	}
}

func TestGreedySamplingFrequencies(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		temperature, want float64
	}{
		{1, 0.75},  // softmax(0, log 3)
		{0.5, 0.9}, // softmax(0, 2 log 3)
	} {
		g := &GreedyDecoder{Temperature: tc.temperature, EOT: 99, Rand: r}
		n, ones := 4000, 0
		for range n {
			next, _, _ := g.Update([][]int{{0}}, [][]float32{probsLogits(0.25, 0.75)}, []float32{0})
			if next[0][1] == 1 {
				ones++
			}
		}
		if f := float64(ones) / float64(n); math.Abs(f-tc.want) > 0.03 {
			t.Errorf("temperature %v: token 1 drawn %.3f of the time, want %.2f", tc.temperature, f, tc.want)
		}
	}
}

// TestBeamSearch walks decoding.py's BeamSearchDecoder through three steps
// of a hand-made case (beam 2, EOT = 3), with the outcome worked out from
// its rules: identical initial beams collapse, finished sequences are set
// aside, and the ranker's length normalization decides.
func TestBeamSearch(t *testing.T) {
	const S = 7
	b := &BeamSearchDecoder{BeamSize: 2, EOT: 3}
	b.Reset()
	sum := []float32{0, 0}
	first := probsLogits(0.5, 0.3, 0.15, 0.05)
	seqs, src, done := b.Update([][]int{{S}, {S}}, [][]float32{first, first}, sum)
	if !slices.Equal(seqs[0], []int{S, 0}) || !slices.Equal(seqs[1], []int{S, 1}) || done {
		t.Fatalf("step 1: %v done=%v", seqs, done)
	}
	// Both candidates were last written from beam 1 (a Python dict keeps
	// the last value for a repeated key).
	if !slices.Equal(src, []int{1, 1}) {
		t.Errorf("step 1 sources %v, want [1 1]", src)
	}

	seqs, src, done = b.Update(seqs, [][]float32{probsLogits(0.12, 0.1, 0.08, 0.7), probsLogits(0.6, 0.25, 0.1, 0.05)}, sum)
	if !slices.Equal(seqs[0], []int{S, 1, 0}) || !slices.Equal(seqs[1], []int{S, 1, 1}) || !slices.Equal(src, []int{1, 1}) || done {
		t.Fatalf("step 2: %v from %v done=%v", seqs, src, done)
	}
	if math.Abs(float64(sum[0])-math.Log(0.18)) > 1e-5 || math.Abs(float64(sum[1])-math.Log(0.075)) > 1e-5 {
		t.Errorf("step 2 sums %v", sum)
	}

	end := probsLogits(0.12, 0.1, 0.08, 0.7)
	patient := *b // patience 2 waits for four finished sequences
	patient.Patience = 2
	patient.finished = orderedScores{}
	for _, e := range b.finished.entries {
		patient.finished.set(e.seq, e.score)
	}
	sum2 := slices.Clone(sum)
	if _, _, done := patient.Update(seqs, [][]float32{end, end}, sum2); done {
		t.Error("patience 2: completed with 3 finished sequences")
	}

	_, _, done = b.Update(seqs, [][]float32{end, end}, sum)
	if !done {
		t.Fatal("step 3: two finished sequences but not completed")
	}
	cands, scores := b.Finalize(seqs, sum)
	if len(cands) != 2 || !slices.Equal(cands[0], []int{S, 0, 3}) || !slices.Equal(cands[1], []int{S, 1, 0, 3}) {
		t.Fatalf("finished %v", cands)
	}
	if math.Abs(scores[0]-math.Log(0.35)) > 1e-5 || math.Abs(scores[1]-math.Log(0.126)) > 1e-5 {
		t.Errorf("scores %v", scores)
	}

	sampled := [][]int{{0}, {1, 0}}
	zero, one := 0.0, 1.0
	for _, tc := range []struct {
		name    string
		penalty *float64
		want    int
	}{
		{"length normalized: log .126/2 > log .35", nil, 1},
		{"alpha 0: the raw sum", &zero, 0},
		{"alpha 1: (5+len)/6", &one, 0},
	} {
		if got := (MaximumLikelihoodRanker{LengthPenalty: tc.penalty}).Rank(sampled, scores); got != tc.want {
			t.Errorf("%s: ranked %d first, want %d", tc.name, got, tc.want)
		}
	}
}

func TestBeamFinalizeTopsUp(t *testing.T) {
	b := &BeamSearchDecoder{BeamSize: 3, EOT: 3}
	b.Reset()
	cands, scores := b.Finalize([][]int{{7, 1}, {7, 2}, {7, 0}}, []float32{-2, -1, -3})
	want := [][]int{{7, 2, 3}, {7, 1, 3}, {7, 0, 3}}
	if len(cands) != 3 {
		t.Fatalf("%v", cands)
	}
	for i := range want {
		if !slices.Equal(cands[i], want[i]) {
			t.Errorf("candidate %d = %v, want %v", i, cands[i], want[i])
		}
	}
	if !slices.Equal(scores, []float64{-1, -2, -3}) {
		t.Errorf("scores %v", scores)
	}
}

func TestTopK(t *testing.T) {
	x := []float32{1, 5, 3, 5, -1, 4}
	if got := topK(x, 3); !slices.Equal(got, []int{1, 3, 5}) {
		t.Errorf("topK = %v, want [1 3 5]", got)
	}
	if got := topK(x, 10); len(got) != 6 || got[5] != 4 {
		t.Errorf("topK past the length = %v", got)
	}
}
