package speecheval

import (
	"context"
	"math"
	"os/exec"
	"testing"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

func TestTrimSilence(t *testing.T) {
	x := make([]float32, 16000)
	for i := 4000; i < 12000; i++ {
		x[i] = 0.5
	}
	got := trimSilence(x, 16000)
	if n := len(got); n < 8000 || n > 8000+80 {
		t.Errorf("kept %d samples, want the 8000 loud ones (within one 5 ms window)", n)
	}
	if len(trimSilence(make([]float32, 100), 16000)) != 0 {
		t.Error("an all-zero signal kept samples")
	}
}

func TestTimingStats(t *testing.T) {
	for _, tc := range []struct {
		name string
		errs []float64
		want TimingStats
	}{
		{"none", nil, TimingStats{}},
		{"odd", []float64{0.3, 0.05, 0.1}, TimingStats{Words: 3, Within: 2, MeanAbsError: 0.15, MedianAbsError: 0.1}},
		{"even", []float64{0.2, 0.0, 0.4, 0.12}, TimingStats{Words: 4, Within: 1, MeanAbsError: 0.18, MedianAbsError: 0.16}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := timingStats(tc.errs, 0.1)
			if got.Words != tc.want.Words || got.Within != tc.want.Within ||
				math.Abs(got.MeanAbsError-tc.want.MeanAbsError) > 1e-12 || math.Abs(got.MedianAbsError-tc.want.MedianAbsError) > 1e-12 {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestTimingAccuracyRuns checks the measurement end to end with the
// embedded model when espeak-ng is installed: forced alignment times every
// word, free decoding at most every word, and the counts are consistent
// (the accuracy itself depends on the model; `asr timing` reports it).
// Each mode alone measures what it measures in both.
func TestTimingAccuracyRuns(t *testing.T) {
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Skip("espeak-ng is not installed; the timing measurement needs it")
	}
	m, err := asr.Default()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := speech.NewTranscriber(speechmodel.NewLAS(m, &speechmodel.SearchOptions{LengthPenalty: 1, EOSThreshold: 1.5, CTCWeight: 0.3, Beam: 1}), nil)
	if err != nil {
		t.Fatal(err)
	}
	o := TimingOptions{Clips: 2, Words: 3}
	both, err := TimingAccuracy(context.Background(), tr, o)
	if err != nil {
		t.Fatal(err)
	}
	if both.Clips != 2 || both.RefWords != 6 || both.Forced.Words != 6 || both.Free.Words > 6 {
		t.Errorf("inconsistent report %+v", both)
	}
	for _, s := range []TimingStats{both.Forced, both.Free} {
		if s.Within > s.Words || s.MeanAbsError < 0 || s.MedianAbsError < 0 {
			t.Errorf("inconsistent stats %+v", s)
		}
	}
	for _, tc := range []struct {
		mode         TimingMode
		forced, free TimingStats
	}{{TimingForced, both.Forced, TimingStats{}}, {TimingFree, TimingStats{}, both.Free}} {
		o.Mode = tc.mode
		rep, err := TimingAccuracy(context.Background(), tr, o)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Forced != tc.forced || rep.Free != tc.free {
			t.Errorf("mode %d: forced %+v, free %+v; want %+v, %+v", tc.mode, rep.Forced, rep.Free, tc.forced, tc.free)
		}
	}
}
