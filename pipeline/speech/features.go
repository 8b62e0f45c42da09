package speech

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/internal/input"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// FeatureReport describes the speech front end's view of one file: what was
// decoded, and the log-mel features the ASR model would see.
type FeatureReport struct {
	Path     string
	Duration time.Duration
	Features *audio.Features // 10 ms frames × 80 log-mel bins, before CMVN
	// Energy is each frame's mean log-mel value, a loudness curve.
	Energy []float32
}

// LoadFeatures loads a file as Load does and computes its log-mel
// filterbank features with the defaults the ASR models use.
func LoadFeatures(path string, stdin io.Reader) (*FeatureReport, error) {
	sig, err := speechmodel.Load(path, stdin)
	if err != nil {
		return nil, err
	}
	fb, err := audio.NewFbank(nil)
	if err != nil {
		return nil, err
	}
	var feats audio.Features
	if err := fb.Compute(&feats, sig.Samples, sig.Rate); err != nil {
		return nil, fmt.Errorf("%s: %w", input.DisplayName(path), err)
	}
	rep := &FeatureReport{Path: path, Duration: sig.Duration(), Features: &feats}
	for t := 0; t < feats.Frames; t++ {
		var s float64
		for _, v := range feats.Row(t) {
			s += float64(v)
		}
		rep.Energy = append(rep.Energy, float32(s/float64(feats.Bins)))
	}
	return rep, nil
}

// Sparkline renders values as a line of width block characters (each the
// mean of its span), scaled between the minimum and maximum: a quick look at
// a loudness curve in a terminal.
func Sparkline(values []float32, width int) string {
	if len(values) == 0 || width <= 0 {
		return ""
	}
	width = min(width, len(values))
	cols := make([]float64, width)
	lo, hi := math.Inf(1), math.Inf(-1)
	for c := range cols {
		a, b := c*len(values)/width, (c+1)*len(values)/width
		var s float64
		for _, v := range values[a:b] {
			s += float64(v)
		}
		cols[c] = s / float64(b-a)
		lo, hi = math.Min(lo, cols[c]), math.Max(hi, cols[c])
	}
	const blocks = "▁▂▃▄▅▆▇█"
	runes := []rune(blocks)
	out := make([]rune, width)
	for c, v := range cols {
		i := 0
		if hi > lo {
			i = int((v - lo) / (hi - lo) * float64(len(runes)-1))
		}
		out[c] = runes[i]
	}
	return string(out)
}
