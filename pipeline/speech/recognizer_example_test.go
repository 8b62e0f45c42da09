package speech_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// Transcribe a file with the embedded model and language model.
func ExampleRecognizer_TranscribeFile() {
	rec, err := speech.New(nil) // the embedded default model and LM
	if err != nil {
		log.Fatal(err)
	}
	t, err := rec.TranscribeFile(context.Background(), "../../testdata/hello.wav")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(t.Text)
	fmt.Printf("%.1f s, %d chunk, first word %q\n", t.Duration, len(t.Chunks), t.Chunks[0].Words[0].Word)
	// Output:
	// the quick brown fox jumps over the lazy god
	// 3.4 s, 1 chunk, first word "the"
}

// Stream the chunks of a recording as they are decoded, from any reader
// (an HTTP request body, a pipe).
func ExampleRecognizer_Segments() {
	rec, err := speech.New(&speech.Options{
		LM: &speechmodel.LanguageModel{Path: speechmodel.NoLM}, // acoustic model alone
	})
	if err != nil {
		log.Fatal(err)
	}
	f, err := os.Open("../../testdata/hello.wav")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	_, err = rec.Segments(context.Background(), f, func(c speech.Chunk) error {
		fmt.Printf("[%.1f s – %.1f s] %s\n", c.Start, c.End, c.Text)
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// [0.0 s – 3.4 s] the quick brown facts jumps over the lasy dog
}
