package stream_test

import (
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

// TestSlowFinalsStopSpeculation: on a clock by which every decoding
// outlasts the endpointer's wait, the Streamer speculates only until its
// first final (the first decoding it times): every later final is
// decoded once, in the Write that cuts it, where on a clock by which
// decoding is free some were decoded ahead, while the endpointer
// waited; the finals are the same.
func TestSlowFinalsStopSpeculation(t *testing.T) {
	var full int
	m := countingModel{model(t), &full}
	x := recording(t, 3)
	var tick time.Duration
	slow := func() time.Duration { tick += time.Second; return tick }
	// run returns the finals, the full decodings after the first, and
	// how many later finals were decoded ahead of the Write that cut
	// them.
	run := func(opts *stream.Options) (finals []stream.Event, after, ahead int) {
		s, err := stream.New(m, opts)
		if err != nil {
			t.Fatal(err)
		}
		full = 0
		first := -1
		for i := 0; i <= len(x); i += rate / 10 {
			before := full
			var ev []stream.Event
			if i < len(x) {
				ev, err = s.Write(x[i:min(i+rate/10, len(x))])
			} else {
				ev, err = s.Close()
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ev {
				if !e.Final {
					continue
				}
				e.Decode = 0
				finals = append(finals, e)
				if first < 0 {
					first = full
				} else if full == before {
					ahead++
				}
			}
		}
		return finals, full - first, ahead
	}
	free, _, freeAhead := run(&stream.Options{Clock: func() time.Duration { return 0 }})
	got, after, ahead := run(&stream.Options{Clock: slow})
	if len(got) < 3 || !reflect.DeepEqual(got, free) {
		t.Fatalf("finals on the slow clock:\n%+v\non a free one:\n%+v", got, free)
	}
	if after != len(got)-1 || ahead != 0 || freeAhead == 0 {
		t.Errorf("slow clock: %d full decodings after the first final for %d finals more, %d decoded ahead; free clock: %d ahead",
			after, len(got)-1, ahead, freeAhead)
	}
}
