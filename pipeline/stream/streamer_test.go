package stream_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/audio/audiotest"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/stream"
)

const rate = speechmodel.SampleRate

// model is the embedded LAS model with a greedy search (fast; live and
// offline decoding share whatever search the model has).
func model(tb testing.TB) speechmodel.Model {
	tb.Helper()
	m, err := asr.Default()
	if err != nil {
		tb.Fatal(err)
	}
	search := speechmodel.DefaultSearchOptions()
	search.Beam = 1
	return speechmodel.NewLAS(m, &search)
}

// recording joins the first n test clips with pauses of 1.5 s, after
// 0.5 s of silence.
func recording(tb testing.TB, n int) []float32 {
	tb.Helper()
	x := make([]float32, rate/2)
	for i := 1; i <= n; i++ {
		sig, err := speechmodel.Load(filepath.Join("..", "..", "testdata", "speech", fmt.Sprintf("u%02d.flac", i)), nil)
		if err != nil {
			tb.Fatal(err)
		}
		x = append(append(x, sig.Samples...), make([]float32, 3*rate/2)...)
	}
	return x
}

// feed writes x to a new Streamer in pieces of piece samples, closes it
// and returns every event.
func feed(tb testing.TB, m speechmodel.Model, x []float32, piece int, opts *stream.Options) []stream.Event {
	tb.Helper()
	s, err := stream.New(m, opts)
	if err != nil {
		tb.Fatal(err)
	}
	var events []stream.Event
	for i := 0; i < len(x); i += piece {
		ev, err := s.Write(x[i:min(i+piece, len(x))])
		if err != nil {
			tb.Fatal(err)
		}
		events = append(events, ev...)
	}
	ev, err := s.Close()
	if err != nil {
		tb.Fatal(err)
	}
	return append(events, ev...)
}

// TestFinalsAreTheOfflineTranscript streams a recording (utterances
// apart by 1.5 s pauses) in pieces of several sizes, with the live
// endpointer and without: its finals are the chunks of the offline
// transcript (text, times, words), each comes at most 1.6 s of audio
// after its end (EndSilence − SpeechPad, an analysis window and a piece
// with the endpointer), partials come while each utterance is spoken (at most
// every PartialInterval of audio) and the first of each before its
// final.
func TestFinalsAreTheOfflineTranscript(t *testing.T) {
	m := model(t)
	x := recording(t, 3)
	tr, err := speech.NewTranscriber(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	offline, err := tr.Stream("joined", (&audio.Signal{Rate: rate, Channels: 1, Samples: x}).Stream())
	if err != nil {
		t.Fatal(err)
	}
	var want []speech.Chunk
	for _, c := range offline.Chunks {
		if !c.NoSpeech && c.Text != "" {
			want = append(want, c)
		}
	}
	if len(want) < 3 {
		t.Fatalf("the offline transcript has %d chunks with text; the test wants 3 or more", len(want))
	}
	endLate := (stream.DefaultEndSilence - 200*time.Millisecond + 32*time.Millisecond).Seconds()
	for _, tc := range []struct {
		piece int
		end   time.Duration
		late  float64 // s of audio after its end a final may come, but a piece
	}{
		{rate / 10, 0, endLate},
		{rate / 4, 0, endLate},
		{rate / 4, -1, 1.6},
	} {
		piece := tc.piece
		t.Run(fmt.Sprint(piece, tc.end), func(t *testing.T) {
			events := feed(t, m, x, piece, &stream.Options{EndSilence: tc.end})
			var finals []stream.Event
			partials, lastAt := 0, 0.0
			for _, e := range events {
				if !e.Final {
					if partials > 0 && e.At-lastAt < 0.4-1e-9 {
						t.Errorf("partial at %.2f s only %.2f s after the one before", e.At, e.At-lastAt)
					}
					partials++
					lastAt = e.At
					continue
				}
				if partials == 0 {
					t.Errorf("final %q at %.2f s came without a partial before it", e.Text, e.At)
				}
				if late := e.At - e.End; late > tc.late+float64(piece)/rate && e.At < float64(len(x))/rate {
					t.Errorf("final %q of [%.2f, %.2f] came at %.2f s", e.Text, e.Start, e.End, e.At)
				}
				partials = 0
				finals = append(finals, e)
			}
			if len(finals) != len(want) {
				t.Fatalf("%d finals, want the %d chunks of the offline transcript:\n%+v\n%+v", len(finals), len(want), finals, want)
			}
			for i, f := range finals {
				w := want[i]
				if f.Text != w.Text || f.Start != w.Start || f.End != w.End || !reflect.DeepEqual(f.Words, w.Words) {
					t.Errorf("final %d: %q [%.3f, %.3f] %v\nwant %q [%.3f, %.3f] %v", i, f.Text, f.Start, f.End, f.Words,
						w.Text, w.Start, w.End, w.Words)
				}
			}
		})
	}
}

// TestQuietStreamsSayNothing: silence, steady noise and a tone give no
// event, partial or final.
func TestQuietStreamsSayNothing(t *testing.T) {
	m := model(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		x    []float32
	}{
		{"digital silence", make([]float32, 20*rate)},
		{"white noise", audiotest.White(rng, 8*rate, 0.003)},
		{"loud pink noise", audiotest.Pink(rng, 8*rate, 0.1)},
		{"a 440 Hz tone", tone(8*rate, 440, 0.3)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if events := feed(t, m, tc.x, rate/5, nil); len(events) != 0 {
				t.Errorf("events %+v, want none", events)
			}
		})
	}
}

// TestCloseMidUtterance: a stream that ends in the middle of a clip (a
// client gone, Ctrl-C) gets the final of what it heard; writing after
// Close is an error and closing twice says nothing more.
func TestCloseMidUtterance(t *testing.T) {
	m := model(t)
	x := recording(t, 1)
	x = x[:rate/2+(len(x)-rate/2-3*rate/2)*2/3]
	s, err := stream.New(m, &stream.Options{PartialInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	events, err := s.Write(x)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 0 {
		t.Errorf("events before the end %+v, want none (partials off, the utterance open)", events)
	}
	if events, err = s.Close(); err != nil || len(events) != 1 || !events[0].Final || events[0].Text == "" {
		t.Fatalf("Close: %+v, %v; want one final with text", events, err)
	}
	if math.Abs(events[0].End-float64(len(x))/rate) > 0.0005 {
		t.Errorf("the final ends at %v, want the end of the stream %v", events[0].End, float64(len(x))/rate)
	}
	if _, err := s.Write(x[:10]); err == nil {
		t.Error("Write after Close: no error")
	}
	if events, err := s.Close(); err != nil || len(events) != 0 {
		t.Errorf("second Close: %+v, %v", events, err)
	}
}

// tone returns n samples of a sine of f Hz and amplitude a.
func tone(n int, f, a float64) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(a * math.Sin(2*math.Pi*f*float64(i)/rate))
	}
	return x
}

// TestPartialLoad: with a tiny PartialLoad, each partial's cost spaces
// the next far out, so a recording gets fewer partials than without;
// the finals do not change.
func TestPartialLoad(t *testing.T) {
	m := model(t)
	x := recording(t, 2)
	count := func(events []stream.Event) (partials int, finals []string) {
		for _, e := range events {
			if e.Final {
				finals = append(finals, e.Text)
			} else {
				partials++
			}
		}
		return partials, finals
	}
	p0, f0 := count(feed(t, m, x, rate/10, nil))
	p1, f1 := count(feed(t, m, x, rate/10, &stream.Options{PartialLoad: 1e-6}))
	if p1 >= p0 || p1 == 0 || !reflect.DeepEqual(f0, f1) {
		t.Errorf("partials %d with the load bounded, %d without; finals %q and %q", p1, p0, f1, f0)
	}
	if _, err := stream.New(m, &stream.Options{PartialLoad: -1}); err == nil {
		t.Error("negative PartialLoad: no error")
	}
}
