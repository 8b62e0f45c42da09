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

// countingModel counts the full decodings of its decoders, and the
// partial ones when partial is not nil.
type countingModel struct {
	speechmodel.Model
	full, partial *int
}

func (m countingModel) NewDecoder() (speechmodel.Decoder, error) {
	d, err := m.Model.NewDecoder()
	return countingDecoder{d, m.full, m.partial}, err
}

type countingDecoder struct {
	speechmodel.Decoder
	full, partial *int
}

func (d countingDecoder) Decode(e speechmodel.Encoding, o *speechmodel.DecodeOptions) (*speechmodel.Hypothesis, error) {
	switch {
	case o == nil || !o.Partial:
		*d.full++
	case d.partial != nil:
		*d.partial++
	}
	return d.Decoder.Decode(e, o)
}

// TestNoPartialOfAnEndedUtterance streams utterances apart by 1.5 s
// pauses in 100 ms pieces: once an utterance's speech has ended and its
// speculation is decoded, no partial decodes it again while the
// endpointer waits to cut it (such a partial would find the same words
// and delay the final by its cost), and each final is its speculation,
// whose text the last partial before it showed.
func TestNoPartialOfAnEndedUtterance(t *testing.T) {
	var full, partial int
	s, err := stream.New(countingModel{model(t), &full, &partial}, nil)
	if err != nil {
		t.Fatal(err)
	}
	x := recording(t, 3)
	speculated, finals, again := false, 0, 0
	var shown string // the last partial's text
	for i := 0; i <= len(x); i += rate / 10 {
		full0, partial0 := full, partial
		var ev []stream.Event
		if i < len(x) {
			ev, err = s.Write(x[i:min(i+rate/10, len(x))])
		} else {
			ev, err = s.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
		if speculated {
			again += partial - partial0
		}
		speculated = speculated || full > full0
		for _, e := range ev {
			if !e.Final {
				shown = e.Text
				continue
			}
			finals++
			speculated = false
			if shown != e.Text {
				t.Errorf("final %q: the last partial before it was %q, want the speculation's text", e.Text, shown)
			}
		}
	}
	if finals != 3 || full != 3 || again != 0 {
		t.Errorf("%d finals, %d full decodings (want 3 and 3: every final its speculation), %d partial decodings after a speculation and before its final (want 0)", finals, full, again)
	}
	if partial == 0 {
		t.Error("no partials at all")
	}
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
	m := countingModel{model(t), &full, nil}
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
