package stream_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/stream"
)

// TestWhisperFinalsIgnorePartials streams a recording through a Whisper
// model (the bundle's random-weight one, each decoding cut to 16 tokens
// by -sample-len to keep the test short) with partials, which encode a
// reduced audio context, and without: the finals, decoded over full
// 30-second windows, are the same (text, times, words).
func TestWhisperFinalsIgnorePartials(t *testing.T) {
	dir, err := shareddata.Lookup("whisper")
	if err != nil {
		t.Skip(err)
	}
	path := filepath.Join(dir, "small-en.ggml-q8_0.bin")
	if _, err := os.Stat(path); err != nil {
		t.Skip(err)
	}
	m, err := speechmodel.Open(path, &speechmodel.Decoding{Whisper: speechmodel.WhisperOptions{NoFallback: true, SampleLen: 16}})
	if err != nil {
		t.Fatal(err)
	}
	x := recording(t, 2)
	split := func(events []stream.Event) (finals []stream.Event, partials int) {
		for _, e := range events {
			if e.Final {
				e.Decode = 0
				finals = append(finals, e)
			} else {
				partials++
			}
		}
		return finals, partials
	}
	with, partials := split(feed(t, m, x, rate/10, nil))
	without, none := split(feed(t, m, x, rate/10, &stream.Options{PartialInterval: -1}))
	if partials == 0 || none != 0 || len(with) == 0 {
		t.Fatalf("%d partials with them, %d without; %d finals", partials, none, len(with))
	}
	if !reflect.DeepEqual(with, without) {
		t.Errorf("finals with partials:\n%+v\nwithout:\n%+v", with, without)
	}
}
