package stream_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/stream"
)

// countingModel counts the full (not partial) decodings of its decoders.
type countingModel struct {
	speechmodel.Model
	full *int
}

func (m countingModel) NewDecoder() (speechmodel.Decoder, error) {
	d, err := m.Model.NewDecoder()
	return countingDecoder{d, m.full}, err
}

type countingDecoder struct {
	speechmodel.Decoder
	full *int
}

func (d countingDecoder) Decode(e speechmodel.Encoding, o *speechmodel.DecodeOptions) (*speechmodel.Hypothesis, error) {
	if o == nil || !o.Partial {
		*d.full++
	}
	return d.Decoder.Decode(e, o)
}

// TestWastedSlowSpeculationStops streams utterances joined by pauses
// that look like ends for a while (150 ms of silence between the clips'
// own quiet ends and starts: the endpointer speculates after 200 ms of
// non-speech and cuts after 600) and by real ends (1.5 s). On a clock
// by which decoding is free, each pause costs a wasted speculation; on a
// clock by which every decoding costs a second, over twice the
// endpointer's wait, the first wasted speculation stops speculating (no
// final decodes within the wait again), so no more than one is wasted. The finals are the same.
func TestWastedSlowSpeculationStops(t *testing.T) {
	var full int
	m := countingModel{model(t), &full}
	x := pausedRecording(t, 4, 150*time.Millisecond)
	var tick time.Duration
	slow := func() time.Duration { tick += time.Second; return tick }
	run := func(opts *stream.Options) (finals []stream.Event, wasted int) {
		full = 0
		for _, e := range feed(t, m, x, rate/10, opts) {
			if e.Final {
				e.Decode = 0
				finals = append(finals, e)
			}
		}
		return finals, full - len(finals)
	}
	free, freeWasted := run(&stream.Options{Clock: func() time.Duration { return 0 }})
	got, wasted := run(&stream.Options{Clock: slow})
	if len(got) < 2 || !reflect.DeepEqual(got, free) {
		t.Fatalf("finals on the slow clock:\n%+v\non a free one:\n%+v", got, free)
	}
	if freeWasted < 2 || wasted > 1 {
		t.Errorf("decodings wasted on speculation: %d on a free clock (want 2 or more), %d on a slow one (want at most 1)", freeWasted, wasted)
	}
	t.Logf("%d finals; decodings wasted: %d on a free clock, %d on a slow one", len(got), freeWasted, wasted)
}

// pausedRecording joins the first n test utterances, each odd one
// followed by a pause of the given length and each even one by 1.5 s of
// silence.
func pausedRecording(tb testing.TB, n int, pause time.Duration) []float32 {
	tb.Helper()
	x := make([]float32, rate/2)
	for i := 1; i <= n; i++ {
		sig, err := speechmodel.Load(filepath.Join("..", "..", "testdata", "speech", fmt.Sprintf("u%02d.flac", i)), nil)
		if err != nil {
			tb.Fatal(err)
		}
		gap := 3 * rate / 2
		if i%2 == 1 {
			gap = int(pause * rate / time.Second)
		}
		x = append(append(x, sig.Samples...), make([]float32, gap)...)
	}
	return x
}
