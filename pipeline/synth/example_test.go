package synth_test

import (
	"fmt"
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
