package audio

import (
	"fmt"
	"math"
)

// Window is the analysis window applied to each frame before the FFT.
type Window int

const (
	// Povey is Kaldi's default window, a Hann window raised to the power
	// 0.85: (0.5 − 0.5·cos(2πi/(N−1)))^0.85. Like Hann it reaches zero at
	// both ends, but it has a flatter top.
	Povey Window = iota
	// Hann is the symmetric Hann window 0.5 − 0.5·cos(2πi/(N−1))
	// (Kaldi's "hanning").
	Hann
)

// String returns the window's name as Kaldi spells it.
func (w Window) String() string {
	switch w {
	case Povey:
		return "povey"
	case Hann:
		return "hanning"
	}
	return fmt.Sprintf("Window(%d)", int(w))
}

// coefficients returns the n window coefficients (n ≥ 2).
func (w Window) coefficients(n int) []float64 {
	c := make([]float64, n)
	a := 2 * math.Pi / float64(n-1)
	for i := range c {
		hann := 0.5 - 0.5*math.Cos(a*float64(i))
		if w == Povey {
			hann = math.Pow(hann, 0.85)
		}
		c[i] = hann
	}
	return c
}
