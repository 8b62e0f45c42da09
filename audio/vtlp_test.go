package audio

import (
	"math"
	"slices"
	"testing"
)

// TestWarpOneIsIdentity: a warp of 1, given as an option or set back
// after another warp, gives bit-identical features to no warp at all.
func TestWarpOneIsIdentity(t *testing.T) {
	speech := readHello(t)
	compute := func(fb *Fbank) []float32 {
		t.Helper()
		var f Features
		if err := fb.Compute(&f, speech, 16000); err != nil {
			t.Fatal(err)
		}
		return f.Data
	}
	plain, err := NewFbank(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := compute(plain)
	one, err := NewFbank(&FbankOptions{Warp: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := compute(one); !slices.Equal(got, want) {
		t.Error("Warp 1 changed the features")
	}
	if err := one.SetWarp(1.2); err != nil {
		t.Fatal(err)
	}
	if got := compute(one); slices.Equal(got, want) {
		t.Error("SetWarp(1.2) left the features as they were")
	}
	if err := one.SetWarp(1); err != nil {
		t.Fatal(err)
	}
	if got := compute(one); !slices.Equal(got, want) {
		t.Error("SetWarp(1) after 1.2 did not restore the unwarped features")
	}
}

// TestVTLPWarpShape checks the piecewise-linear warp: f·α up to the break
// F_hi·min(α,1)/α, continuous there, increasing, and the Nyquist
// frequency fixed.
func TestVTLPWarpShape(t *testing.T) {
	const rate, nyquist, cutoff = 16000, 8000.0, 4800.0
	for _, alpha := range []float64{0.7, 0.85, 1.2, 1.4} {
		warp, err := newVTLPWarp(alpha, 0, rate)
		if err != nil {
			t.Fatal(err)
		}
		brk := cutoff * min(alpha, 1) / alpha
		if got := warp(1000); math.Abs(got-1000*alpha) > 1e-9 {
			t.Errorf("α %g: 1000 Hz → %g, want %g", alpha, got, 1000*alpha)
		}
		if got, want := warp(brk+1e-9), brk*alpha; math.Abs(got-want) > 1e-6 {
			t.Errorf("α %g: discontinuous at the break %g Hz: %g, want %g", alpha, brk, got, want)
		}
		if got := warp(nyquist); math.Abs(got-nyquist) > 1e-9 {
			t.Errorf("α %g: Nyquist → %g", alpha, got)
		}
		for f := 10.0; f < nyquist; f += 10 {
			if warp(f) <= warp(f-10) {
				t.Fatalf("α %g: warp not increasing at %g Hz", alpha, f)
			}
		}
	}
}

// TestVTLPMovesTone: the mel bin with the most energy of a pure tone at f
// becomes the bin centred nearest the warped frequency, f·α below the
// break.
func TestVTLPMovesTone(t *testing.T) {
	const rate = 16000
	// Mel points as newMelBank spaces them with the default options.
	melLow, melHigh := melScale(20), melScale(rate/2)
	delta := (melHigh - melLow) / 81
	nearestBin := func(hz float64) int { return int(math.Round((melScale(hz)-melLow)/delta - 1)) }
	for _, tc := range []struct{ f, alpha, warped float64 }{
		{1000, 0.85, 850},
		{1000, 1.2, 1200},
		{2000, 0.7, 1400},
		{2000, 1.4, 2800},
		{500, 0.7, 350},
		// Above the break (4800 Hz for α < 1): on the line to Nyquist,
		// 8000 − (8000 − 4080)/(8000 − 4800)·(8000 − 6000).
		{6000, 0.85, 5550},
	} {
		fb, err := NewFbank(&FbankOptions{Warp: tc.alpha})
		if err != nil {
			t.Fatal(err)
		}
		var feats Features
		if err := fb.Compute(&feats, tone(rate, rate/2, tc.f, 0.5), rate); err != nil {
			t.Fatal(err)
		}
		peak := slices.Index(feats.Row(10), slices.Max(feats.Row(10)))
		if want := nearestBin(tc.warped); abs(peak-want) > 1 {
			t.Errorf("%g Hz warped by %g: peak in bin %d, want %d (centred nearest %g Hz)", tc.f, tc.alpha, peak, want, tc.warped)
		}
		if unwarped := nearestBin(tc.f); abs(peak-unwarped) < 2 {
			t.Errorf("%g Hz warped by %g: peak in bin %d, hardly moved from %d", tc.f, tc.alpha, peak, unwarped)
		}
	}
}

func abs(x int) int { return max(x, -x) }

// TestWarpOptionsValidated: factors outside [MinWarp, MaxWarp] and bad
// cutoffs are errors, the extremes are accepted.
func TestWarpOptionsValidated(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts FbankOptions
		ok   bool
	}{
		{"none", FbankOptions{}, true},
		{"lowest", FbankOptions{Warp: MinWarp}, true},
		{"highest", FbankOptions{Warp: MaxWarp}, true},
		{"too low", FbankOptions{Warp: 0.69}, false},
		{"too high", FbankOptions{Warp: 1.41}, false},
		{"negative", FbankOptions{Warp: -1}, false},
		{"not a number", FbankOptions{Warp: math.NaN()}, false},
		{"negative cutoff", FbankOptions{Warp: 1.1, WarpCutoff: -1}, false},
		{"cutoff at Nyquist", FbankOptions{Warp: 1.1, WarpCutoff: 8000}, false},
		{"cutoff below Nyquist", FbankOptions{Warp: 1.1, WarpCutoff: 7000}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fb, err := NewFbank(&tc.opts)
			if err == nil {
				var f Features
				err = fb.Compute(&f, make([]float32, 1000), 16000)
			}
			if (err == nil) != tc.ok {
				t.Errorf("error %v, want ok %v", err, tc.ok)
			}
		})
	}
	fb, err := NewFbank(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, alpha := range []float64{0.3, 3, math.Inf(1)} {
		if err := fb.SetWarp(alpha); err == nil {
			t.Errorf("SetWarp(%g): no error", alpha)
		}
	}
}
