package speech

import (
	"context"
	"os/exec"
	"testing"

	"github.com/attend-go/attend/models/asr"
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

// TestTimingAccuracyRuns checks the measurement end to end with the
// embedded model when espeak-ng is installed: the counts must be
// consistent (the accuracy itself depends on the model; `asr timing`
// reports it).
func TestTimingAccuracyRuns(t *testing.T) {
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Skip("espeak-ng is not installed; the timing measurement needs it")
	}
	m, err := asr.Default()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTranscriber(m, &TranscribeOptions{Search: SearchOptions{Beam: 1}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := TimingAccuracy(context.Background(), tr, TimingOptions{Clips: 2, Words: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Clips != 2 || rep.RefWords != 6 || rep.Matched > rep.RefWords || rep.Within > rep.Matched {
		t.Errorf("inconsistent report %+v", rep)
	}
}
