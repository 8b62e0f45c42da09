package stream_test

import (
	"context"
	"fmt"
	"log"
	"path/filepath"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/stream"
)

// A file played into a Streamer in pieces of 100 ms, as a microphone
// would deliver it: the final comes when the utterance has ended (here at
// the end of the stream, on Close).
func ExampleStreamer() {
	m, err := asr.Default()
	if err != nil {
		log.Fatal(err)
	}
	search := speechmodel.DefaultSearchOptions()
	search.Beam = 1
	s, err := stream.New(speechmodel.NewLAS(m, &search), &stream.Options{PartialInterval: -1})
	if err != nil {
		log.Fatal(err)
	}
	print := func(events []stream.Event) {
		for _, e := range events {
			fmt.Printf("[%.2f–%.2f s] %s\n", e.Start, e.End, e.Text)
		}
	}
	err = stream.Play(context.Background(), filepath.Join("..", "..", "testdata", "hello.wav"), nil, 0, func(piece []float32) error {
		events, err := s.Write(piece)
		print(events)
		return err
	})
	if err != nil {
		log.Fatal(err)
	}
	events, err := s.Close()
	if err != nil {
		log.Fatal(err)
	}
	print(events)
	// Output:
	// [0.00–3.44 s] the quick brown facts jumps over the lasy dog
}
