package speech_test

import (
	"fmt"
	"log"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// ExampleTranscriber_Align times the words of a known text in a recording:
// each word of the text as written comes back with its start and end in
// seconds (`asr align -format json` prints them; here only their count
// and order, which do not depend on the model).
func ExampleTranscriber_Align() {
	model, err := asr.Default()
	if err != nil {
		log.Fatal(err)
	}
	tr, err := speech.NewTranscriber(speechmodel.NewLAS(model, nil), nil)
	if err != nil {
		log.Fatal(err)
	}
	t, err := tr.Align("../../testdata/hello.wav", nil, "The quick brown fox jumps over the lazy dog.")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(t.Text)
	n, ordered, prev := 0, true, 0.0
	for _, c := range t.Chunks {
		for _, w := range c.Words {
			n++
			ordered = ordered && w.Start >= prev && w.End > w.Start
			prev = w.Start
		}
	}
	fmt.Printf("%d words timed, in order: %v\n", n, ordered)
	// Output:
	// The quick brown fox jumps over the lazy dog.
	// 9 words timed, in order: true
}
