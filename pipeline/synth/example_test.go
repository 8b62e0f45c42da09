package synth_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/attend-go/attend/pipeline/synth"
)

// Plans depend only on the seed and the sentence index. Found lists would
// come from Discover; these name voices without running any engine.
func ExampleNewPlan() {
	voices := []synth.Found{
		{Engine: synth.Espeak{}, Voices: []string{"en-us", "en-us+klatt", "en-gb-scotland+f3"}},
		{Engine: synth.Flite{}, Voices: []string{"slt", "awb"}},
	}
	o := &synth.Options{Seed: 1, Reverb: 0.3, Noise: 0.75, Telephone: 0.2}
	for i := range 4 {
		fmt.Println(synth.NewPlan(i, voices, o))
	}
	// Output:
	// #0 flite/slt tempo 0.87 pitch 1.00 white noise 18.8dB telephone peak -3.6dBFS
	// #1 espeak-ng/en-us tempo 1.11 pitch 1.06 peak -3.5dBFS
	// #2 espeak-ng/en-us+klatt tempo 1.07 pitch 0.99 white noise 18.4dB peak -1.4dBFS
	// #3 espeak-ng/en-gb-scotland+f3 tempo 1.14 pitch 0.97 brown noise 27.4dB telephone peak -1.6dBFS
}

// Lines whose speech would not match their transcript are skipped and
// counted.
func ExampleReadSentences() {
	text := `The LORD is my shepherd.
Don't panic: it's only 42.
"Well," she said, "it's late."
BABE n. a baby`
	sentences, skipped, _ := synth.ReadSentences(strings.NewReader(text), "text.txt", nil)
	for _, s := range sentences {
		fmt.Printf("%s: %s\n", s.Source, s.Norm)
	}
	fmt.Println(skipped)
	// Output:
	// text.txt:3: well she said it's late
	// map[acronym:2 digits:1]
}

// AddNoise mixes at an exact signal-to-noise ratio.
func ExampleAddNoise() {
	clean := make([]float32, synth.SampleRate)
	for i := range clean {
		clean[i] = float32(0.3 * math.Sin(2*math.Pi*440*float64(i)/synth.SampleRate))
	}
	noisy := append([]float32(nil), clean...)
	if err := synth.AddNoise(noisy, synth.Pink, 15, synth.SampleRate, rand.New(rand.NewPCG(1, 2))); err != nil {
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
