package audio_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/attend-go/attend/audio"
)

// AddNoise mixes at an exact signal-to-noise ratio.
func ExampleAddNoise() {
	clean := make([]float32, 16000)
	for i := range clean {
		clean[i] = float32(0.3 * math.Sin(2*math.Pi*440*float64(i)/16000))
	}
	noisy := append([]float32(nil), clean...)
	if err := audio.AddNoise(noisy, audio.PinkNoise, 15, 16000, rand.New(rand.NewPCG(1, 2))); err != nil {
		fmt.Println(err)
		return
	}
	var ps, pn float64
	for i := range clean {
		ps += float64(clean[i]) * float64(clean[i])
		d := float64(noisy[i] - clean[i])
		pn += d * d
	}
	fmt.Printf("SNR %.2f dB\n", 10*math.Log10(ps/pn))
	// Output:
	// SNR 15.00 dB
}
