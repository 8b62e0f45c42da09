package plot_test

import (
	"fmt"
	"time"

	"github.com/attend-go/attend/pipeline/plot"
)

func ExampleAlignmentPlot() {
	// 1 s of 80-bin log-mel frames every 10 ms, and a listener that
	// reduced time 4× (25 encoder frames of 40 ms), spelling "hi".
	spec := plot.Spectrogram{Frames: 100, Bins: 80, Data: make([]float32, 100*80)}
	al := plot.Alignment{
		Outputs: 2, Frames: 25, Labels: []string{"h", "i"},
		FrameDuration: 40 * time.Millisecond,
		Weights:       make([]float32, 2*25),
	}
	al.Weights[0*25+8] = 1  // "h" at 0.32 s
	al.Weights[1*25+14] = 1 // "i" at 0.56 s
	img, err := plot.AlignmentPlot(spec, al, &plot.AlignmentOptions{
		WordBoundaries: []time.Duration{200 * time.Millisecond, 700 * time.Millisecond},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(img.Bounds().Dx() > 400)
	// Output: true
}
