package plot

import (
	"math"
	"strconv"
)

// niceStep returns the smallest step from the 1–2–2.5–5 series whose ticks
// over a span of the given length are at least minGap pixels apart, when
// the span is pixels wide.
func niceStep(span float64, pixels, minGap int) float64 {
	if span <= 0 || pixels <= 0 {
		return 1
	}
	raw := span * float64(minGap) / float64(pixels)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= raw*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// ticks returns the multiples of step in [0, span].
func ticks(span, step float64) []float64 {
	var t []float64
	for i := 0; ; i++ {
		v := float64(i) * step
		if v > span*(1+1e-9) {
			return t
		}
		t = append(t, v)
	}
}

// formatTick writes a tick value with as many decimals as the step needs.
func formatTick(v, step float64) string {
	d := 0
	for s := step; d < 6 && math.Abs(s-math.Round(s)) > 1e-9*step; s *= 10 {
		d++
	}
	return strconv.FormatFloat(v, 'f', d, 64)
}
