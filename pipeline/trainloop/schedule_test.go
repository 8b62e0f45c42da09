package trainloop

import (
	"math"
	"strings"
	"testing"
)

// TestAdamOptionsSchedule: the learning-rate multiplier rises over the
// warm-up, stays at its peak without an anneal or falls along a half
// cosine to zero with one, and is scaled by the plateau decay factor as
// it stands when the optimizer steps.
func TestAdamOptionsSchedule(t *testing.T) {
	for _, tc := range []struct {
		name           string
		warmup, anneal int
		lrScale        float64
		step           int
		want           float64
	}{
		{"warm-up", 10, 0, 1, 5, 0.5},
		{"peak", 10, 0, 1, 10, 1},
		{"constant after", 10, 0, 1, 1000, 1},
		{"plateau decay", 10, 0, 0.5, 1000, 0.5},
		{"anneal warm-up", 10, 100, 1, 5, 0.5},
		{"anneal start", 10, 100, 1, 10, 1},
		{"anneal middle", 10, 100, 1, 60, 0.5},
		{"anneal quarter", 10, 100, 1, 35, 0.5 + 0.5*math.Cos(math.Pi/4)},
		{"anneal end", 10, 100, 1, 110, 0},
		{"anneal after", 10, 100, 1, 200, 0},
		{"anneal with decay", 10, 100, 0.5, 60, 0.25},
	} {
		st := NewState(0)
		st.LRScale = tc.lrScale
		o := AdamOptions(2e-4, tc.warmup, tc.anneal, &st)
		if got := o.Schedule(tc.step); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: multiplier at step %d = %g, want %g", tc.name, tc.step, got, tc.want)
		}
		if o.LR != 2e-4 {
			t.Errorf("%s: peak %g, want 2e-4", tc.name, o.LR)
		}
	}
}

// TestStopStep: an anneal ends the run where the rate reaches zero,
// unless -max-steps comes first.
func TestStopStep(t *testing.T) {
	for _, tc := range []struct{ maxSteps, warmup, anneal, want int }{
		{0, 200, 0, 0},
		{500, 200, 0, 500},
		{0, 200, 4827, 5027},
		{100, 200, 4827, 100},
		{9000, 200, 4827, 5027},
	} {
		if got := StopStep(tc.maxSteps, tc.warmup, tc.anneal); got != tc.want {
			t.Errorf("StopStep(%d, %d, %d) = %d, want %d", tc.maxSteps, tc.warmup, tc.anneal, got, tc.want)
		}
	}
}

// TestCheckAnneal: a negative anneal is an error naming the task and the
// count, not a silent "no anneal"; zero and more pass.
func TestCheckAnneal(t *testing.T) {
	for _, tc := range []struct {
		anneal int
		want   string // "" for valid
	}{
		{0, ""},
		{4827, ""},
		{-3, "speech: train: anneal over -3 steps"},
	} {
		err := CheckAnneal("speech: train", tc.anneal)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckAnneal(%d) = %v, want %q", tc.anneal, err, tc.want)
		}
	}
}
